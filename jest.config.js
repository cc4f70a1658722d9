/**
 * Jest runs in native ESM mode because NestJS 12 and @nestjs/mongoose 12 ship
 * ESM only; `npm test` sets NODE_OPTIONS=--experimental-vm-modules for that.
 * @swc/jest compiles TypeScript with legacy decorators and decorator metadata,
 * which Nest's dependency injection needs.
 * @type {import('jest').Config}
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  // Sources import each other with the `.js` suffix Node's ESM resolver needs.
  // The sample app imports the library by its package name, as a user would.
  moduleNameMapper: {
    '^nestjs-objectid$': '<rootDir>/src/index.ts',
    '^nestjs-objectid/(.*)$': '<rootDir>/src/$1/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/test/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/sample-app/**/*.spec.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 30000,
};
