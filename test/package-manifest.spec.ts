import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

interface Manifest {
  name: string;
  type: string;
  files: string[];
  exports: Record<string, string | Record<string, { types: string; default: string }>>;
  typesVersions?: Record<string, Record<string, string[]>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const read = (dir: string): Manifest => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
const library = read('.');
const server = read('packages/mongo-server');

/** Sources that ship: everything in `dir` but specs and test fixtures. */
function shippedSources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return shippedSources(path);
    return /\.c?ts$/.test(entry) && !/\.(spec|fixture|d)\.ts$/.test(entry) ? [path] : [];
  });
}

function specifiers(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [
    ...source.matchAll(
      /(?:import|export)[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|require\(\s*'([^']+)'\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3]);
}

function importedPackages(file: string): string[] {
  return specifiers(file)
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]));
}

/** The library's own files that `file` imports, as paths relative to src/. */
function localImports(file: string): string[] {
  return specifiers(file)
    .filter((s) => s.startsWith('.'))
    .map((s) =>
      relative(join(root, 'src'), resolve(dirname(file), s.replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts'))),
    );
}

const librarySources = shippedSources(join(root, 'src'));

describe.each([
  ['nestjs-objectid', '.', library, librarySources],
  [
    'nestjs-objectid-mongo-server',
    'packages/mongo-server',
    server,
    shippedSources(join(root, 'packages/mongo-server/src')),
  ],
])('package manifest of %s', (name, dir, manifest, sources) => {
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);

  it.each(sources.map((file) => [relative(root, file), file]))(
    'should declare every package %s imports as a dependency or peer',
    (_name, file) => {
      const undeclared = importedPackages(file).filter((pkg) => !declared.has(pkg));
      expect(undeclared).toEqual([]);
    },
  );

  it('should offer every entry to import and require, each with its types, pointing into dist/esm and dist/cjs', () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath === './package.json') continue;
      const base = subpath === '.' ? '' : `${subpath.slice(2)}/`;
      expect([subpath, target]).toEqual([
        subpath,
        {
          import: { types: `./dist/esm/${base}index.d.ts`, default: `./dist/esm/${base}index.js` },
          require: { types: `./dist/cjs/${base}index.d.ts`, default: `./dist/cjs/${base}index.js` },
        },
      ]);
      // …and to a source entry point that exists.
      expect(statSync(join(root, dir, 'src', base, 'index.ts')).isFile()).toBe(true);
    }
  });

  it('should ship only dist/ (npm adds README, LICENSE and package.json)', () => {
    expect([manifest.name, manifest.type, manifest.files]).toEqual([name, 'module', ['dist']]);
  });
});

describe('the library package', () => {
  it('should have no runtime dependencies, only peers', () => {
    expect(library.dependencies).toBeUndefined();
  });

  // bson is optional too: mongoose brings it, and a required `^6 || ^7` peer made npm install bson 7 beside
  // mongoose 8's bson 6, so ids were no longer `instanceof Types.ObjectId`. Without mongoose, install bson.
  // rxjs: the transport interceptor's operators; @nestjs/common requires it as a peer too, so every Nest app has it.
  it('should require only @nestjs/common, class-validator/class-transformer and rxjs', () => {
    const required = Object.keys(library.peerDependencies ?? {}).filter(
      (pkg) => !library.peerDependenciesMeta?.[pkg]?.optional,
    );
    expect(required.sort()).toEqual(['@nestjs/common', 'class-transformer', 'class-validator', 'rxjs']);
  });

  it('should let a "module": "commonjs" tsconfig (node10 resolution) find the types of every subpath', () => {
    const subpaths = Object.keys(library.exports).filter((s) => s !== '.' && s !== './package.json');
    expect(library.typesVersions).toEqual({
      '*': Object.fromEntries(subpaths.map((s) => [s.slice(2), [`./dist/cjs/${s.slice(2)}/index.d.ts`]])),
    });
  });

  it('should keep the embedded server out of the library', () => {
    const offenders = librarySources.filter((file) => importedPackages(file).includes('nestjs-objectid-mongo-server'));
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });

  // ARCHITECTURE.md: which folder may import which. A folder reaches another only through its index.ts.
  const allowed: Record<string, string[]> = {
    core: [],
    time: ['core'],
    pagination: ['core'],
    pipes: ['core', 'object-id.constants.ts'],
    validation: ['core'],
    serialization: ['core', 'object-id.constants.ts'],
    sequence: ['core', 'time', 'object-id.constants.ts'],
    swagger: ['core'],
    graphql: ['core'],
  };

  it.each(librarySources.map((file) => [relative(join(root, 'src'), file), file]))(
    '%s should import only what its layer may, through faces',
    (rel, file) => {
      const folder = rel.includes('/') ? rel.split('/')[0] : undefined;
      const wrong = localImports(file).filter((target) => {
        const targetFolder = target.includes('/') ? target.split('/')[0] : undefined;
        if (targetFolder === folder) return false; // within a folder, anything goes
        if (target === 'object-id.constants.ts') return folder !== undefined && !allowed[folder].includes(target);
        if (targetFolder === undefined) return folder !== undefined; // top-level files: the module and entry only
        if (!target.endsWith('/index.ts')) return true; // another folder's internals
        return folder !== undefined && !allowed[folder].includes(targetFolder);
      });
      expect(wrong).toEqual([]);
    },
  );

  // 35 until 0.3.0; the nil id, the validate-only pipe, the transport interceptor, ids at a
  // chosen time and keyset sorting/cursors added ten names. A cap still: the next concern gets a subpath.
  it('should export at most 45 names from the main entry', () => {
    const source = readFileSync(join(root, 'src/index.ts'), 'utf8');
    const names = [...source.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((m) =>
      m[1]
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    );
    expect(source).not.toMatch(/export \*/);
    expect(names.length).toBeLessThanOrEqual(45);
  });
});
