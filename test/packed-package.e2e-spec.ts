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
 * Installs from the npm cache where it can (the first run downloads (b)'s packages).
 * PACKED_KEEP=1 keeps the consumer apps (their folder is in the test's output).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedResults } from './packed-consumer/expected.js';

const root = new URL('..', import.meta.url).pathname;
const consumerSources = join(root, 'test/packed-consumer');
const installed = (name: string) =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;

/** Runs a command and returns its stdout; a failure's message carries the command's own output. */
function run(cmd: string, args: string[], cwd: string, nodeOptions = ''): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: nodeOptions },
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${(error as Error).message}\n${stdout ?? ''}${stderr ?? ''}`.slice(0, 20_000), { cause: error });
  }
}

interface Packed {
  tarball: string;
  files: string[];
  manifest: { dependencies?: Record<string, string> };
}

/**
 * Builds package `dir` into a staging folder under `destination` and packs it
 * from there, so that the tests never write the repository's own dist/ folders
 * (other specs, and a developer's build, may be using them meanwhile).
 */
function pack(dir: string, destination: string): Packed {
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const stage = join(destination, `stage-${manifest.name}`);
  mkdirSync(stage, { recursive: true });
  for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(root, dir, file), join(stage, file));
  run(process.execPath, [join(root, 'scripts/build.mjs'), join(root, dir), join(stage, 'dist')], root);
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], stage),
  );
  return {
    tarball: join(destination, packed.filename),
    files: packed.files.map((f: { path: string }) => f.path),
    manifest,
  };
}

function lastJsonLine(output: string): Record<string, unknown> {
  return JSON.parse(output.trim().split('\n').pop()!);
}

/** Writes a consumer app into `dir` and installs it. */
function consumer(
  dir: string,
  packageJson: Record<string, unknown>,
  tsconfig: Record<string, unknown>,
  sources: string[],
  sourceDir = '.',
) {
  mkdirSync(join(dir, sourceDir), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, ...packageJson }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const file of sources) copyFileSync(join(consumerSources, file), join(dir, sourceDir, file));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
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
    it('should contain both builds and depend on bson, mingo and re2js', () => {
      expect(server.files).toEqual(
        expect.arrayContaining(['dist/esm/index.js', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'LICENSE']),
      );
      expect(Object.keys(server.manifest.dependencies ?? {}).sort()).toEqual(['bson', 'mingo', 're2js']);
    });
  });

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
