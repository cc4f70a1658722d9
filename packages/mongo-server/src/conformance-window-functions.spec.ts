/**
 * Conformance: `$setWindowFields` window functions and windows as mongod
 * 7.0 computes them, each case's expected output from mongod's jstests
 * (jstests/aggregation/sources/setWindowFields/*.js) or its source
 * (src/mongo/db/pipeline/window_function/*, accumulator_rank.cpp,
 * accumulator_locf.cpp): partitions and ranks by BSON equality across
 * numeric types, `sortBy` in BSON order, windows shifted out of the
 * partition, range windows over a dotted `sortBy` path, `$linearFill`,
 * `$integral` over an empty window, the result type of `$sum` over a
 * sliding window; and, as guards of the server's own implementation,
 * `$derivative` and `$integral` as the jstests give them.
 * Written to hold against a real MongoDB 7 (MONGO_URL) too.
 */
import { type Document, Double, Int32, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** The results of one `$setWindowFields` stage (then `after`) over `docs`. */
async function windowed(docs: Document[], stage: Document, after: Document[] = [], options: Document = {}) {
  const collection = await fx.fresh('window_functions');
  await collection.insertMany(docs);
  return collection.aggregate([{ $setWindowFields: stage }, ...after], options).toArray();
}

/** Each result's `_id` → its `field`. */
const byId = (docs: Document[], field: string) =>
  Object.fromEntries(docs.map((doc) => [String(doc._id), doc[field] as unknown]));

interface ByIdCase {
  readonly name: string;
  readonly docs: Document[];
  readonly stage: Document;
  /** The output field → each document's expected value by `_id`. */
  readonly expected: Record<string, Record<string, unknown>>;
}

/** integral.js's documents: a value every few seconds. */
const INTEGRAL_DOCS: Document[] = [0, 4, 10, 18].map((s, i) => ({
  _id: i,
  time: new Date(Date.UTC(2020, 0, 1, 0, 0, s)),
  y: [0, 2.4, 5.6, 6.8][i],
}));

const BY_ID_CASES: ByIdCase[] = [
  {
    // accumulator_rank.cpp: a new rank when the value does not compare equal (ValueComparator) to the last one.
    name: '$rank and $denseRank tie 1, NumberLong(1) and 1.0',
    docs: [
      { _id: 0, v: 1 },
      { _id: 1, v: Long.fromNumber(1) },
      { _id: 2, v: new Double(1) },
      { _id: 3, v: 2 },
    ],
    stage: { sortBy: { v: 1 }, output: { rank: { $rank: {} }, dense: { $denseRank: {} } } },
    expected: { rank: { 0: 1, 1: 1, 2: 1, 3: 4 }, dense: { 0: 1, 1: 1, 2: 1, 3: 2 } },
  },
  {
    // partition_iterator.cpp: documents are in one partition while their keys compare equal (by value).
    name: 'partitionBy puts 1, NumberLong(1) and 1.0 in one partition',
    docs: [
      { _id: 0, p: 1, v: 1 },
      { _id: 1, p: Long.fromNumber(1), v: 1 },
      { _id: 2, p: new Double(1), v: 1 },
      { _id: 3, p: 2, v: 4 },
    ],
    stage: { partitionBy: '$p', sortBy: { _id: 1 }, output: { total: { $sum: '$v' } } },
    expected: { total: { 0: 3, 1: 3, 2: 3, 3: 4 } },
  },
  {
    // The stage sorts by sortBy in BSON order: missing, then numbers by value across types, then strings.
    name: '$documentNumber follows the BSON order of mixed types',
    docs: [{ _id: 0, v: 'a' }, { _id: 1, v: 2 }, { _id: 2 }, { _id: 3, v: Long.fromNumber(1) }],
    stage: { sortBy: { v: 1 }, output: { n: { $documentNumber: {} } } },
    expected: { n: { 2: 1, 3: 2, 1: 3, 0: 4 } },
  },
  {
    // partition_iterator.cpp getEndpointsDocumentBased / window_function_exec_non_removable.h: a window wholly
    // before the partition's first document is empty.
    name: 'a documents window shifted before the partition is empty',
    docs: [1, 2, 3, 4].map((v, i) => ({ _id: i, v })),
    stage: {
      sortBy: { _id: 1 },
      output: {
        sum: { $sum: '$v', window: { documents: [-3, -2] } },
        pushed: { $push: '$v', window: { documents: ['unbounded', -2] } },
      },
    },
    expected: {
      sum: { 0: 0, 1: 0, 2: 1, 3: 3 },
      pushed: { 0: [], 1: [], 2: [1], 3: [1, 2] },
    },
  },
  {
    // partition_iterator.cpp: a range window reads the sortBy field path, which may be dotted.
    name: 'a range window reads a dotted sortBy path',
    docs: [
      { _id: 0, a: { t: 3 }, v: 1 },
      { _id: 1, a: { t: 1 }, v: 2 },
      { _id: 2, a: { t: 2 }, v: 3 },
    ],
    stage: { sortBy: { 'a.t': 1 }, output: { sum: { $sum: '$v', window: { range: [-1, 0] } } } },
    expected: { sum: { 1: 2, 2: 5, 0: 4 } },
  },
  {
    // integral.js: range-based $integral with unit 'second'; an empty window gives null.
    name: '$integral over an empty range window is null (integral.js)',
    docs: INTEGRAL_DOCS,
    stage: {
      sortBy: { time: 1 },
      output: { integral: { $integral: { input: '$y', unit: 'second' }, window: { range: [-1, -1], unit: 'second' } } },
    },
    expected: { integral: { 0: null, 1: null, 2: null, 3: null } },
  },
];

/**
 * $derivative and $integral as the jstests give them: the old stage (mingo's functions) answered these
 * right too; they cover this server's own implementation of both (window-functions.ts).
 */
const GUARD_CASES: ByIdCase[] = [
  {
    // derivative.js: "When either endpoint lies outside the partition, we use the first/last document".
    name: '$derivative over documents [-3, +1] (derivative.js)',
    docs: [100, 105, 108, 108, 115, 115, 118, 118].map((y, time) => ({ _id: time, time, y })),
    stage: {
      sortBy: { time: 1 },
      output: { dy: { $derivative: { input: '$y' }, window: { documents: [-3, 1] } } },
    },
    expected: {
      dy: { 0: 5, 1: 8 / 2, 2: 8 / 3, 3: 15 / 4, 4: 10 / 4, 5: 10 / 4, 6: 10 / 4, 7: 3 / 3 },
    },
  },
  {
    // derivative.js: range-based bounds; one document in the window gives null.
    name: '$derivative over range [-10, 0] (derivative.js)',
    docs: [
      { _id: 0, time: 0, y: 10 },
      { _id: 1, time: 10, y: 12 },
      { _id: 2, time: 11, y: 15 },
      { _id: 3, time: 12, y: 19 },
      { _id: 4, time: 13, y: 24 },
      { _id: 5, time: 20, y: 30 },
    ],
    stage: { sortBy: { time: 1 }, output: { dy: { $derivative: { input: '$y' }, window: { range: [-10, 0] } } } },
    expected: {
      dy: {
        0: null,
        1: (12 - 10) / (10 - 0),
        2: (15 - 12) / (11 - 10),
        3: (19 - 12) / (12 - 10),
        4: (24 - 12) / (13 - 10),
        5: (30 - 12) / (20 - 10),
      },
    },
  },
  {
    // integral.js: range-based $integral with unit 'second' over [-6, 6] seconds.
    name: '$integral over range [-6, 6] seconds (integral.js)',
    docs: INTEGRAL_DOCS,
    stage: {
      sortBy: { time: 1 },
      output: { integral: { $integral: { input: '$y', unit: 'second' }, window: { range: [-6, 6], unit: 'second' } } },
    },
    expected: { integral: { 0: 4.8, 1: 28.8, 2: 24.0, 3: 0 } },
  },
];

describe('conformance: $setWindowFields window functions (by document)', () => {
  it.each(BY_ID_CASES)('$name', async ({ docs, stage, expected }) => {
    const results = await windowed(docs, stage);
    for (const [field, values] of Object.entries(expected)) expect(byId(results, field)).toEqual(values);
  });

  it.each(GUARD_CASES)('$name', async ({ docs, stage, expected }) => {
    const results = await windowed(docs, stage);
    for (const [field, values] of Object.entries(expected)) expect(byId(results, field)).toEqual(values);
  });
});

/** linear_fill.js: runs of nulls between two values, in three partitions by date (y interpolated on the dates). */
const BOROUGHS = [
  { borough: 'Manhattan', y: -1, date: new Date(Date.UTC(2000, 11, 28)) },
  { borough: 'Manhattan', y: null, date: new Date(Date.UTC(2001, 11, 28)) },
  { borough: 'Bronx', y: -10, date: new Date(Date.UTC(2002, 11, 28)) },
  { borough: 'Bronx', y: null, date: new Date(Date.UTC(2003, 11, 28)) },
  { borough: 'Bronx', y: null, date: new Date(Date.UTC(2004, 11, 28)) },
  { borough: 'Bronx', y: 200, date: new Date(Date.UTC(2005, 11, 28)) },
  { borough: 'Manhattan', y: -10, date: new Date(Date.UTC(2006, 11, 28)) },
  { borough: 'Queens', y: -2, date: new Date(Date.UTC(2007, 11, 28)) },
  { borough: 'Queens', y: -20, date: new Date(Date.UTC(2008, 11, 28)) },
  { borough: 'Queens', y: null, date: new Date(Date.UTC(2009, 11, 28)) },
];

describe('conformance: $setWindowFields results in order', () => {
  it('should fill by $linearFill per partition, the partitions in key order (linear_fill.js)', async () => {
    const results = await windowed(
      BOROUGHS,
      { partitionBy: '$borough', sortBy: { date: 1 }, output: { y: { $linearFill: '$y' } } },
      [{ $project: { _id: 0, borough: 1, y: 1 } }],
    );
    expect(results).toEqual([
      { borough: 'Bronx', y: -10 },
      { borough: 'Bronx', y: 59.93613138686132 },
      { borough: 'Bronx', y: 130.06386861313868 },
      { borough: 'Bronx', y: 200 },
      { borough: 'Manhattan', y: -1 },
      { borough: 'Manhattan', y: -2.499315381104519 },
      { borough: 'Manhattan', y: -10 },
      { borough: 'Queens', y: -2 },
      { borough: 'Queens', y: -20 },
      { borough: 'Queens', y: null },
    ]);
  });

  it('should leave null the values before the first present one by $linearFill (linear_fill.js)', async () => {
    const ids = [0, 1, 4, 9, 10, 11, 12, 13];
    const vals = [null, null, null, null, 10, null, null, 13];
    const results = await windowed(
      ids.map((_id, i) => ({ _id, val: vals[i] })),
      { sortBy: { _id: 1 }, output: { val: { $linearFill: '$val' } } },
    );
    expect(results.map((doc) => doc.val as unknown)).toEqual([null, null, null, null, 10, 11, 12, 13]);
  });
});

/** A value with its BSON type, as the driver gives it without promoting values. */
function typed(value: unknown): string {
  if (value instanceof Int32) return `int ${value.value}`;
  if (value instanceof Long) return `long ${value.toString()}`;
  if (value instanceof Double) return `double ${value.value}`;
  return `${typeof value} ${String(value)}`;
}

describe('conformance: $setWindowFields result types', () => {
  it('should narrow a $sum of Int64 values over a sliding window to an int, not over a running one', async () => {
    // window_function_sum.cpp: RemovableSum::getValue narrows an integral total with createIntOrLong;
    // a left-unbounded window runs $group's accumulator, which keeps an Int64 sum an Int64.
    const results = await windowed(
      [1, 2, 3].map((v, i) => ({ _id: i, v: Long.fromNumber(v) })),
      {
        sortBy: { _id: 1 },
        output: {
          sliding: { $sum: '$v', window: { documents: [-1, 0] } },
          running: { $sum: '$v', window: { documents: ['unbounded', 'current'] } },
        },
      },
      [],
      { promoteValues: false, promoteLongs: false },
    );
    expect(results.map((doc) => typed(doc.sliding))).toEqual(['int 1', 'int 3', 'int 5']);
    expect(results.map((doc) => typed(doc.running))).toEqual(['long 1', 'long 3', 'long 6']);
  });
});

describe('$linearFill refusals (window_function_exec_linear_fill.cpp)', () => {
  it.each<[string, Document[], number, string]>([
    [
      'a value to fill that is no number',
      [
        { _id: 1, t: 1, v: 'x' },
        { _id: 2, t: 2, v: null },
      ],
      14,
      'Value to be filled must be numeric or nullish, but found string',
    ],
    [
      'a sortBy value that is no number or date',
      [
        { _id: 1, t: 'a', v: 1 },
        { _id: 2, t: 'b', v: null },
      ],
      14,
      'Value of the sortBy field must be numeric or a date, but found string',
    ],
    [
      'a repeated sortBy value',
      [
        { _id: 1, t: 1, v: 1 },
        { _id: 2, t: 1, v: null },
      ],
      6050106,
      'There can be no repeated values in the sort field',
    ],
  ])('should refuse %s', async (_label, docs, code, message) => {
    const collection = await fx.fresh('window_functions');
    await collection.insertMany(docs);
    const error = await rejection(
      collection
        .aggregate([{ $setWindowFields: { sortBy: { t: 1 }, output: { v: { $linearFill: '$v' } } } }])
        .toArray(),
    );
    expect([error.code, error.message]).toEqual([code, message]);
  });
});
