// A Jest test sequencer that runs the many spec files of the library, the
// embedded server and the sample app in a few bundles: each bundle is one test file
// (test/bundles/bundle-<n>.ts) that imports its member specs one after the
// other, so they share one module registry.
//
// Why: in ESM mode Jest evaluates every module again for each test file, and a
// server spec spends more time loading mongodb, mingo and the server (about
// 0.8 CPU-s) than running most of its tests. Measured on the 71 conformance
// specs: 164 CPU-s as 71 files, 79 CPU-s as one (same 5,041 tests, all passing).
//
// The same, measured on the 30 end-to-end specs that run the sample app in the
// test's own process: 211 CPU-s and 113 s as files, 101 CPU-s and 75 s in 3
// bundles (1,120 tests).
//
// Each member keeps its own describe block (named by its path), so its
// top-level hooks apply to its own tests only. A run that selects fewer than
// MIN_MEMBERS files of a group (`npx jest packages/mongo-server/src/crud.spec.ts`)
// runs them as usual, and SPEC_BUNDLES=off turns bundling off altogether.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import TestSequencer from '@jest/test-sequencer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Spec files bundled together, by path relative to the repository, and into
 * how many bundles each group is split (the bundles of a run are spread over
 * Jest's workers like any other test file). The end-to-end specs that run
 * child processes, builds or a browser stay files of their own: their time
 * goes to those, and one of them in a bundle would hold up its other members.
 */
export const BUNDLE_GROUPS = [
  { pattern: /^packages\/mongo-server\/src\/.*\.spec\.ts$/, bundles: 3 },
  { pattern: /^src\/.*\.spec\.ts$/, bundles: 2 },
  { pattern: /^sample-app\/.*\.spec\.ts$/, bundles: 1 },
  {
    pattern: /^test\/(sample-app\/)?[^/]+\.(e2e-)?spec\.ts$/,
    exclude: /packed-package|nest-cli|docs-browser|recovery|start-script/,
    bundles: 3,
  },
];

/** Fewer selected files of a group than this run as separate files. */
export const MIN_MEMBERS = 4;

/** The environment variable that tells each bundle file its members (JSON: bundle path → member paths). */
export const MEMBERS_VARIABLE = 'SPEC_BUNDLE_MEMBERS';

/** The bundle entry files, in the order groups take them. */
export function bundleFiles() {
  const count = BUNDLE_GROUPS.reduce((sum, group) => sum + group.bundles, 0);
  return Array.from({ length: count }, (_, i) => join(root, 'test/bundles', `bundle-${i + 1}.ts`));
}

/**
 * Splits `members` into `count` lists of about equal weight: each member,
 * heaviest first, goes to the lightest list so far (longest processing time
 * first). A member's weight is its last duration, else its file size.
 */
export function balance(members, count, weight) {
  const lists = Array.from({ length: count }, () => ({ weight: 0, members: [] }));
  const sorted = [...members].sort((a, b) => weight(b) - weight(a) || (a.path < b.path ? -1 : 1));
  for (const member of sorted) {
    const lightest = lists.reduce((min, list) => (list.weight < min.weight ? list : min));
    lightest.members.push(member);
    lightest.weight += weight(member);
  }
  return lists.filter((list) => list.members.length > 0);
}

/** The bundles of this run: bundle file path → its members' paths (empty outside a bundled run). */
export function bundleMembers() {
  return JSON.parse(process.env[MEMBERS_VARIABLE] ?? '{}');
}

/**
 * How long each member of a bundle took, read from the bundle's test file
 * result: from the end of the member before it (the bundle's start, for the
 * first) to the end of its last test. Members run one after the other, so this
 * counts a member's hooks and tests; the first member also carries the loading
 * of every member's modules, which happens before any test runs.
 */
export function memberTimes(suite, members) {
  const ends = new Map();
  const failed = new Set();
  for (const test of suite.testResults) {
    const [member] = test.ancestorTitles;
    if (member === undefined || test.startAt == null) continue;
    ends.set(member, Math.max(ends.get(member) ?? 0, test.startAt + (test.duration ?? 0)));
    if (test.status === 'failed') failed.add(member);
  }
  let previous = suite.perfStats.start;
  return members.map((path) => {
    const name = relative(root, path).split('\\').join('/');
    const end = ends.get(name);
    const ms = end === undefined ? 0 : Math.max(0, end - previous);
    if (end !== undefined) previous = end;
    return { path, ms, failed: failed.has(name) };
  });
}

/** Jest's default order (failed first, then longest first), with bundles in place of their members. */
export default class SpecBundleSequencer extends TestSequencer {
  sort(tests) {
    if (process.env.SPEC_BUNDLES === 'off') return super.sort(tests);
    const files = bundleFiles();
    const manifest = {};
    const size = new Map();
    const sizeOf = (test) => {
      if (!size.has(test.path)) size.set(test.path, existsSync(test.path) ? statSync(test.path).size : 0);
      return size.get(test.path);
    };
    // Durations are in milliseconds and sizes in bytes: a member with no duration yet weighs its size / 10.
    const weight = (test) => this.time(test) ?? sizeOf(test) / 10;
    let rest = tests;
    let next = 0;
    const bundles = [];
    for (const group of BUNDLE_GROUPS) {
      const slots = files.slice(next, next + group.bundles);
      next += group.bundles;
      const members = rest.filter((test) => {
        const path = relative(root, test.path).split('\\').join('/');
        return group.pattern.test(path) && !group.exclude?.test(path);
      });
      if (members.length < MIN_MEMBERS) continue;
      rest = rest.filter((test) => !members.includes(test));
      balance(members, slots.length, weight).forEach((list, i) => {
        manifest[slots[i]] = list.members.map((test) => test.path).sort();
        const bundle = { context: list.members[0].context, path: slots[i] };
        size.set(
          slots[i],
          list.members.reduce((sum, test) => sum + sizeOf(test), 0),
        );
        bundles.push(bundle);
      });
    }
    // Set before Jest starts its workers (and before globalSetup), so every worker inherits it.
    process.env[MEMBERS_VARIABLE] = JSON.stringify(manifest);
    const all = [...rest, ...bundles];
    for (const test of all) test.duration = this.time(test);
    return all.sort((a, b) => {
      const failedA = this.hasFailed(a);
      const failedB = this.hasFailed(b);
      if (failedA !== failedB) return failedA ? -1 : 1;
      // As Jest does: files without a duration yet first, by size.
      if ((a.duration == null) !== (b.duration == null)) return a.duration == null ? -1 : 1;
      if (a.duration != null && b.duration != null) return b.duration - a.duration;
      return sizeOf(b) - sizeOf(a);
    });
  }

  /** Jest's cache of durations and failures, with each bundle member's own, which the next run balances by. */
  cacheResults(tests, results) {
    const bundles = bundleMembers();
    for (const suite of results.testResults) {
      const members = bundles[suite.testFilePath];
      const test = members && tests.find((candidate) => candidate.path === suite.testFilePath);
      if (!test || suite.testExecError) continue;
      const cache = this._getCache(test);
      // The values of Jest's own cache: [0 (failed) or 1 (passed), milliseconds].
      for (const member of memberTimes(suite, members)) cache[member.path] = [member.failed ? 0 : 1, member.ms];
    }
    super.cacheResults(tests, results);
  }
}
