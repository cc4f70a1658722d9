/**
 * Conformance: `$percentile` and `$median`, as `$group` accumulators and as
 * expressions, ported from mongod's jstests:
 * jstests/aggregation/accumulators/percentiles_syntax.js,
 * percentiles_approx.js and median_approx.js, and
 * jstests/aggregation/expressions/percentile_expression_syntax.js,
 * percentile_expression_approx.js and median_expression_approx.js. The
 * sources only check that a bad spec fails; each refusal here is checked by
 * the code mongod 7.0 gives it (accumulator_percentile.cpp and its IDL
 * struct), and each valid spec by its answer. Then a table of our own:
 * 0..99 and 0..19,999 through `$group` and through the expression over one
 * array, every numeric BSON type together, non-numbers ignored, no number at
 * all, `p` of 0 and 1, and the answers' type (double).
 *
 * Written to hold against a real MongoDB 7.0 (MONGO_URL) too. mongod's
 * accumulator keeps a t-digest, exact up to 1000 numbers in a group and
 * approximate past that: there its answers are checked as
 * percentiles_approx.js checks them, by their rank among the numbers (within
 * 0.1% of it); its `p` of 0 and 1 and the expression's answers are exact at
 * any size. The sources' samples come from the shell's seeded `Random`,
 * which Node cannot reproduce: the same checks run over samples of a seeded
 * generator of our own.
 *
 * Left out: percentiles_syntax.js's NaN `p` (mongod 7.0 lets it through to an
 * undefined rank; later versions refuse it, as the embedded server does), and
 * the `input: []` case of percentile_expression_syntax.js, which its versions
 * disagree on (refused in the first, null in later ones).
 */
import { type AggregateOptions, type Collection, Decimal128, type Document, Double, Int32, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

// A table whose rows may leave out their last entry (the `let` variables) takes its row as a rest
// parameter: Jest hands `done` to a callback that declares more parameters than a row has.

/** A `$group` of everything in one group, its field `p` the accumulator `spec`. */
const grouped = (spec: Document): Document[] => [{ $group: { _id: null, p: spec } }];
/** A `$project` of the expression `spec` as `p`. */
const projected = (spec: Document): Document[] => [{ $project: { _id: 0, p: spec } }];

/** `p` of the first result of `pipeline` over `c`. */
async function first(c: Collection, pipeline: Document[], options: AggregateOptions = {}): Promise<unknown> {
  const results = await c.aggregate(pipeline, options).toArray();
  return results[0]?.p;
}

/** A seeded generator of doubles uniform in [0, 1) (mulberry32), in place of the shell's `Random.rand()`. */
function uniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** percentiles_approx.js's findRank: the index of the first number of `sorted` not below `value`. */
function findRank(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! >= value) hi = mid;
    else lo = mid + 1;
  }
  return lo === sorted.length ? -1 : lo;
}

/** percentiles_approx.js's check: each answer's rank among `sorted` within `error` (a fraction of them) of p's. */
function expectRanks(answers: unknown, ps: readonly number[], sorted: readonly number[], error: number): void {
  expect(answers).toHaveLength(ps.length);
  ps.forEach((p, i) => {
    const answer = (answers as number[])[i]!;
    const trueRank = Math.max(0, p * sorted.length - 1);
    const close = Math.abs(trueRank - findRank(sorted, answer)) <= error * sorted.length;
    expect({ p, answer, close }).toEqual({ p, answer, close: true });
  });
}

/** `n` documents `{ _id: i, [field]: value(i) }`, inserted in batches. */
async function insertSeries(c: Collection, n: number, value: (i: number) => unknown, field = 'x'): Promise<void> {
  const batch = 10_000;
  for (let start = 0; start < n; start += batch) {
    const docs: Document[] = [];
    for (let i = start; i < Math.min(n, start + batch); i++) docs.push({ _id: i, [field]: value(i) });
    await c.insertMany(docs);
  }
}

describe('$percentile and $median: the spec (percentiles_syntax.js, as $group accumulators)', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('percentiles_syntax');
    await c.insertOne({ x: 42 });
  });

  type Refusal = [label: string, spec: Document, code: number, letSpec?: Document];
  it.each<Refusal>([
    ['$percentile is not an object', { $percentile: 0.5 }, 7429703],
    ["$percentile is missing 'p' field", { $percentile: { input: '$x', method: 'approximate' } }, 40414],
    ["$percentile is missing 'input' field", { $percentile: { p: [0.5], method: 'approximate' } }, 40414],
    ["$percentile is missing 'method' field", { $percentile: { p: [0.5], input: '$x' } }, 40414],
    [
      '$percentile contains an unexpected field',
      { $percentile: { p: [0.5], input: '$x', method: 'approximate', extras: 42 } },
      40415,
    ],
    ["'p' isn't an array", { $percentile: { p: 0.5, input: '$x', method: 'approximate' } }, 7750301],
    ["'p' is an empty array", { $percentile: { p: [], input: '$x', method: 'approximate' } }, 7750301],
    [
      "'p' has a non-numeric element",
      { $percentile: { p: [0.5, 'foo'], input: '$x', method: 'approximate' } },
      7750302,
    ],
    ["'p' has a value outside [0, 1]", { $percentile: { p: [0.5, 10], input: '$x', method: 'approximate' } }, 7750303],
    ["'p' contains +Infinity", { $percentile: { p: [Infinity], input: '$x', method: 'approximate' } }, 7750303],
    ["'p' contains -Infinity", { $percentile: { p: [-Infinity], input: '$x', method: 'approximate' } }, 7750303],
    ["'p' is not constant", { $percentile: { p: ['$x'], input: '$x', method: 'approximate' } }, 7750300],
    [
      "'p' is an expression that evaluates to a non-array",
      { $percentile: { p: { $add: [0.1, 0.5] }, input: '$x', method: 'approximate' } },
      7750301,
    ],
    [
      "'p' is an expression that evaluates to an array with non-numeric elements",
      { $percentile: { p: { $concatArrays: [[0.01, 0.1], ['foo']] }, input: '$x', method: 'approximate' } },
      7750302,
    ],
    [
      "'p' is a variable that evaluates to a non-array",
      { $percentile: { p: '$$pvals', input: '$x', method: 'approximate' } },
      7750301,
      { pvals: 0.5 },
    ],
    [
      "'p' is a variable that evaluates to an array with non-numeric elements",
      { $percentile: { p: '$$pvals', input: '$x', method: 'approximate' } },
      7750302,
      { pvals: [0.5, 'foo'] },
    ],
    ["'method' isn't a string", { $percentile: { p: [0.5, 0.7], input: '$x', method: 42 } }, 14],
    [
      "'method' isn't one of the predefined strings",
      { $percentile: { p: [0.5, 0.7], input: '$x', method: 'fancy' } },
      2,
    ],
    ["'method' is discrete, which 7.0 lacks", { $percentile: { p: [0.5, 0.7], input: '$x', method: 'discrete' } }, 2],
    [
      "'method' is continuous, which 7.0 lacks",
      { $percentile: { p: [0.5, 0.7], input: '$x', method: 'continuous' } },
      2,
    ],
    ["$median with 'p'", { $median: { p: [0.5], input: '$x', method: 'approximate' } }, 40415],
    ["$median is missing 'input' field", { $median: { method: 'approximate' } }, 40414],
    ["$median is missing 'method' field", { $median: { input: '$x' } }, 40414],
    ['$median contains an unexpected field', { $median: { input: '$x', method: 'approximate', extras: 42 } }, 40415],
    ["$median 'method' isn't one of the predefined strings", { $median: { input: '$x', method: 'fancy' } }, 2],
    ["$median 'method' is discrete", { $median: { input: '$x', method: 'discrete' } }, 2],
    ["$median 'method' is continuous", { $median: { input: '$x', method: 'continuous' } }, 2],
    // Our own: $median's own code for a spec that is not a document.
    ['$median is not an object', { $median: 'x' }, 7436100],
  ])('should refuse: %s', async (...[, spec, code, letSpec]: Refusal) => {
    const error = await rejection(c.aggregate(grouped(spec), letSpec ? { let: letSpec } : {}).toArray());
    expect(error.code).toBe(code);
  });

  it.each<[label: string, spec: Document, code: number]>([
    ["a missing 'p'", { $percentile: { input: '$x', method: 'approximate' } }, 40414],
    ["'p' out of range", { $percentile: { p: [2], input: '$x', method: 'approximate' } }, 7750303],
    ["'p' not constant", { $percentile: { p: ['$x'], input: '$x', method: 'approximate' } }, 7750300],
    ["an unknown 'method'", { $median: { input: '$x', method: 'fancy' } }, 2],
  ])('should refuse %s while parsing, over an empty collection too', async (_label, spec, code) => {
    const empty = await fx.fresh('percentiles_syntax_empty');
    expect((await rejection(empty.aggregate(grouped(spec)).toArray())).code).toBe(code);
  });

  type Accepted = [label: string, spec: Document, expected: unknown, letSpec?: Document];
  it.each<Accepted>([
    [
      'an array of percentiles',
      { $percentile: { p: [0.0, 0.0001, 0.5, 0.995, 1.0], input: '$x', method: 'approximate' } },
      [42, 42, 42, 42, 42],
    ],
    [
      "'input' as an expression",
      { $percentile: { p: [0.5, 0.9], input: { $divide: ['$x', 2] }, method: 'approximate' } },
      [21, 21],
    ],
    [
      'non-numeric inputs, ignored',
      { $percentile: { p: [0.5, 0.9], input: 'x', method: 'approximate' } },
      [null, null],
    ],
    [
      "'input' using expressions",
      { $percentile: { p: [0.5, 0.9], input: { $add: [2, '$x'] }, method: 'approximate' } },
      [44, 44],
    ],
    [
      "'input' evaluating to a non-number (an array)",
      { $percentile: { p: [0.5, 0.9], input: { $concatArrays: [[2], ['$x']] }, method: 'approximate' } },
      [null, null],
    ],
    [
      "'p' as an expression evaluating to an array",
      {
        $percentile: {
          p: {
            $concatArrays: [
              [0.01, 0.1],
              [0.9, 0.99],
            ],
          },
          input: '$x',
          method: 'approximate',
        },
      },
      [42, 42, 42, 42],
    ],
    [
      "'p' with expressions for its elements",
      { $percentile: { p: [{ $add: [0.1, 0.5] }], input: '$x', method: 'approximate' } },
      [42],
    ],
    [
      "'p' as a variable",
      { $percentile: { p: '$$pvals', input: '$x', method: 'approximate' } },
      [42, 42],
      { pvals: [0.5, 0.9] },
    ],
    [
      "'p' with variables for its elements",
      { $percentile: { p: ['$$p1', '$$p2'], input: '$x', method: 'approximate' } },
      [42, 42],
      { p1: 0.5, p2: 0.9 },
    ],
    ['$median', { $median: { input: '$x', method: 'approximate' } }, 42],
  ])('should accept %s', async (...[, spec, expected, letSpec]: Accepted) => {
    expect(await first(c, grouped(spec), letSpec ? { let: letSpec } : {})).toEqual(expected);
  });
});

describe('$percentile and $median: the spec (percentile_expression_syntax.js, as expressions)', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('expression_percentile');
    const doc: Document = { _id: 0, k1: 3, k2: 2, k3: 'hi', k4: [1, 2, 3] };
    await c.insertOne(doc);
  });
  const input = ['$k1', '$k2'];

  type Refusal = [label: string, spec: Document, code: number, letSpec?: Document];
  it.each<Refusal>([
    ['$percentile is not an object', { $percentile: 0.5 }, 7436200],
    ["$percentile is missing 'p' field", { $percentile: { input, method: 'approximate' } }, 40414],
    ["$percentile is missing 'input' field", { $percentile: { p: [0.5], method: 'approximate' } }, 40414],
    ["$percentile is missing 'method' field", { $percentile: { p: [0.5], input: '$k1' } }, 40414],
    [
      '$percentile contains an unexpected field',
      { $percentile: { p: [0.5], input, method: 'approximate', extras: 42 } },
      40415,
    ],
    ["'p' isn't an array", { $percentile: { p: 0.5, input, method: 'approximate' } }, 7750301],
    ["'p' is an empty array", { $percentile: { p: [], input, method: 'approximate' } }, 7750301],
    ["'p' has a non-numeric element", { $percentile: { p: [0.5, 'foo'], input, method: 'approximate' } }, 7750302],
    ["'p' has a value outside [0, 1]", { $percentile: { p: [0.5, 10], input, method: 'approximate' } }, 7750303],
    ["'p' contains +Infinity", { $percentile: { p: [Infinity], input, method: 'approximate' } }, 7750303],
    ["'p' contains -Infinity", { $percentile: { p: [-Infinity], input, method: 'approximate' } }, 7750303],
    ["'p' is not constant", { $percentile: { p: ['$x'], input, method: 'approximate' } }, 7750300],
    [
      "'p' is an expression that evaluates to a non-array",
      { $percentile: { p: { $add: [0.1, 0.5] }, input, method: 'approximate' } },
      7750301,
    ],
    [
      "'p' is an expression that evaluates to an array with non-numeric elements",
      { $percentile: { p: { $concatArrays: [[0.01, 0.1], ['foo']] }, input, method: 'approximate' } },
      7750302,
    ],
    [
      "'p' is a variable that evaluates to a non-array",
      { $percentile: { p: '$$pvals', input, method: 'approximate' } },
      7750301,
      { pvals: 0.5 },
    ],
    [
      "'p' is a variable that evaluates to an array with non-numeric elements",
      { $percentile: { p: '$$pvals', input, method: 'approximate' } },
      7750302,
      { pvals: [0.5, 'foo'] },
    ],
    ["'method' isn't a string", { $percentile: { p: [0.5, 0.7], input, method: 42 } }, 14],
    ["'method' isn't one of the predefined strings", { $percentile: { p: [0.5, 0.7], input, method: 'fancy' } }, 2],
    ["'method' is continuous, which 7.0 lacks", { $percentile: { p: [0.5, 0.7], input, method: 'continuous' } }, 2],
    ["'method' is discrete, which 7.0 lacks", { $percentile: { p: [0.5, 0.7], input, method: 'discrete' } }, 2],
    ["$median with 'p'", { $median: { p: [0.5], input: '$k4', method: 'approximate' } }, 40415],
    ["$median is missing 'input' field", { $median: { method: 'approximate' } }, 40414],
    ["$median is missing 'method' field", { $median: { input } }, 40414],
    ['$median contains an unexpected field', { $median: { input: '$x', method: 'approximate', extras: 42 } }, 40415],
    ["$median 'method' isn't one of the predefined strings", { $median: { input, method: 'fancy' } }, 2],
    ["$median 'method' is continuous", { $median: { input, method: 'continuous' } }, 2],
    ["$median 'method' is discrete", { $median: { input, method: 'discrete' } }, 2],
    // Our own: $median's own code for a spec that is not a document.
    ['$median is not an object', { $median: 'x' }, 7436201],
  ])('should refuse: %s', async (...[, spec, code, letSpec]: Refusal) => {
    const error = await rejection(c.aggregate(projected(spec), letSpec ? { let: letSpec } : {}).toArray());
    expect(error.code).toBe(code);
  });

  it.each<[label: string, spec: Document, expected: unknown]>([
    [
      'an array of percentiles',
      { $percentile: { p: [0.0, 0.0001, 0.5, 0.995, 1.0], input, method: 'approximate' } },
      [2, 2, 2, 3, 3],
    ],
    [
      "a non-array 'input', ignored",
      { $percentile: { p: [0.5, 0.9], input: 'something', method: 'approximate' } },
      [null, null],
    ],
    [
      "non-numeric expressions in the 'input' array, ignored",
      { $percentile: { p: [0.5, 0.9], input: ['k3'], method: 'approximate' } },
      [null, null],
    ],
    ["'input' as a simple expression", { $percentile: { p: [0.5], input: '$k4', method: 'approximate' } }, [2]],
    [
      "'input' as a complex expression",
      {
        $percentile: {
          p: [0.5],
          input: { $concatArrays: [['$k1', '$k2'], [{ $add: [2, '$k1'] }], '$k4'] },
          method: 'approximate',
        },
      },
      [2],
    ],
    ['$median with a single expression as its input', { $median: { input: '$k4', method: 'approximate' } }, 2],
    ['$median with an array as its input', { $median: { input, method: 'approximate' } }, 2],
  ])('should accept %s', async (_label, spec, expected) => {
    expect(await first(c, projected(spec))).toEqual(expected);
  });
});

describe('$percentile and $median as accumulators (percentiles_approx.js, median_approx.js)', () => {
  type Case = [label: string, docs: Document[], spec: Document, expected: unknown, letSpec?: Document];
  const pOf = (p: unknown, extra: Document = {}) => ({
    $percentile: { p, input: '$x', method: 'approximate', ...extra },
  });
  it.each<Case>([
    ['non-numeric data, ignored', [{ x: 0 }, { x: 'non-numeric' }, { x: 1 }, { no_x: 0 }, { x: 2 }], pOf([0.5]), [1]],
    [
      'a single percentile of completely non-numeric data',
      [{ x: 'non-numeric' }, { no_x: 0 }, { x: new Date() }, { x: [42, 43] }, { x: null }, { x: NaN }],
      pOf([0.5]),
      [null],
    ],
    [
      'several percentiles of completely non-numeric data',
      [{ x: 'non-numeric' }, { no_x: 0 }, { x: new Date() }, { x: [42, 43] }, { x: null }, { x: NaN }],
      pOf([0.5, 0.9]),
      [null, null],
    ],
    ['the minimum percentile', [{ x: 10 }, { x: 5 }, { x: 27 }], pOf([0]), [5]],
    ['the maximum percentile', [{ x: 10 }, { x: 5 }, { x: 27 }], pOf([1]), [27]],
    ['several percentiles', [{ x: 0 }, { x: 1 }, { x: 2 }], pOf([0.5, 0.9, 0.1]), [1, 2, 0]],
    ['a variable for the whole p', [{ x: 0 }, { x: 1 }, { x: 2 }], pOf('$$ps'), [1, 2, 0], { ps: [0.5, 0.9, 0.1] }],
    ['a variable for an element of p', [{ x: 0 }, { x: 1 }, { x: 2 }], pOf(['$$p90']), [2], { p90: 0.9 }],
    [
      'a constant expression for p',
      [{ x: 0 }, { x: 1 }, { x: 2 }],
      pOf({ $concatArrays: [[0.1, 0.5], ['$$p90']] }),
      [0, 1, 2],
      { p90: 0.9 },
    ],
    [
      'an expression as input',
      [{ x: 0 }, { x: 1 }, { x: 2 }],
      pOf('$$ps', { input: { $add: [42, '$x'] } }),
      [43, 44, 42],
      { ps: [0.5, 0.9, 0.1] },
    ],
    [
      '$median: non-numeric data, ignored',
      [{ x: 0 }, { x: 'non-numeric' }, { x: 1 }, { no_x: 0 }, { x: 2 }],
      { $median: { input: '$x', method: 'approximate' } },
      1,
    ],
    [
      '$median of completely non-numeric data',
      [{ x: 'non-numeric' }, { non_x: 1 }],
      { $median: { input: '$x', method: 'approximate' } },
      null,
    ],
  ])('%s', async (...[, docs, spec, expected, letSpec]: Case) => {
    const c = await fx.fresh('percentiles_approx');
    await c.insertMany(docs);
    expect(await first(c, grouped(spec), letSpec ? { let: letSpec } : {})).toEqual(expected);
  });

  it.each<[label: string, docs: Document[], spec: Document, expected: unknown[]]>([
    [
      '$percentile of several groups',
      [{ k: 0, x: 0 }, { k: 0, x: 1 }, { k: 1, x: 2 }, { k: 2 }, { k: 0, x: 'str' }, { k: 1, x: 0 }],
      { $percentile: { p: [0.9], input: '$x', method: 'approximate' } },
      [[1], [2], [null]],
    ],
    [
      '$median of several groups',
      [{ k: 0, x: 2 }, { k: 0, x: 1 }, { k: 1, x: 2 }, { k: 2 }, { k: 0, x: 'str' }, { k: 1, x: 0 }],
      { $median: { input: '$x', method: 'approximate' } },
      [1, 0, null],
    ],
  ])('%s', async (_label, docs, spec, expected) => {
    const c = await fx.fresh('percentiles_approx');
    await c.insertMany(docs);
    const results = await c.aggregate([{ $group: { _id: '$k', p: spec } }, { $sort: { _id: 1 } }]).toArray();
    expect(results.map((doc) => doc.p)).toEqual(expected);
  });

  it('should give $median the value of $percentile at 0.5', async () => {
    const c = await fx.fresh('percentiles_approx');
    await c.insertMany([{ x: 0 }, { x: 'non-numeric' }, { x: 1 }, { no_x: 0 }, { x: 2 }]);
    const [both] = await c
      .aggregate([
        {
          $group: {
            _id: null,
            median: { $median: { input: '$x', method: 'approximate' } },
            percentile: { $percentile: { p: [0.5], input: '$x', method: 'approximate' } },
          },
        },
      ])
      .toArray();
    expect([both!.median]).toEqual(both!.percentile);
  });

  describe('over 10,000 uniform samples, within 0.1% of the rank', () => {
    const rand = uniform(20230328);
    const samples = Array.from({ length: 10_000 }, () => rand());
    const sorted = [...samples].sort((a, b) => a - b);
    const ps = [0.0, 0.001, 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99, 0.999, 1.0];
    const spec = { $percentile: { p: ps, input: '$x', method: 'approximate' } };

    it('a single group of uniformly distributed data', async () => {
      const c = await fx.fresh('percentiles_approx');
      await c.insertMany(samples.map((x, i): Document => ({ _id: i, x })));
      expectRanks(await first(c, grouped(spec)), ps, sorted, 0.001);
    });

    it('with infinite values', async () => {
      const c = await fx.fresh('percentiles_approx');
      const docs: Document[] = [];
      samples.forEach((x, i) => {
        docs.push({ _id: i * 10, x });
        if (i % 2000 === 0) docs.push({ _id: i * 10 + 1, x: Infinity }, { _id: i * 10 + 2, x: -Infinity });
      });
      await c.insertMany(docs);
      const withInfinities = [...Array<number>(5).fill(-Infinity), ...sorted, ...Array<number>(5).fill(Infinity)];
      expectRanks(await first(c, grouped(spec)), ps, withInfinities, 0.001);
    });

    it('as Decimal128, NaNs among them', async () => {
      const c = await fx.fresh('percentiles_approx');
      const docs: Document[] = [];
      samples.forEach((x, i) => {
        docs.push({ _id: i * 10, x: Decimal128.fromString(String(x)) });
        if (i % 1000 === 0) {
          docs.push(
            { _id: i * 10 + 1, x: Decimal128.fromString('NaN') },
            { _id: i * 10 + 2, x: Decimal128.fromString('-NaN') },
          );
        }
      });
      await c.insertMany(docs);
      expectRanks(await first(c, grouped(spec)), ps, sorted, 0.001);
    });
  });
});

describe('$percentile and $median as expressions (percentile_expression_approx.js, median_expression_approx.js)', () => {
  type Case = [label: string, doc: Document, spec: Document, expected: unknown];
  const pOf = (p: number[], input: unknown) => ({ $percentile: { p, input, method: 'approximate' } });
  const medianOf = (input: unknown) => ({ $median: { input, method: 'approximate' } });
  const fields = ['$x', '$x1', '$x2', '$x3'];
  it.each<Case>([
    ['non-numeric data in an array input, ignored', { x: [0, 'non-numeric', 1, 2] }, pOf([0.5], '$x'), [1]],
    ['the minimum percentile', { x: [10, 5, 27], x1: 5 }, pOf([0], '$x'), [5]],
    ['several percentiles of an array input', { x: [0, 1, 2] }, pOf([0.5, 0.9, 0.1], '$x'), [1, 2, 0]],
    [
      'non-numeric data in an input of several expressions, ignored',
      { x: 0, x1: 'non-numeric', x2: 1, x3: 2, x4: [2, 2, 2] },
      pOf([0.5], [...fields, '$x4']),
      [1],
    ],
    ['completely non-numeric data in an input array', { x: 'non-numeric' }, pOf([0.5], ['$x']), [null]],
    [
      'several percentiles of completely non-numeric data',
      { x: 'non-numeric', x1: 'also non-numeric', x2: [1, 2, 3] },
      pOf([0.5, 0.9], ['$x', '$x1', '$x2']),
      [null, null],
    ],
    ['the maximum percentile', { x: 10, x1: 5, x2: 27 }, pOf([1], ['$x', '$x1', '$x2']), [27]],
    [
      'several percentiles of an input of several expressions',
      { x: 0, x1: 1, x2: 2 },
      pOf([0.5, 0.9, 0.1], ['$x', '$x1', '$x2']),
      [1, 2, 0],
    ],
    ['a numeric scalar input', { x: 0, x1: 1, x2: 2 }, pOf([0.5, 0.9, 0.1], '$x'), [0, 0, 0]],
    ['a non-numeric scalar input', { x: 0, x1: 'non-numeric', x2: 2 }, pOf([0.5, 0.9, 0.1], '$x1'), [null, null, null]],
    [
      '$median: non-numeric data in an array input, ignored',
      { x: [0, 'non-numeric', 1, 2], no_x: 0 },
      medianOf('$x'),
      1,
    ],
    [
      '$median of completely non-numeric data in an array input',
      { x: ['non-numeric', [1, 2, 3]] },
      medianOf('$x'),
      null,
    ],
    [
      '$median: non-numeric data in an input of several expressions, ignored',
      { x: 0, x1: 'non-numeric', x2: 1, x3: 2 },
      medianOf(fields),
      1,
    ],
    ['$median of completely non-numeric expressions', { x: 'non-numeric', x1: 'hello' }, medianOf(['$x', '$x1']), null],
    ['$median of a non-numeric scalar', { x: 1, x1: 'hello' }, medianOf('$x1'), null],
  ])('%s', async (_label, doc, spec, expected) => {
    const c = await fx.fresh('percentile_expression');
    await c.insertOne(doc);
    expect(await first(c, projected(spec))).toEqual(expected);
  });

  it.each<[doc: Document, input: unknown]>([
    [{ x: [0, 'non-numeric', 1, 2], no_x: 0 }, '$x'],
    [{ x: ['non-numeric', [1, 2, 3]] }, '$x'],
    [{ x: 0, x1: 'non-numeric', x2: 1, x3: 2 }, fields],
    [{ x: 1, x1: 'hello' }, '$x1'],
  ])('should give $median of %j the value of $percentile at 0.5', async (doc, input) => {
    const c = await fx.fresh('percentile_expression');
    await c.insertOne(doc);
    const [both] = await c
      .aggregate([{ $project: { median: medianOf(input), percentile: pOf([0.5], input) } }])
      .toArray();
    expect(both!.median).toEqual((both!.percentile as unknown[] | null)?.[0] ?? null);
  });

  it('a large input: 100,000 uniform samples, within 0.01 of p', async () => {
    const rand = uniform(20230406);
    const samples = Array.from({ length: 100_000 }, () => rand());
    const c = await fx.fresh('percentile_expression');
    await c.insertOne({ x: samples });
    const ps = [0.5, 0.999, 0.0001];
    const answers = (await first(c, projected(pOf(ps, '$x')))) as number[];
    ps.forEach((p, i) => {
      expect(answers[i]).toBeGreaterThan(p - 0.01);
      expect(answers[i]).toBeLessThan(p + 0.01);
    });
  });

  it('a large non-numeric input: 100,000 arrays', async () => {
    const c = await fx.fresh('percentile_expression');
    await c.insertOne({ x: Array.from({ length: 100_000 }, (_, i) => [i]) });
    expect(await first(c, projected(pOf([0.5, 0.9, 0.1], '$x')))).toEqual([null, null, null]);
  });
});

describe('$percentile and $median: our own table', () => {
  const ps = [0.1, 0.5, 0.9];
  const pOf = (p: number[], input: unknown = '$x') => ({ $percentile: { p, input, method: 'approximate' } });
  const medianOf = (input: unknown = '$x') => ({ $median: { input, method: 'approximate' } });

  describe('over 0..99', () => {
    let docs: Collection;
    let array: Collection;
    beforeAll(async () => {
      docs = await fx.fresh('percentiles_hundred');
      await insertSeries(docs, 100, (i) => i);
      array = await fx.fresh('percentiles_hundred_array');
      await array.insertOne({ x: Array.from({ length: 100 }, (_, i) => i) });
    });

    it.each<[label: string, spec: Document, expected: unknown]>([
      ['p of 0.1, 0.5 and 0.9 in the order asked', pOf(ps), [9, 49, 89]],
      ['p of 0.9, 0.1, 0.5 in the order asked', pOf([0.9, 0.1, 0.5]), [89, 9, 49]],
      ['p of 0 and 1: the least and the greatest', pOf([0, 1]), [0, 99]],
      ['p between ranks (0.005, 0.015, 0.999)', pOf([0.005, 0.015, 0.999]), [0, 1, 99]],
      ['$median', medianOf(), 49],
    ])('through $group: %s', async (_label, spec, expected) => {
      expect(await first(docs, grouped(spec))).toEqual(expected);
    });

    it.each<[label: string, spec: Document, expected: unknown]>([
      ['p of 0.1, 0.5 and 0.9', pOf(ps), [9, 49, 89]],
      ['p of 0 and 1', pOf([0, 1]), [0, 99]],
      ['$median', medianOf(), 49],
    ])('as an expression over one array: %s', async (_label, spec, expected) => {
      expect(await first(array, projected(spec))).toEqual(expected);
    });

    it('should answer doubles, as mongod does', async () => {
      const raw = { promoteValues: false };
      expect(await first(docs, grouped(pOf([0, 0.5, 1])), raw)).toStrictEqual([
        new Double(0),
        new Double(49),
        new Double(99),
      ]);
      expect(await first(docs, grouped(medianOf()), raw)).toStrictEqual(new Double(49));
      expect(await first(array, projected(pOf([0.5])), raw)).toStrictEqual([new Double(49)]);
      expect(await first(array, projected(medianOf()), raw)).toStrictEqual(new Double(49));
    });
  });

  describe('over 0..19,999', () => {
    const n = 20_000;
    const sorted = Array.from({ length: n }, (_, i) => i);
    let docs: Collection;
    let array: Collection;
    beforeAll(async () => {
      docs = await fx.fresh('percentiles_large');
      await insertSeries(docs, n, (i) => i);
      array = await fx.fresh('percentiles_large_array');
      await array.insertOne({ x: sorted });
    }, 60_000);

    // mongod's t-digest is approximate past 1000 numbers: checked as percentiles_approx.js checks it.
    it('through $group: p of 0.001, 0.1, 0.5, 0.9, 0.999 within 0.1% of their rank', async () => {
      const asked = [0.001, 0.1, 0.5, 0.9, 0.999];
      expectRanks(await first(docs, grouped(pOf(asked))), asked, sorted, 0.001);
    });

    it('through $group: $median within 0.1% of its rank', async () => {
      expectRanks([await first(docs, grouped(medianOf()))], [0.5], sorted, 0.001);
    });

    it('through $group: p of 0 and 1, exact', async () => {
      expect(await first(docs, grouped(pOf([0, 1])))).toEqual([0, n - 1]);
    });

    it('as an expression over one array: exact at every p', async () => {
      expect(await first(array, projected(pOf([0, 0.001, 0.1, 0.5, 0.9, 0.999, 1])))).toEqual([
        0, 19, 1999, 9999, 17_999, 19_979, 19_999,
      ]);
      expect(await first(array, projected(medianOf()))).toEqual(9999);
    });
  });

  describe('every numeric BSON type, compared as numbers', () => {
    // -7, 1, 2, 3.5, 4, 5, 100 once sorted: an int32, Int64s, doubles (one integral) and Decimal128s.
    const values = [
      new Int32(5),
      Long.fromNumber(1),
      new Double(3.5),
      Decimal128.fromString('2'),
      new Double(4),
      Long.fromString('-7'),
      Decimal128.fromString('1E+2'),
    ];
    const asked = [0, 0.25, 0.5, 0.75, 1];
    const expected = [-7, 1, 3.5, 5, 100];

    it('through $group', async () => {
      const c = await fx.fresh('percentiles_mixed');
      await c.insertMany(values.map((x, i): Document => ({ _id: i, x })));
      expect(await first(c, grouped(pOf(asked)))).toEqual(expected);
      expect(await first(c, grouped(medianOf()))).toEqual(3.5);
    });

    it('as an expression over one array', async () => {
      const c = await fx.fresh('percentiles_mixed');
      await c.insertOne({ x: values });
      expect(await first(c, projected(pOf(asked)))).toEqual(expected);
      expect(await first(c, projected(medianOf()))).toEqual(3.5);
    });

    it('an Int64 as the nearest double, a Decimal128 too', async () => {
      const c = await fx.fresh('percentiles_mixed');
      await c.insertOne({ x: [Long.fromString('9007199254740993'), Decimal128.fromString('0.1')] });
      expect(await first(c, projected(pOf([0, 1])))).toEqual([0.1, 9007199254740992]);
    });

    it('with infinities: p of 0 and 1 are -Infinity and Infinity, the median among the finite numbers', async () => {
      const c = await fx.fresh('percentiles_mixed');
      await c.insertMany([{ x: -Infinity }, { x: 1 }, { x: Decimal128.fromString('Infinity') }, { x: 2 }]);
      expect(await first(c, grouped(pOf([0, 0.5, 1])))).toEqual([-Infinity, 1, Infinity]);
    });
  });

  describe('what is not a number', () => {
    const mixed = [3, 'a', true, null, [1], { v: 1 }, new Date(0), NaN, Decimal128.fromString('NaN'), 1];

    it('is ignored through $group', async () => {
      const c = await fx.fresh('percentiles_non_numeric');
      await c.insertMany(mixed.map((x, i): Document => ({ _id: i, x })));
      expect(await first(c, grouped(pOf([0, 0.5, 1])))).toEqual([1, 1, 3]);
      expect(await first(c, grouped(medianOf()))).toEqual(1);
    });

    it('is ignored in an array', async () => {
      const c = await fx.fresh('percentiles_non_numeric');
      await c.insertOne({ x: mixed });
      expect(await first(c, projected(pOf([0, 0.5, 1])))).toEqual([1, 1, 3]);
      expect(await first(c, projected(medianOf()))).toEqual(1);
    });

    it('gives null for each p when no value is a number, through $group', async () => {
      const c = await fx.fresh('percentiles_non_numeric');
      await c.insertMany([{ x: 'a' }, { x: null }, {}, { x: [1, 2] }, { x: NaN }]);
      expect(await first(c, grouped(pOf(ps)))).toEqual([null, null, null]);
      expect(await first(c, grouped(medianOf()))).toBeNull();
    });

    it('gives null for each p when no value is a number, as an expression', async () => {
      const c = await fx.fresh('percentiles_non_numeric');
      await c.insertOne({ empty: [], strings: ['a', 'b'] });
      expect(await first(c, projected(pOf(ps, '$empty')))).toEqual([null, null, null]);
      expect(await first(c, projected(pOf(ps, '$strings')))).toEqual([null, null, null]);
      expect(await first(c, projected(pOf(ps, '$missing')))).toEqual([null, null, null]);
      expect(await first(c, projected(medianOf('$strings')))).toBeNull();
    });
  });
});
