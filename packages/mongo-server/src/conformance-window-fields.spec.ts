/**
 * Conformance: `$setWindowFields` computes each output field over its
 * window as MongoDB's documentation defines it: the documents of the
 * partition (`partitionBy`), in `sortBy` order, from `documents[0]` to
 * `documents[1]` positions around the current one (`'unbounded'`,
 * `'current'`, or an offset; the whole partition without a `window`), and
 * `$rank`, `$denseRank`, `$documentNumber` and `$shift` over the partition.
 * The documentation's cumulative-quantity example, and a property test whose
 * expected values are computed here from the definition over random
 * partitions and windows. (Every `$setWindowFields` failed on the embedded
 * server with "Cannot run server-side javascript": mingo's stage computes
 * its fields through an internal `$function`.) Written to hold against a
 * real MongoDB 7 (MONGO_URL) too.
 */
import fc from 'fast-check';
import type { Document } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const CAKES = [
  { _id: 0, type: 'chocolate', orderDate: new Date('2020-05-18T14:10:30Z'), state: 'CA', price: 13, quantity: 120 },
  { _id: 1, type: 'chocolate', orderDate: new Date('2021-03-20T11:30:05Z'), state: 'WA', price: 14, quantity: 140 },
  { _id: 2, type: 'vanilla', orderDate: new Date('2021-01-11T06:31:15Z'), state: 'CA', price: 12, quantity: 145 },
  { _id: 3, type: 'vanilla', orderDate: new Date('2020-02-08T13:13:23Z'), state: 'WA', price: 13, quantity: 104 },
  { _id: 4, type: 'strawberry', orderDate: new Date('2019-05-18T16:09:01Z'), state: 'CA', price: 41, quantity: 162 },
  { _id: 5, type: 'strawberry', orderDate: new Date('2019-01-08T06:12:03Z'), state: 'WA', price: 43, quantity: 134 },
];

/** Each result's `_id` → its `field`. */
const byId = (docs: Document[], field: string) =>
  Object.fromEntries(docs.map((doc) => [String(doc._id), doc[field] as unknown]));

describe('conformance: $setWindowFields (the documentation example)', () => {
  it('should sum the quantity of each state cumulatively by order date', async () => {
    const cakes = await fx.fresh('cake_sales');
    await cakes.insertMany(CAKES as Document[]);
    const results = await cakes
      .aggregate([
        {
          $setWindowFields: {
            partitionBy: '$state',
            sortBy: { orderDate: 1 },
            output: {
              cumulativeQuantityForState: { $sum: '$quantity', window: { documents: ['unbounded', 'current'] } },
              totalForState: { $sum: '$quantity' },
              rank: { $rank: {} },
            },
          },
        },
      ])
      .toArray();
    // CA by date: 4 (162), 0 (120), 2 (145); WA: 5 (134), 3 (104), 1 (140).
    expect(byId(results, 'cumulativeQuantityForState')).toEqual({ 4: 162, 0: 282, 2: 427, 5: 134, 3: 238, 1: 378 });
    expect(byId(results, 'totalForState')).toEqual({ 4: 427, 0: 427, 2: 427, 5: 378, 3: 378, 1: 378 });
    expect(byId(results, 'rank')).toEqual({ 4: 1, 0: 2, 2: 3, 5: 1, 3: 2, 1: 3 });
    // Each result keeps its fields and gets the output fields after them, in the order given.
    expect(Object.keys(results[0]!)).toEqual([
      ...Object.keys(CAKES[0]!),
      'cumulativeQuantityForState',
      'totalForState',
      'rank',
    ]);
  });
});

type Bound = number | 'unbounded' | 'current';
const bound = fc.oneof(fc.constantFrom<Bound>('unbounded', 'current'), fc.integer({ min: -2, max: 2 }));
/** A bound as an offset from the current document ('unbounded' is either end of the partition). */
const offset = (value: Bound, end: 'lo' | 'hi') =>
  value === 'unbounded' ? (end === 'lo' ? -Infinity : Infinity) : value === 'current' ? 0 : value;
/** A `documents` window whose lower bound is not above its upper one (mongod refuses that). */
const windowSpec = fc.option(
  fc.tuple(bound, bound).filter(([lo, hi]) => offset(lo, 'lo') <= offset(hi, 'hi')),
  { nil: undefined },
);
const docs = fc
  .array(
    fc.record(
      { p: fc.constantFrom(0, 1, 2), v: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.constant(null)) },
      { requiredKeys: ['p'] },
    ),
    { minLength: 1, maxLength: 15 },
  )
  .map((list) => list.map((doc, i) => ({ _id: i, ...doc })));
const accumulator = fc.constantFrom('$sum', '$min', '$max', '$count', '$push', '$first', '$last');
const partitioned = fc.boolean();

/** A bound's position around `index` in a partition of `length` documents. */
function position(value: Bound, index: number, length: number, end: 'lo' | 'hi'): number {
  if (value === 'unbounded') return end === 'lo' ? 0 : length - 1;
  if (value === 'current') return index;
  return index + value;
}

/** What the accumulator gives over `window` (the values of `v`, `undefined` for a missing one). */
function accumulate(op: string, window: unknown[]): unknown {
  const present = window.filter((v) => v !== undefined && v !== null) as number[];
  switch (op) {
    case '$sum':
      return present.reduce((sum, v) => sum + v, 0);
    case '$min':
      return present.length === 0 ? null : Math.min(...present);
    case '$max':
      return present.length === 0 ? null : Math.max(...present);
    case '$count':
      return window.length;
    case '$push':
      return window.filter((v) => v !== undefined);
    case '$first':
      return window.length === 0 ? null : (window[0] ?? null);
    default:
      return window.length === 0 ? null : (window[window.length - 1] ?? null);
  }
}

/** Each document's expected output, by the definition, per `_id`. */
function expected(
  list: Document[],
  op: string,
  window: [Bound, Bound] | undefined,
  byPartition: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const partitions = new Map<unknown, Document[]>();
  for (const doc of list) {
    const key = byPartition ? doc.p : null;
    partitions.set(key, [...(partitions.get(key) ?? []), doc]);
  }
  for (const members of partitions.values()) {
    members.forEach((doc, index) => {
      const lo = window ? Math.max(0, position(window[0], index, members.length, 'lo')) : 0;
      const hi = window
        ? Math.min(members.length - 1, position(window[1], index, members.length, 'hi'))
        : members.length - 1;
      // A window shifted wholly before the partition's start (`['unbounded', -2]` at its first document) is empty.
      const values = (hi < lo ? [] : members.slice(lo, hi + 1)).map((member) => member.v as unknown);
      out[String(doc._id)] = accumulate(op, values);
    });
  }
  return out;
}

describe('conformance: $setWindowFields by the definition of its windows', () => {
  it('should give each document the accumulator over its window of its partition', async () => {
    await fc.assert(
      fc.asyncProperty(docs, accumulator, windowSpec, partitioned, async (list, op, window, byPartition) => {
        const collection = await fx.fresh('window_fields');
        await collection.insertMany(list as Document[]);
        const output: Document = { [op]: op === '$count' ? {} : '$v' };
        if (window) output.window = { documents: window };
        const stage: Document = { sortBy: { _id: 1 }, output: { out: output } };
        if (byPartition) stage.partitionBy = '$p';
        const results = await collection.aggregate([{ $setWindowFields: stage }]).toArray();
        expect(byId(results, 'out')).toEqual(expected(list, op, window, byPartition));
      }),
      { numRuns: 120 },
    );
  });

  it('should give each document the accumulator over its range window (numeric sortBy, ties included)', async () => {
    // partition_iterator.cpp getEndpointsRangeBased: the window runs from the first document whose
    // sortBy value is at least value + lower ('current': the document itself) to the last whose value
    // is at most value + upper, empty when that is before the start.
    const rangeBound = fc.oneof(fc.constantFrom<Bound>('unbounded', 'current'), fc.integer({ min: -4, max: 4 }));
    const rows = fc.array(fc.record({ t: fc.integer({ min: 0, max: 12 }), v: fc.integer({ min: -5, max: 20 }) }), {
      minLength: 1,
      maxLength: 25,
    });
    const order = (lo: Bound, hi: Bound) =>
      (lo === 'unbounded' ? -Infinity : lo === 'current' ? 0 : lo) <=
      (hi === 'unbounded' ? Infinity : hi === 'current' ? 0 : hi);
    await fc.assert(
      fc.asyncProperty(
        rows,
        accumulator,
        fc.tuple(rangeBound, rangeBound).filter(([lo, hi]) => order(lo, hi)),
        async (list, op, [lo, hi]) => {
          const collection = await fx.fresh('window_ranges');
          await collection.insertMany(list.map((row, i) => ({ _id: i, ...row })) as Document[]);
          const output: Document = { [op]: op === '$count' ? {} : '$v', window: { range: [lo, hi] } };
          const results = await collection
            .aggregate([
              { $setWindowFields: { sortBy: { t: 1 }, output: { out: output } } },
              { $sort: { t: 1, _id: 1 } },
            ])
            .toArray();
          // The documents in the server's order (t, ties as it sorted them), as mongod walks them.
          const ts = results.map((doc) => doc.t as number);
          const vs = results.map((doc) => list[doc._id as number]!.v as unknown);
          const want = results.map((_, i) => {
            const first =
              lo === 'unbounded' ? 0 : lo === 'current' ? i : ts.findIndex((t) => t >= ts[i]! + (lo as number));
            let last = ts.length - 1;
            if (hi === 'current') last = i;
            else if (hi !== 'unbounded') {
              while (last >= 0 && ts[last]! > ts[i]! + (hi as number)) last--;
            }
            return accumulate(op, first < 0 || last < first ? [] : vs.slice(first, last + 1));
          });
          expect(results.map((doc) => doc.out)).toEqual(want);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('should number, rank and shift the documents of each partition', async () => {
    const collection = await fx.fresh('window_ranks');
    const values = [5, 3, 3, 8, 1, 3, 8];
    await collection.insertMany(values.map((v, i) => ({ _id: i, p: i % 2, v })) as Document[]);
    const results = await collection
      .aggregate([
        {
          $setWindowFields: {
            partitionBy: '$p',
            sortBy: { v: 1 },
            output: {
              n: { $documentNumber: {} },
              rank: { $rank: {} },
              dense: { $denseRank: {} },
              previous: { $shift: { output: '$_id', by: -1, default: 'none' } },
            },
          },
        },
      ])
      .toArray();
    // p 0: _id 0 (5), 2 (3), 4 (1), 6 (8) → by v: 4, 2, 0, 6. p 1: 1 (3), 3 (8), 5 (3) → by v: 1 and 5 (tied), 3.
    expect(byId(results, 'n')).toMatchObject({ 4: 1, 2: 2, 0: 3, 6: 4, 3: 3 });
    expect(byId(results, 'rank')).toEqual({ 4: 1, 2: 2, 0: 3, 6: 4, 1: 1, 5: 1, 3: 3 });
    expect(byId(results, 'dense')).toEqual({ 4: 1, 2: 2, 0: 3, 6: 4, 1: 1, 5: 1, 3: 2 });
    expect(byId(results, 'previous')).toMatchObject({ 4: 'none', 2: 4, 0: 2, 6: 0 });
  });
});
