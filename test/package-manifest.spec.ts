import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  type: string;
  files: string[];
  exports: Record<string, string | { types?: string; default?: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

/** Library sources that ship: everything in src/ but specs and test fixtures. */
function shippedSources(dir = join(root, 'src')): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return shippedSources(path);
    return /\.ts$/.test(entry) && !/\.(spec|fixture|d)\.ts$/.test(entry) ? [path] : [];
  });
}

function importedPackages(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map(
    (m) => m[1] ?? m[2],
  );
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]));
}

describe('package manifest', () => {
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);

  it.each(shippedSources().map((file) => [relative(root, file), file]))(
    'should declare every package %s imports as a dependency or peer',
    (_name, file) => {
      const undeclared = importedPackages(file).filter((name) => !declared.has(name));
      expect(undeclared).toEqual([]);
    },
  );

  it('should give every export types and default, pointing into dist/', () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath === './package.json') continue;
      expect(target).toEqual({
        types: expect.stringMatching(/^\.\/dist\/.*\.d\.ts$/),
        default: expect.stringMatching(/^\.\/dist\/.*\.js$/),
      });
    }
  });

  it('should map every export to a source entry point that exists', () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      const source = target.default!.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      expect([subpath, statSync(join(root, source)).isFile()]).toEqual([subpath, true]);
    }
  });

  it('should ship only dist/ (npm adds README, LICENSE and package.json)', () => {
    expect(manifest.files).toEqual(['dist']);
  });

  it('should be an ES module named nestjs-objectid', () => {
    expect([manifest.name, manifest.type]).toEqual(['nestjs-objectid', 'module']);
  });

  it('should keep the embedded server out of the runtime entry point', () => {
    const runtime = shippedSources().filter((file) => !file.includes('/src/testing/'));
    const offenders = runtime.filter((file) => /from '\.\.?\/(\.\.\/)*testing\//.test(readFileSync(file, 'utf8')));
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });
});
