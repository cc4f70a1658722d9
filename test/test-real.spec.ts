import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_REAL_SUITES } from '../scripts/test-real.mjs';

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
});
