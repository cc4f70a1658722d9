import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SpecBundleSequencer, {
  balance,
  BUNDLE_GROUPS,
  bundleFiles,
  MEMBERS_VARIABLE,
  memberTimes,
  MIN_MEMBERS,
} from '../scripts/spec-bundle-sequencer.mjs';

const root = new URL('..', import.meta.url).pathname;

/** A Jest Test as the sequencer gets it; without a cache, no durations and no past failures. */
function testAt(path: string) {
  const hasteFS = { getSize: (file: string) => statSync(file).size };
  return { path: join(root, path), context: { config: { cache: false }, hasteFS } };
}

const serverSpecs = [
  'packages/mongo-server/src/conformance-crud.spec.ts',
  'packages/mongo-server/src/conformance-distinct.spec.ts',
  'packages/mongo-server/src/conformance-projection.spec.ts',
  'packages/mongo-server/src/query/plan-executor.spec.ts',
  'packages/mongo-server/src/wire/op-msg.spec.ts',
];
const librarySpecs = [
  'src/pipes/parse-object-id.pipe.spec.ts',
  'src/time/object-id-time.spec.ts',
  'src/sequence/sequence.service.spec.ts',
  'src/core/parse-object-id.spec.ts',
];
const inProcess = [
  'test/sample-app/products.e2e-spec.ts',
  'test/sample-app/orders.e2e-spec.ts',
  'test/package-manifest.spec.ts',
  'test/serialization.e2e-spec.ts',
];
/** Specs that run builds, child processes or a browser: never bundled. */
const endToEnd = [
  'test/packed-package-cjs.e2e-spec.ts',
  'test/nest-cli.e2e-spec.ts',
  'test/sample-app/recovery.e2e-spec.ts',
  'test/sample-app/docs-browser.e2e-spec.ts',
  'test/sample-app/start-script.e2e-spec.ts',
];
const bundled = [...serverSpecs, ...librarySpecs, ...inProcess];
/** Which of BUNDLE_GROUPS a spec belongs to. */
const groupOf = (path: string) =>
  BUNDLE_GROUPS.findIndex((group) => group.pattern.test(path.slice(root.length)) && !group.exclude?.test(path));

const saved = { bundles: process.env.SPEC_BUNDLES, members: process.env[MEMBERS_VARIABLE] };
// The run itself may have bundling turned off; these tests turn it off only where they say so.
beforeEach(() => {
  delete process.env.SPEC_BUNDLES;
});
afterEach(() => {
  for (const [name, value] of [
    ['SPEC_BUNDLES', saved.bundles],
    [MEMBERS_VARIABLE, saved.members],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('SpecBundleSequencer (scripts/spec-bundle-sequencer.mjs)', () => {
  const sort = (paths: string[]) =>
    (new SpecBundleSequencer({}).sort(paths.map(testAt)) as { path: string }[]).map((test) => test.path);
  const manifest = (): Record<string, string[]> => JSON.parse(process.env[MEMBERS_VARIABLE] ?? '{}');

  it('should replace the specs of a whole run by bundles, except those that run processes', () => {
    const order = sort([...bundled, ...endToEnd]);
    const bundles = order.filter((path) => bundleFiles().includes(path));
    expect(order.filter((path) => !bundles.includes(path)).sort()).toEqual(endToEnd.map((p) => join(root, p)).sort());
    const members = manifest();
    expect(Object.keys(members).sort()).toEqual([...bundles].sort());
    // Every selected spec runs exactly once, in the bundle of its group.
    expect(Object.values(members).flat().sort()).toEqual(bundled.map((p) => join(root, p)).sort());
    for (const list of Object.values(members)) expect(new Set(list.map(groupOf)).size).toBe(1);
    expect(new Set(Object.values(members).flatMap((list) => list.map(groupOf)))).toEqual(new Set([0, 1, 3]));
  });

  it('should order by size when nothing was timed yet, as Jest does, a bundle weighing what its members weigh', () => {
    const order = sort([...endToEnd, ...bundled]);
    const members = manifest();
    const sizes = order.map((path) =>
      (members[path] ?? [path]).reduce((sum, member) => sum + statSync(member).size, 0),
    );
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });

  it(`should leave fewer than ${MIN_MEMBERS} specs of a group as separate files`, () => {
    const few = serverSpecs.slice(0, MIN_MEMBERS - 1);
    expect(sort([...few, ...endToEnd]).sort()).toEqual([...few, ...endToEnd].map((p) => join(root, p)).sort());
    expect(manifest()).toEqual({});
  });

  it('should not bundle with SPEC_BUNDLES=off', () => {
    process.env.SPEC_BUNDLES = 'off';
    const all = [...bundled, ...endToEnd];
    expect(sort(all).sort()).toEqual(all.map((p) => join(root, p)).sort());
  });

  it('should have a bundle file for each bundle of each group', () => {
    expect(bundleFiles().filter((file) => !existsSync(file))).toEqual([]);
    expect(new Set(bundleFiles()).size).toBe(bundleFiles().length);
  });
});

/** A bundle's result as Jest reports it: each test under its member's block, with its start and duration. */
function bundleResult(bundle: string, start: number, tests: [string, number, number, 'passed' | 'failed'][]) {
  return {
    testFilePath: bundle,
    perfStats: { start, end: start + 100, runtime: 100 },
    numFailingTests: tests.filter((test) => test[3] === 'failed').length,
    testResults: tests.map(([member, startAt, duration, status]) => ({
      ancestorTitles: [member, 'inner'],
      startAt,
      duration,
      status,
    })),
  };
}

describe('memberTimes', () => {
  const members = ['a', 'b', 'c', 'd'].map((name) => join(root, `src/${name}.spec.ts`));
  it('should give each member the time from the end of the one before (the bundle start for the first)', () => {
    const suite = bundleResult('bundle', 1000, [
      ['src/a.spec.ts', 1500, 100, 'passed'],
      ['src/a.spec.ts', 1600, 50, 'passed'],
      ['src/c.spec.ts', 1700, 10, 'failed'],
      ['src/c.spec.ts', 1900, 100, 'passed'],
      ['src/d.spec.ts', 2400, 0, 'passed'],
    ]);
    expect(memberTimes(suite, members)).toEqual([
      { path: members[0], ms: 650, failed: false },
      { path: members[1], ms: 0, failed: false },
      { path: members[2], ms: 350, failed: true },
      { path: members[3], ms: 400, failed: false },
    ]);
  });

  it('should store each member time in Jest’s cache, which the next run balances by', () => {
    const bundle = bundleFiles()[0]!;
    process.env[MEMBERS_VARIABLE] = JSON.stringify({ [bundle]: members.slice(0, 2) });
    const cache: Record<string, [number, number]> = {};
    const sequencer = new SpecBundleSequencer({});
    (sequencer as unknown as { _getCache: () => typeof cache })._getCache = () => cache;
    const result = bundleResult(bundle, 0, [
      ['src/a.spec.ts', 10, 20, 'passed'],
      ['src/b.spec.ts', 40, 5, 'failed'],
    ]);
    (sequencer as unknown as { cacheResults(tests: unknown[], results: unknown): void }).cacheResults(
      [{ ...testAt('src/a.spec.ts'), path: bundle }],
      { testResults: [result] },
    );
    // Jest's own entries: [0 failed or 1 passed, milliseconds].
    expect(cache).toEqual({ [members[0]!]: [1, 30], [members[1]!]: [0, 15], [bundle]: [0, 100] });
  });
});

describe('balance', () => {
  const weigh = (test: { path: string; weight: number }) => test.weight;
  it.each([
    ['one list', [5, 3, 2], 1, [[5, 3, 2]]],
    [
      'heaviest first, each to the lightest list',
      [5, 4, 3, 3, 1],
      2,
      [
        [5, 3],
        [4, 3, 1],
      ],
    ],
    ['no empty lists', [7], 3, [[7]]],
    [
      'equal weights alternate',
      [1, 1, 1, 1],
      2,
      [
        [1, 1],
        [1, 1],
      ],
    ],
  ])('%s', (_label, weights, count, expected) => {
    const members = weights.map((weight, i) => ({ path: `m${i}`, weight }));
    expect(balance(members, count, weigh).map((list) => list.members.map(weigh))).toEqual(expected);
  });
});
