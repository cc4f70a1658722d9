import { SWC_TYPESCRIPT } from './scripts/compile-sample.mjs';

/**
 * Jest runs in native ESM mode because NestJS 12 and @nestjs/mongoose 12 ship
 * ESM only; `npm test` sets NODE_OPTIONS=--experimental-vm-modules for that.
 * @swc/jest compiles TypeScript with the options `npm start` compiles the
 * sample app with (scripts/compile-sample.mjs): legacy decorators and decorator
 * metadata, which Nest's dependency injection needs.
 * @type {import('jest').Config}
 */
const swc = [
  '@swc/jest',
  {
    jsc: SWC_TYPESCRIPT,
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

// bson's loader (src/core/bson.cts) is CommonJS on purpose, so Jest runs it as
// CommonJS too: `require('bson')` then gives the same module as mongoose's.
const swcCommonJs = [swc[0], { ...swc[1], module: { type: 'commonjs' } }];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.cts$': swcCommonJs,
    '^.+\\.ts$': swc,
    // @fastify/static (Swagger UI's files on Fastify) require()s content-disposition 3, which is ESM
    // only: Node 20 loads it, Jest's runtime only from Node 24.9 on, so Jest gets it as CommonJS.
    '/node_modules/content-disposition/.+\\.js$': swcCommonJs,
  },
  transformIgnorePatterns: ['^(?!.*/node_modules/content-disposition/).*/node_modules/'],
  moduleFileExtensions: ['ts', 'cts', 'js', 'mjs', 'cjs', 'json'],
  // Sources import each other with the `.js` suffix Node's ESM resolver needs.
  // The sample app imports the library by its package name, as a user would.
  moduleNameMapper: {
    '^nestjs-objectid$': '<rootDir>/src/index.ts',
    '^nestjs-objectid-mongo-server$': '<rootDir>/packages/mongo-server/src/index.ts',
    '^nestjs-objectid/(.*)$': '<rootDir>/src/$1/index.ts',
    '^\\./bson\\.cjs$': '<rootDir>/src/core/bson.cts',
    '^\\./snowball-stemmers\\.cjs$': '<rootDir>/packages/mongo-server/src/query/snowball-stemmers.cts',
    '^(\\.{1,2}/)+(bson/)?bson-library\\.cjs$': '<rootDir>/packages/mongo-server/src/bson/bson-library.cts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/packages/*/src/**/*.spec.ts',
    '<rootDir>/test/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/sample-app/**/*.spec.ts',
  ],
  // test/packed-consumer/ is a consumer app's own code, run by the test/packed-package*.e2e-spec.ts specs.
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/test/packed-consumer/'],
  // Names the run, so that the packed-package specs share one build and pack of the
  // packages per run (test/packed-package.fixture.ts); the teardown removes it.
  globalSetup: '<rootDir>/test/packed-package.global-setup.mjs',
  globalTeardown: '<rootDir>/test/packed-package.global-teardown.mjs',
  modulePathIgnorePatterns: ['<rootDir>/packages/.*/dist/'],
  testTimeout: 30000,
  // Part of the suites' time is waiting (on child processes, npm, a browser, timers,
  // sockets) rather than computing: two workers on a 2-core machine cut the wall time
  // of `npm test` by about 40% against one (476 s → 280 s measured); Jest's default is
  // cores - 1. A third still finds idle cores: 132 and 129 s against 144 and 141 s
  // for two, alternated runs of the whole suite on an idle 2-core machine (#14).
  maxWorkers: 3,
  // In ESM mode a worker keeps every test file's modules (vm.SourceTextModule contexts are
  // never collected: jestjs/jest#14605, nodejs/node#63186), 5–50 MB a file, so after a whole
  // `npm test` each worker held 1.0–1.2 GB. Node frees that heap when the worker exits,
  // which took 0.5–1 s after its last test, with no handle left open: past Jest's 500 ms,
  // hence "A worker process has failed to exit gracefully". A worker past this limit is
  // replaced between two files, so none ends that large.
  workerIdleMemoryLimit: '512MB',
  // Exiting still takes 0.1–0.45 s on a loaded 2-core machine even for a small worker.
  // A real leak (a listener, socket, child process or interval left open) keeps a
  // worker alive for ever, so it is still reported, 2 s after the run instead of 0.5 s.
  workerGracefulExitTimeout: 2000,
  // The slowest suites, then the run's wall time against the target of #14 (a whole `npm test`).
  // Runs the library's and the embedded server's spec files in a few bundles that share one module registry each.
  testSequencer: '<rootDir>/scripts/spec-bundle-sequencer.mjs',
  reporters: ['default', ['<rootDir>/scripts/slowest-suites-reporter.mjs', { targetSeconds: 75 }]],
};
