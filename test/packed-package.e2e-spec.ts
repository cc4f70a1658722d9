/**
 * The packed packages, used as users would: build and `npm pack` the library
 * and the embedded server package (in a staging folder, never the
 * repository's dist/), install both tarballs into consumer apps outside the
 * repository and run them. The consumer matrix:
 * (a) NestJS 12 + mongoose 9 as ES modules, compiled by tsc (NodeNext, checking
 *     the shipped .d.ts files too);
 * (b) NestJS 11 + mongoose 8 as CommonJS, compiled by tsc with Nest's default
 *     CommonJS tsconfig, run by node without require(esm) (as Node 20.0–20.18
 *     would) and tested with Jest 29 and Jest 30 + ts-jest as `nest new` sets them up.
 * (c) a production install (`npm ci --omit=dev`) holds the library and its required peers only.
 * Installs from the npm cache where it can (the first run downloads (b)'s packages).
 * PACKED_KEEP=1 keeps the consumer apps (their folder is in the test's output).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedResults } from './packed-consumer/expected.js';
import { consumer, installed, lastJsonLine, pack, run, type Packed } from './packed-package.fixture.js';

/** Names of every package under `nodeModules`, nested ones included. */
function installedPackages(nodeModules: string, names = new Set<string>()): Set<string> {
  if (!existsSync(nodeModules)) return names;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of dirs) {
      names.add(name);
      installedPackages(join(nodeModules, name, 'node_modules'), names);
    }
  }
  return names;
}

describe('the packed packages', () => {
  let dir: string;
  let library: Packed;
  let server: Packed;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'nestjs-objectid-packed-'));
    library = pack('.', dir);
    server = pack('packages/mongo-server', dir);
    if (process.env.PACKED_KEEP) console.log(`packed consumers in ${dir}`);
  }, 120_000);

  afterAll(() => {
    // PACKED_KEEP=1 keeps the consumers for a look after a failure.
    if (dir && !process.env.PACKED_KEEP) rmSync(dir, { recursive: true, force: true });
  });

  describe('nestjs-objectid', () => {
    it('should contain only dist/, README, LICENSE and package.json, with both builds', () => {
      const outside = library.files.filter(
        (f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(f),
      );
      expect(outside).toEqual([]);
      expect(library.files).toEqual(
        expect.arrayContaining([
          'dist/esm/index.js',
          'dist/esm/index.d.ts',
          'dist/cjs/index.js',
          'dist/cjs/index.d.ts',
          'dist/cjs/package.json',
          'dist/esm/sequence/index.js',
          'dist/cjs/serialization/index.js',
          'dist/cjs/swagger/index.d.ts',
          'dist/esm/graphql/index.js',
          'dist/cjs/graphql/index.d.ts',
        ]),
      );
      expect(library.files.filter((f) => /\.(spec|fixture)\.|\.map$/.test(f))).toEqual([]);
    });

    it('should hold no emulator code and no dependencies', () => {
      expect(library.files.filter((f) => /testing|embedded|wire|mingo/.test(f))).toEqual([]);
      expect(library.manifest.dependencies).toBeUndefined();
    });
  });

  describe('nestjs-objectid-mongo-server', () => {
    it('should contain both builds and depend on bson, mingo, re2js, snowball-stemmers and sorted-btree', () => {
      expect(server.files).toEqual(
        expect.arrayContaining(['dist/esm/index.js', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'LICENSE']),
      );
      expect(Object.keys(server.manifest.dependencies ?? {}).sort()).toEqual([
        'bson',
        'mingo',
        're2js',
        'snowball-stemmers',
        'sorted-btree',
      ]);
    });
  });

  it('(c) should install, with npm ci --omit=dev, the library and its required peers only', () => {
    const app = join(dir, 'production');
    const peers = ['@nestjs/common', 'class-transformer', 'class-validator', 'reflect-metadata', 'rxjs', 'bson'];
    consumer(
      app,
      {
        dependencies: {
          'nestjs-objectid': `file:${library.tarball}`,
          ...Object.fromEntries(peers.map((name) => [name, installed(name)])),
        },
        // The test server is a dev dependency: its own dependencies must stay out of a production install.
        devDependencies: { 'nestjs-objectid-mongo-server': `file:${server.tarball}` },
      },
      {},
      [],
    );
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    expect(
      ['mingo', 're2js', 'sorted-btree', 'nestjs-objectid-mongo-server'].map(
        (name) => lock.packages[`node_modules/${name}`]?.dev,
      ),
    ).toEqual([true, true, true, true]);
    run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], app);
    const names = installedPackages(join(app, 'node_modules'));
    expect(peers.filter((name) => !names.has(name))).toEqual([]);
    expect(names.has('nestjs-objectid')).toBe(true);
    const unwanted = [
      'nestjs-objectid-mongo-server',
      'mingo',
      're2js',
      'sorted-btree',
      'mongodb',
      'mongoose',
      '@nestjs/core',
      'graphql',
    ];
    expect(unwanted.filter((name) => names.has(name))).toEqual([]);
    // What is installed is enough: both builds load and the pipe turns hex into an ObjectId.
    const check = `const { ParseObjectIdPipe } = LIB; const id = new ParseObjectIdPipe().transform('507f1f77bcf86cd799439011', { type: 'param' }); console.log(id.constructor.name + ' ' + id.toHexString());`;
    const expected = 'ObjectId 507f1f77bcf86cd799439011\n';
    const cjs = `require('reflect-metadata'); ${check.replace('LIB', "require('nestjs-objectid')")}`;
    // (NestJS 12 is ESM-only: its CommonJS users need require(esm); (b) covers Node without it on NestJS 11.)
    expect(run(process.execPath, ['-e', cjs], app)).toBe(expected);
    const esm = `import 'reflect-metadata'; import * as lib from 'nestjs-objectid'; ${check.replace('LIB', 'lib')}`;
    expect(run(process.execPath, ['--input-type=module', '-e', esm], app)).toBe(expected);
  }, 300_000);

  it('(a) should run in an ES module NestJS 12 + mongoose 9 app compiled by tsc', () => {
    const app = join(dir, 'esm');
    const deps = [
      '@nestjs/common',
      '@nestjs/core',
      '@nestjs/mongoose',
      '@nestjs/platform-express',
      '@nestjs/swagger',
      'class-transformer',
      'class-validator',
      'mongoose',
      'reflect-metadata',
      'rxjs',
    ];
    consumer(
      app,
      {
        type: 'module',
        dependencies: {
          'nestjs-objectid': `file:${library.tarball}`,
          'nestjs-objectid-mongo-server': `file:${server.tarball}`,
          ...Object.fromEntries(deps.map((name) => [name, installed(name)])),
        },
        devDependencies: { typescript: installed('typescript'), '@types/node': installed('@types/node') },
      },
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          // Check the shipped .d.ts files too, not only the consumer's code.
          skipLibCheck: false,
          types: ['node'],
          outDir: 'out',
        },
        files: ['main.ts'],
      },
      ['main.ts', 'app.ts', 'expected.ts'],
    );
    run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
    const results = lastJsonLine(run(process.execPath, ['out/main.js'], app));
    expect(results).toEqual(expectedResults(results.sentId as string));
  }, 300_000);

  describe('(b) in a CommonJS NestJS 11 + mongoose 8 app', () => {
    let app: string;

    beforeAll(() => {
      app = join(dir, 'cjs');
      consumer(
        app,
        {
          dependencies: {
            'nestjs-objectid': `file:${library.tarball}`,
            'nestjs-objectid-mongo-server': `file:${server.tarball}`,
            '@nestjs/common': '11.2.10',
            '@nestjs/core': '11.2.10',
            '@nestjs/mongoose': '11.0.4',
            '@nestjs/platform-express': '11.2.10',
            '@nestjs/swagger': '11.4.0',
            'class-transformer': '0.5.1',
            'class-validator': '0.14.3',
            mongoose: '8.24.10',
            'reflect-metadata': '0.2.2',
            rxjs: '7.8.2',
          },
          devDependencies: {
            typescript: '5.9.3',
            '@types/node': installed('@types/node'),
            jest: '29.7.0',
            'ts-jest': '29.4.15',
            '@types/jest': '29.5.14',
          },
          // Jest's configuration as `nest new` writes it.
          jest: {
            moduleFileExtensions: ['js', 'json', 'ts'],
            rootDir: 'src',
            testRegex: '.*\\.spec\\.ts$',
            transform: { '^.+\\.(t|j)s$': 'ts-jest' },
            testEnvironment: 'node',
          },
        },
        // Nest's default tsconfig for a new CommonJS project.
        {
          compilerOptions: {
            module: 'commonjs',
            declaration: true,
            removeComments: true,
            emitDecoratorMetadata: true,
            experimentalDecorators: true,
            allowSyntheticDefaultImports: true,
            target: 'ES2023',
            sourceMap: true,
            outDir: './dist',
            baseUrl: './',
            incremental: true,
            skipLibCheck: true,
            strictNullChecks: true,
            forceConsistentCasingInFileNames: true,
            noImplicitAny: false,
            strictBindCallApply: false,
            noFallthroughCasesInSwitch: false,
          },
        },
        ['main.ts', 'app.ts', 'expected.ts', 'app.spec.ts'],
        'src',
      );
    }, 300_000);

    it('should compile with tsc and run on node without require(esm)', () => {
      run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
      const results = lastJsonLine(run(process.execPath, ['--no-experimental-require-module', 'dist/main.js'], app));
      expect(results).toEqual(expectedResults(results.sentId as string));
    }, 120_000);

    /** Runs the consumer's Jest (as `npm test` of a `nest new` app would) and returns its JSON report. */
    function jest(): { numPassedTests: number; numFailedTests: number; numTotalTestSuites: number } {
      return JSON.parse(
        run(
          process.execPath,
          [join(app, 'node_modules/jest/bin/jest.js'), '--ci', '--json'],
          app,
          '--no-experimental-require-module',
        ),
      );
    }

    it('should load every entry under Jest 29 + ts-jest', () => {
      const report = jest();
      expect([report.numPassedTests, report.numFailedTests, report.numTotalTestSuites]).toEqual([1, 0, 1]);
    }, 180_000);

    it('should load every entry under Jest 30 + ts-jest', () => {
      run(
        'npm',
        [
          'install',
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          '--ignore-scripts',
          'jest@30.5.2',
          '@types/jest@30.0.0',
        ],
        app,
      );
      expect(JSON.parse(readFileSync(join(app, 'node_modules/jest/package.json'), 'utf8')).version).toBe('30.5.2');
      const report = jest();
      expect([report.numPassedTests, report.numFailedTests, report.numTotalTestSuites]).toEqual([1, 0, 1]);
    }, 300_000);
  });
});
