import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { partitionSuites, TEST_REAL_SUITES } from '../scripts/test-real.mjs';

const root = new URL('..', import.meta.url).pathname;

/** Every spec Jest runs (jest.config.js testMatch), as a path relative to the repository. */
function specs(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || path === 'test/packed-consumer' ? [] : specs(path);
    return /\.(e2e-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

const self = new URL(import.meta.url).pathname.slice(root.length);
const all = ['src', 'packages/mongo-server/src', 'test', 'sample-app'].flatMap(specs).filter((path) => path !== self);
// Jest treats each pattern as a regular expression over the file's path.
const matched = (path: string) => TEST_REAL_SUITES.some((pattern) => new RegExp(pattern).test(path));
/** Suites that take their MongoDB from startTestMongo (MONGO_URL), directly or through a fixture. */
const usesTestMongo = (path: string) =>
  /\b(startTestMongo|useDriverFixture)\b|catalog-test-app\.js/.test(readFileSync(join(root, path), 'utf8'));

describe('npm run test:real (scripts/test-real.mjs)', () => {
  it('should find the specs to check', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter(usesTestMongo).length).toBeGreaterThan(30);
  });

  it.each(TEST_REAL_SUITES.map((pattern) => [pattern]))('should have suite pattern %s match a spec', (pattern) => {
    expect(all.filter((path) => new RegExp(pattern).test(path))).not.toEqual([]);
  });

  it('should run every suite that takes its MongoDB from startTestMongo', () => {
    expect(all.filter((path) => usesTestMongo(path) && !matched(path))).toEqual([]);
  });

  it('should run alone the suites that use server-wide state, and the others side by side', () => {
    const { together, alone } = partitionSuites(all.filter(matched), (path: string) =>
      readFileSync(join(root, path), 'utf8'),
    );
    // The failCommand fail point, change streams and the server's sessions are one per server.
    expect(alone).toEqual(
      expect.arrayContaining([
        'packages/mongo-server/src/conformance-fail-points.spec.ts',
        'packages/mongo-server/src/conformance-retryable-writes.spec.ts',
        'packages/mongo-server/src/conformance-change-streams.spec.ts',
        'packages/mongo-server/src/conformance-list-local-sessions.spec.ts',
        'src/sequence/sequence-retry.spec.ts',
        'test/sample-app/orders-gap-free.e2e-spec.ts',
      ]),
    );
    expect(together).toEqual(
      expect.arrayContaining([
        'packages/mongo-server/src/conformance-crud.spec.ts',
        'test/sample-app/products.e2e-spec.ts',
      ]),
    );
    expect(together.filter((path) => alone.includes(path))).toEqual([]);
  });

  it.each([
    ['arms a fail point', 'alone', "admin.command({ configureFailPoint: 'failCommand', mode: 'off' })"],
    ['probes for fail points', 'alone', 'await supportsFailPoints(uri)'],
    ['opens a change stream', 'alone', 'const stream = collection.watch([])'],
    ['lists the server sessions', 'alone', 'aggregate([{ $listLocalSessions: { allUsers: true } }])'],
    ['uses its own database only', 'together', 'await c.insertOne({ _id: 1 }); await c.find().toArray()'],
  ])('should run a suite that %s %s', (_what, where, source) => {
    const { together, alone } = partitionSuites(['suite.spec.ts'], () => source);
    expect({ together, alone }[where as 'together' | 'alone']).toEqual(['suite.spec.ts']);
  });
});
