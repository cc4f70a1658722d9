/**
 * (b) of the packed-package specs (see packed-package.e2e-spec.ts): the packed
 * packages in a CommonJS NestJS 11 + mongoose 8 app set up as `nest new` sets
 * it up, compiled by tsc and run by node without require(esm) (as Node
 * 20.0–20.18 would), and tested with Jest 29 and then Jest 30 + ts-jest. One
 * app for all three: Jest 30 replaces Jest 29 in place, which costs a fraction
 * of a second install.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedResults } from './packed-consumer/expected.js';
import {
  consumer,
  consumersFolder,
  installed,
  lastJsonLine,
  NPM_INSTALL_FLAGS,
  packedPackages,
  run,
  type PackedPackages,
} from './packed-package.fixture.js';

/** The CommonJS NestJS 11 + mongoose 8 consumer, set up as `nest new` sets one up, with Jest 29. */
function cjsConsumer(dir: string, packed: PackedPackages): void {
  consumer(
    dir,
    {
      dependencies: {
        'nestjs-objectid': `file:${packed.library.tarball}`,
        'nestjs-objectid-mongo-server': `file:${packed.server.tarball}`,
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
}

/** Runs the consumer's Jest (as `npm test` of a `nest new` app would) and returns its JSON report. */
function consumerJest(app: string): { numPassedTests: number; numFailedTests: number; numTotalTestSuites: number } {
  return JSON.parse(
    run(
      process.execPath,
      [join(app, 'node_modules/jest/bin/jest.js'), '--ci', '--json'],
      app,
      '--no-experimental-require-module',
    ),
  );
}

describe('(b) the packed packages in a CommonJS NestJS 11 + mongoose 8 app', () => {
  const folder = consumersFolder('cjs');
  const app = join(folder.dir, 'cjs');

  beforeAll(async () => {
    cjsConsumer(app, await packedPackages());
  }, 300_000);
  afterAll(() => folder.remove());

  it('should compile with tsc and run on node without require(esm)', () => {
    run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
    const results = lastJsonLine(run(process.execPath, ['--no-experimental-require-module', 'dist/main.js'], app));
    expect(results).toEqual(expectedResults(results.sentId as string));
  }, 120_000);

  it('should load every entry under Jest 29 + ts-jest', () => {
    const report = consumerJest(app);
    expect([report.numPassedTests, report.numFailedTests, report.numTotalTestSuites]).toEqual([1, 0, 1]);
  }, 180_000);

  it('should load every entry under Jest 30 + ts-jest', () => {
    run('npm', ['install', ...NPM_INSTALL_FLAGS, 'jest@30.5.2', '@types/jest@30.0.0'], app);
    expect(JSON.parse(readFileSync(join(app, 'node_modules/jest/package.json'), 'utf8')).version).toBe('30.5.2');
    const report = consumerJest(app);
    expect([report.numPassedTests, report.numFailedTests, report.numTotalTestSuites]).toEqual([1, 0, 1]);
  }, 300_000);
});
