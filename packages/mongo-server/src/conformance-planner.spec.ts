/**
 * Conformance: a query answered through an index returns what a collection
 * scan (`hint: { $natural: 1 }`) returns, for random documents (arrays,
 * missing fields, mixed BSON types) and random queries; also after updates
 * and deletes, and inside a transaction that changed the collection (works
 * against a real MongoDB via MONGO_URL, a replica set for the transaction).
 */
import fc from 'fast-check';
import {
  type Collection,
  type CollationOptions,
  Decimal128,
  type Document,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
} from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';
import { accessPath, stagesOf, winningPlan } from './explain-plan.fixture.js';

const fx = useDriverFixture({ transactions: true });
const OID = new ObjectId('65a000000000000000000001');
const DAY = new Date('2026-01-02T00:00:00Z');

const scalar = fc.constantFrom<unknown>(
  1,
  2,
  2.5,
  -1,
  Number.NaN,
  new Long(2),
  Decimal128.fromString('2'),
  'a',
  'b',
  '',
  null,
  true,
  false,
  OID,
  DAY,
);
const value = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.array(scalar, { maxLength: 2 }), { maxLength: 2 }) },
  { weight: 1, arbitrary: scalar.map((x) => ({ x })) },
  { weight: 2, arbitrary: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }) },
);
const cField = fc.oneof(
  scalar.map((x) => ({ x })),
  fc.array(
    scalar.map((x) => ({ x })),
    { maxLength: 3 },
  ),
  scalar,
);
const documents = fc
  .array(fc.record({ a: value, b: value, c: cField }, { requiredKeys: [] }), { maxLength: 30 })
  .map((docs) => docs.map((doc, i) => ({ ...doc, i })));

const fieldName = fc.constantFrom('a', 'b', 'c.x', '_id', 'i');
const condition = fc.oneof(
  value,
  scalar.map((v) => ({ $eq: v })),
  fc.array(scalar, { maxLength: 3 }).map((vs) => ({ $in: vs })),
  fc.tuple(fc.constantFrom('$gt', '$gte', '$lt', '$lte'), scalar).map(([op, v]) => ({ [op]: v })),
  fc.tuple(scalar, scalar).map(([low, high]) => ({ $gt: low, $lte: high })),
  // Each bound met by another element of an array: bounds on a multikey field must not be intersected.
  fc
    .tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }))
    .map(([low, high]) => ({ $gt: low, $lt: high })),
  scalar.map((v) => ({ $ne: v })),
  fc.boolean().map((exists) => ({ $exists: exists })),
);
const filter = fc.oneof(
  fc.tuple(fieldName, condition).map(([field, cond]) => ({ [field]: cond })),
  fc
    .tuple(fieldName, condition, fieldName, condition)
    .map(([f1, c1, f2, c2]) => ({ $and: [{ [f1]: c1 }, { [f2]: c2 }] })),
);
const sort = fc.option(
  fc.tuple(fc.constantFrom('a', 'i', '_id', 'b'), fc.constantFrom(1, -1)).map(([field, dir]) => ({ [field]: dir })),
  { nil: undefined },
);
const query = fc.record({ filter, sort, limit: fc.constantFrom(0, 1, 3) });

type Query = { filter: Document; sort?: Document; limit: number };

const ids = (docs: Document[]) => docs.map((doc) => doc.i as number);

/** Same documents as a collection scan; in the same order where the order is defined (a sort on a unique field). */
async function expectSameAsScan(q: Query, session?: import('mongodb').ClientSession): Promise<void> {
  const c = fx.db.collection('planner');
  const run = (hint?: Document) => {
    let cursor = c.find(q.filter, { session, ...(hint && { hint }) });
    if (q.sort) cursor = cursor.sort(q.sort);
    if (q.limit) cursor = cursor.limit(q.limit);
    return cursor.toArray();
  };
  const [indexed, scanned] = [await run(), await run({ $natural: 1 })];
  const uniqueSort = q.sort && ('i' in q.sort || '_id' in q.sort);
  // The embedded server keeps ties in natural order on both paths, so the whole sequence is comparable there.
  if (uniqueSort || (q.sort && !process.env.MONGO_URL)) expect(ids(indexed)).toEqual(ids(scanned));
  else if (!q.limit || !q.sort) {
    if (q.limit && !process.env.MONGO_URL) expect(ids(indexed)).toEqual(ids(scanned));
    else if (!q.limit) expect(ids(indexed).sort()).toEqual(ids(scanned).sort());
  }
}

async function reset(docs: Document[]): Promise<void> {
  const c = fx.db.collection('planner');
  await c.deleteMany({});
  if (docs.length > 0) await c.insertMany(docs.map((doc) => ({ ...doc })));
}

beforeAll(async () => {
  const c = await fx.fresh('planner');
  await c.createIndex({ a: 1 });
  await c.createIndex({ b: -1, a: 1 });
  await c.createIndex({ 'c.x': 1 });
  await c.createIndex({ i: 1 }, { unique: true });
  await c.createIndex({ a: 1, i: -1 });
  // A keyset page by another field with `_id` breaking ties, or by `_id` after an equality.
  await c.createIndex({ b: 1, _id: -1 });
});

/** NaNs (a double's, a Decimal128's) beside a number and -Infinity: no range matches NaN, whatever it sorts below. */
const NAN_DOCS = [
  { a: Number.NaN, i: 0 },
  { a: 0, i: 1 },
  { a: Decimal128.fromString('NaN'), i: 2 },
  { a: -Infinity, i: 3 },
];
/** One value of several types, a missing field, MinKey, MaxKey and an array, for comparisons with MinKey and MaxKey. */
const KEY_DOCS = [
  { a: 1, i: 0 },
  { a: 'x', i: 1 },
  { a: null, i: 2 },
  { i: 3 },
  { a: new MinKey(), i: 4 },
  { a: new MaxKey(), i: 5 },
  { a: [1], i: 6 },
];

describe('planner correctness', () => {
  it('indexed results equal a collection scan', async () => {
    await fc.assert(
      fc.asyncProperty(documents, fc.array(query, { minLength: 1, maxLength: 5 }), async (docs, queries) => {
        await reset(docs);
        for (const q of queries) await expectSameAsScan(q);
      }),
      { numRuns: 150 },
    );
  });

  it('after updates and deletes the indexes still agree with a scan', async () => {
    await fc.assert(
      fc.asyncProperty(documents, filter, value, filter, query, async (docs, updateFilter, newA, deleteFilter, q) => {
        await reset(docs);
        const c = fx.db.collection('planner');
        await c.updateMany(updateFilter, { $set: { a: newA } });
        await c.deleteMany(deleteFilter);
        await c.updateOne({ i: 0 }, { $set: { b: newA } });
        await expectSameAsScan(q);
      }),
      { numRuns: 40 },
    );
  });

  it('inside a transaction that changed the collection, as a scan in it', async () => {
    await fc.assert(
      fc.asyncProperty(documents, filter, value, filter, query, async (docs, updateFilter, newA, deleteFilter, q) => {
        await reset(docs);
        const c = fx.db.collection('planner');
        const session = fx.client.startSession();
        try {
          session.startTransaction();
          await c.updateMany(updateFilter, { $set: { a: newA } }, { session });
          await c.deleteMany(deleteFilter, { session });
          await c.insertOne({ a: newA, b: 1, i: 1000 }, { session });
          await expectSameAsScan(q, session);
          await session.abortTransaction();
        } finally {
          await session.endSession();
        }
      }),
      { numRuns: 30 },
    );
  });

  it.each<[string, Document, Document[], number[]]>([
    [
      'each bound met by another element of an array',
      { a: { $gt: 2, $lt: 2 } },
      [
        { a: [1, 3], i: 0 },
        { a: 2, i: 1 },
      ],
      [0],
    ],
    [
      'a missing field as null',
      { b: null },
      [
        { a: 1, i: 0 },
        { b: null, i: 1 },
        { b: 1, i: 2 },
      ],
      [0, 1],
    ],
    [
      'numbers equal across types',
      { a: new Long(2) },
      [
        { a: 2.0, i: 0 },
        { a: Decimal128.fromString('2.0'), i: 1 },
      ],
      [0, 1],
    ],
    [
      'a path through an array of documents',
      { 'c.x': { $gte: 2 } },
      [
        { c: [{ x: 1 }, { x: 3 }], i: 0 },
        { c: { x: 1 }, i: 1 },
      ],
      [0],
    ],
    [
      'NaN sorts below every number, yet a range below them all does not match it',
      { a: { $lt: -1e308 } },
      NAN_DOCS,
      [3],
    ],
    ['a range open upwards from -Infinity takes every number but NaN', { a: { $gte: -Infinity } }, NAN_DOCS, [1, 3]],
    ["$lte NaN matches NaN only (a double's and a Decimal128's)", { a: { $lte: Number.NaN } }, NAN_DOCS, [0, 2]],
    ['$gte NaN matches NaN only', { a: { $gte: Decimal128.fromString('NaN') } }, NAN_DOCS, [0, 2]],
    ['$gt NaN matches nothing', { a: { $gt: Number.NaN } }, NAN_DOCS, []],
    ['$lt NaN matches nothing', { a: { $lt: Number.NaN } }, NAN_DOCS, []],
    [
      'every other type, a missing field included, is below MaxKey',
      { a: { $lt: new MaxKey() } },
      KEY_DOCS,
      [0, 1, 2, 3, 4, 6],
    ],
    ['$lte MaxKey takes MaxKey too', { a: { $lte: new MaxKey() } }, KEY_DOCS, [0, 1, 2, 3, 4, 5, 6]],
    ['every other type is above MinKey', { a: { $gt: new MinKey() } }, KEY_DOCS, [0, 1, 2, 3, 5, 6]],
    ['nothing is above MaxKey', { a: { $gt: new MaxKey() } }, KEY_DOCS, []],
    ['$lte MinKey is MinKey alone', { a: { $lte: new MinKey() } }, KEY_DOCS, [4]],
  ])('%s', async (_, query, docs, expected) => {
    await reset(docs);
    const c = fx.db.collection('planner');
    expect(ids(await c.find(query).sort({ i: 1 }).toArray())).toEqual(expected);
    await expectSameAsScan({ filter: query, limit: 0 });
  });

  it.each<[string, Document, Document, number, number[]]>([
    ['a range, ascending', { i: { $gte: 2 } }, { i: 1 }, 3, [2, 3, 4]],
    ['a range, descending', { i: { $lt: 8 } }, { i: -1 }, 3, [7, 6, 5]],
    ['an $in naming a key twice', { i: { $in: [5, 2, 5, 9, 2] } }, { i: 1 }, 0, [2, 5, 9]],
    ['overlapping ranges', { $or: [{ i: { $lte: 3 } }, { i: { $gte: 2, $lt: 5 } }] }, { i: -1 }, 0, [4, 3, 2, 1, 0]],
    ['a filter on another field', { i: { $gt: 0 }, a: { $ne: 1 } }, { i: 1 }, 2, [2, 3]],
    ['an equality, then _id', { b: 'x' }, { _id: 1 }, 3, [1, 3, 5]],
    ['an equality, then _id descending', { b: 'x' }, { _id: -1 }, 0, [9, 7, 5, 3, 1]],
    ['a field and _id breaking its ties', { b: { $gte: 'x' } }, { b: 1, _id: -1 }, 4, [9, 7, 5, 3]],
  ])(
    'a sort that admits no ties (a unique index, or _id among its fields), %s, gives each document once in key order',
    async (_, query, order, limit, expected) => {
      await reset(
        Array.from({ length: 10 }, (_, i) => ({ _id: i, i, a: i % 2 === 1 && i !== 3 ? 1 : 0, b: i % 2 ? 'x' : 'y' })),
      );
      const c = fx.db.collection('planner');
      // The planner's choice (an index that gives the sort), then a collection scan.
      for (const hint of [undefined, { $natural: 1 }]) {
        let cursor = c.find(query, hint && { hint }).sort(order);
        if (limit) cursor = cursor.limit(limit);
        expect(ids(await cursor.toArray())).toEqual(expected);
      }
    },
  );

  it('a sort on _id through an index with an array field after it gives each document once', async () => {
    await fx.fresh('planner_trailing_multikey');
    const c = fx.db.collection<{ _id: number; k: string; t: unknown }>('planner_trailing_multikey');
    await c.createIndex({ k: 1, _id: 1, t: 1 });
    await c.insertMany([
      { _id: 1, k: 'x', t: [3, 1, 2] },
      { _id: 2, k: 'x', t: 5 },
      { _id: 3, k: 'y', t: [1, 2] },
      { _id: 4, k: 'x', t: [] },
    ]);
    for (const hint of [undefined, { $natural: 1 }]) {
      const found = await c
        .find({ k: 'x' }, hint && { hint })
        .sort({ _id: 1 })
        .toArray();
      expect(found.map((doc) => doc._id)).toEqual([1, 2, 4]);
      const page = await c
        .find({ k: 'x' }, hint && { hint })
        .sort({ _id: -1 })
        .limit(2)
        .toArray();
      expect(page.map((doc) => doc._id)).toEqual([4, 2]);
    }
  });

  it('a sort on a field and _id under an index collation where two _ids tie', async () => {
    await fx.fresh('planner_collated_ties');
    const c = fx.db.collection<{ _id: string; name: string; x: number }>('planner_collated_ties');
    const collation = { locale: 'en', strength: 2 };
    await c.createIndex({ name: 1, _id: 1, x: 1 }, { collation });
    await c.insertMany([
      { _id: 'RED', name: 'a', x: 2 },
      { _id: 'Red', name: 'a', x: 1 },
      { _id: 'blue', name: 'a', x: 0 },
    ]);
    const order = async (hint?: Document) =>
      (
        await c
          .find({ name: 'a' }, { collation, ...(hint && { hint }) })
          .sort({ name: 1, _id: 1 })
          .toArray()
      ).map((doc) => doc._id);
    const [indexed, scanned] = [await order(), await order({ $natural: 1 })];
    expect(indexed[0]).toBe('blue');
    expect([...indexed].sort()).toEqual(['RED', 'Red', 'blue']);
    // 'RED' and 'Red' tie under the collation: MongoDB leaves their order open, the embedded server keeps insertion order.
    if (!process.env.MONGO_URL) expect(indexed).toEqual(scanned);
  });

  it('counts (countDocuments, count) equal a collection scan, equalities on indexed fields included', async () => {
    const c = fx.db.collection('planner');
    const equality = fc.oneof(
      scalar,
      scalar.map((v) => ({ $eq: v })),
    );
    const countFilter = fc.oneof(
      fc.tuple(fieldName, equality).map(([field, cond]) => ({ [field]: cond })),
      fc.tuple(fc.constantFrom('b', 'i'), equality, equality).map(([field, b, a]) => ({ [field]: b, a })),
      filter,
    );
    const page = fc.record({ skip: fc.constantFrom(0, 1, 3), limit: fc.constantFrom(0, 1, 2, 5) });
    await fc.assert(
      fc.asyncProperty(
        documents,
        fc.array(fc.tuple(countFilter, page), { minLength: 1, maxLength: 5 }),
        async (docs, counts) => {
          await reset(docs);
          for (const [query, { skip, limit }] of counts) {
            const scanned = (await c.find(query, { hint: { $natural: 1 } }).toArray()).length;
            const expected = Math.max(0, Math.min(scanned - skip, limit || Number.POSITIVE_INFINITY));
            expect(await c.countDocuments(query, { skip, ...(limit && { limit }) })).toBe(expected);
            const counted = await fx.db.command({ count: 'planner', query, skip, limit });
            expect(counted.n).toBe(expected);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it.each<[string, Document, Document[], number]>([
    [
      'an equality on a compound index whose other field holds arrays',
      { b: 1 },
      [
        { b: 1, a: [1, 2], i: 0 },
        { b: 1, a: 3, i: 1 },
        { b: 2, a: [4, 5], i: 2 },
      ],
      2,
    ],
    [
      'numbers equal across types',
      { a: 2 },
      [
        { a: 2, i: 0 },
        { a: 2.5, i: 1 },
        { a: new Long(2), i: 2 },
        { a: Decimal128.fromString('2.0'), i: 3 },
      ],
      3,
    ],
    ['an $eq on a unique index', { i: { $eq: 4 } }, [{ i: 3 }, { i: 4 }, { i: 5 }], 1],
    [
      'two equalities on a compound index',
      { b: 'x', a: true },
      [
        { b: 'x', a: true, i: 0 },
        { b: 'x', a: false, i: 1 },
        { b: 'y', a: true, i: 2 },
        { b: 'x', a: true, i: 3 },
      ],
      2,
    ],
    ['an ObjectId', { a: OID }, [{ a: OID, i: 0 }, { a: DAY, i: 1 }, { i: 2 }], 1],
  ])('a count on %s counts each matching document once', async (_, query, docs, expected) => {
    await reset(docs);
    const c = fx.db.collection('planner');
    expect(await c.countDocuments(query)).toBe(expected);
    expect((await fx.db.command({ count: 'planner', query })).n).toBe(expected);
    expect((await c.find(query, { hint: { $natural: 1 } }).toArray()).length).toBe(expected);
  });

  // Counts from an index alone take its bounds as the answer: each case is one way bounds and matches could part.
  it.each<[string, Document, Document[], number, CollationOptions?]>([
    [
      'a range open downwards among numbers, NaN stored',
      { a: { $lt: 5 } },
      [{ a: NaN }, { a: 1 }, { a: 7 }, { a: -Infinity }],
      2,
    ],
    [
      'a range across number types',
      { a: { $gte: 2, $lt: 5 } },
      [{ a: 2 }, { a: new Long(3) }, { a: Decimal128.fromString('4.5') }, { a: 5 }, { a: '3' }, { a: Infinity }],
      3,
    ],
    [
      'a range open upwards, infinities and NaNs stored',
      { a: { $gt: 5 } },
      [
        { a: 6 },
        { a: Infinity },
        { a: NaN },
        { a: '7' },
        { a: Decimal128.fromString('NaN') },
        { a: Decimal128.fromString('Infinity') },
      ],
      3,
    ],
    [
      'a range of strings',
      { a: { $gt: 'a', $lte: 'c' } },
      [{ a: 'a' }, { a: 'b' }, { a: 'c' }, { a: 'd' }, { a: 5 }],
      2,
    ],
    [
      'a range of dates',
      { a: { $gte: DAY } },
      [{ a: DAY }, { a: new Date(DAY.getTime() + 1) }, { a: new Date(DAY.getTime() - 1) }, { a: 5 }],
      2,
    ],
    [
      'a day of ObjectIds',
      { _id: { $gte: ObjectId.createFromTime(1_700_000_100), $lt: ObjectId.createFromTime(1_700_000_300) } },
      [0, 100, 200, 299, 300].map((s) => ({ _id: ObjectId.createFromTime(1_700_000_000 + s) })),
      3,
    ],
    ['booleans below true', { a: { $lt: true } }, [{ a: false }, { a: true }, { a: 0 }], 1],
    [
      'an equality then a range on a compound index',
      { b: 'x', a: { $gt: 1 } },
      [
        { b: 'x', a: 1 },
        { b: 'x', a: 2 },
        { b: 'y', a: 3 },
        { b: 'x', a: 9 },
        { b: 'x', a: '2' },
      ],
      2,
    ],
    ['an empty range', { a: { $gt: 5, $lt: 3 } }, [{ a: 4 }, { a: 6 }], 0],
    ['a range across types', { a: { $gt: 5, $lt: 'z' } }, [{ a: 6 }, { a: 'b' }], 0],
    [
      'a string under a collation the index lacks',
      { a: 'abc' },
      [{ a: 'ABC' }, { a: 'abc' }, { a: 'x' }],
      2,
      { locale: 'en', strength: 2 },
    ],
    ['an element of a multikey field, each document once', { a: 2 }, [{ a: [2, 2, 3] }, { a: [2] }, { a: 5 }], 2],
    ['a range on a multikey field, each document once', { a: { $gt: 1 } }, [{ a: [0, 2, 3] }, { a: [1] }, { a: 4 }], 2],
    ['a value held in an array in an array', { b: 2 }, [{ b: [[2]] }, { b: [2] }, { b: 3 }], 1],
    ['a field under an array in an array', { 'c.x': 1 }, [{ c: [[{ x: 1 }]] }, { c: [{ x: 1 }] }, { c: { x: 2 } }], 1],
    [
      'a number and a string under a collation the index lacks',
      { b: 5, a: 'abc' },
      [
        { b: 5, a: 'ABC' },
        { b: 5, a: 'abc' },
        { b: 5, a: 'x' },
        { b: 6, a: 'abc' },
      ],
      2,
      { locale: 'en', strength: 2 },
    ],
  ])('a count of %s from the index equals a scan', async (_, query, docs, expected, ...[collation]) => {
    await reset(docs.map((doc, i) => ({ i, ...doc })));
    const c = fx.db.collection('planner');
    const options: { collation?: CollationOptions } = collation ? { collation } : {};
    expect((await c.find(query, { ...options, hint: { $natural: 1 } }).toArray()).length).toBe(expected);
    expect(await c.countDocuments(query, options)).toBe(expected);
    expect((await fx.db.command({ count: 'planner', query, ...options })).n).toBe(expected);
  });

  it('a count hinted to an index of other fields reads the documents', async () => {
    await reset([
      { a: 1, i: 0 },
      { a: 2, i: 1 },
    ]);
    expect((await fx.db.command({ count: 'planner', query: { a: 1 }, hint: { i: 1 } })).n).toBe(1);
  });

  it('a keyset page in a transaction sees its own inserts', async () => {
    const c = await fx.db.collection('planner');
    await reset(Array.from({ length: 10 }, (_, i) => ({ i })));
    const session = fx.client.startSession();
    try {
      session.startTransaction();
      await c.insertOne({ i: 100 }, { session });
      await c.deleteOne({ i: 3 }, { session });
      const page = await c
        .find({ i: { $gt: 1 } }, { session })
        .sort({ i: 1 })
        .limit(3)
        .toArray();
      expect(ids(page)).toEqual([2, 4, 5]);
      const last = await c.find({}, { session }).sort({ i: -1 }).limit(1).toArray();
      expect(ids(last)).toEqual([100]);
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
  });
});

describe('index entries through updates', () => {
  let c: Collection<{ _id: number } & Document>;
  beforeEach(async () => {
    await fx.fresh('rewritten');
    c = fx.db.collection('rewritten');
    await c.createIndex({ u: 1 }, { unique: true });
    await c.createIndex({ t: 1 });
  });

  /** The ids `filter` finds through index `name` (asserted), in _id order. */
  async function viaIndex(filter: Document, name: string): Promise<unknown[]> {
    const plan = winningPlan(await c.find(filter).explain('queryPlanner'));
    expect(accessPath(plan).indexName).toBe(name);
    return (await c.find(filter).sort({ _id: 1 }).toArray()).map((doc) => doc._id);
  }

  it('an update of other fields keeps the document under its keys, with its new values', async () => {
    await c.insertMany([
      { _id: 1, u: 'a', t: 'x', n: 1 },
      { _id: 2, u: 'b', t: 'x', n: 2 },
    ]);
    await c.updateOne({ _id: 1 }, { $inc: { n: 10 } });
    await c.findOneAndUpdate({ u: 'b' }, { $set: { u: 'b', t: 'x', n: 20 } });
    expect(await viaIndex({ t: 'x' }, 't_1')).toEqual([1, 2]);
    expect(
      await c
        .find({ u: { $in: ['a', 'b'] } })
        .sort({ _id: 1 })
        .toArray(),
    ).toEqual([
      { _id: 1, u: 'a', t: 'x', n: 11 },
      { _id: 2, u: 'b', t: 'x', n: 20 },
    ]);
    await expect(c.insertOne({ _id: 3, u: 'b' })).rejects.toMatchObject({ code: 11000 });
  });

  it('an update of an indexed field moves the document to its new keys and frees the old', async () => {
    await c.insertOne({ _id: 1, u: 'a', t: 'x' });
    await c.updateOne({ _id: 1 }, { $set: { u: 'b', t: 'y' } });
    expect(await viaIndex({ t: 'x' }, 't_1')).toEqual([]);
    expect(await viaIndex({ t: 'y' }, 't_1')).toEqual([1]);
    await c.insertOne({ _id: 2, u: 'a' });
    await expect(c.insertOne({ _id: 3, u: 'b' })).rejects.toMatchObject({ code: 11000 });
  });

  it('a scalar that becomes an array of itself makes the index multikey', async () => {
    await c.insertOne({ _id: 1, t: 'x' });
    await c.updateOne({ _id: 1 }, { $set: { t: ['x'] } });
    const plan = winningPlan(await c.find({ t: 'x' }).explain('queryPlanner'));
    expect(stagesOf(plan).find((stage) => stage.stage === 'IXSCAN')).toMatchObject({
      indexName: 't_1',
      isMultiKey: true,
    });
    expect(await viaIndex({ t: 'x' }, 't_1')).toEqual([1]);
  });

  it('unique keys follow an array of arrays flattened into its elements', async () => {
    // [[1, 2]] holds one key, the array [1, 2]; [1, 2] holds the keys 1 and 2.
    await c.insertOne({ _id: 1, u: [[1, 2]] });
    await c.updateOne({ _id: 1 }, { $set: { u: [1, 2] } });
    await expect(c.insertOne({ _id: 2, u: 1 })).rejects.toMatchObject({ code: 11000 });
    await c.insertOne({ _id: 3, u: [[1, 2]] });
    expect(await c.countDocuments({ u: 2 })).toBe(1);
  });

  it("a committed transaction's update moves the document to its new keys", async () => {
    await c.insertMany([
      { _id: 1, u: 'a', t: 'x' },
      { _id: 2, u: 'b', t: 'x' },
    ]);
    const session = fx.client.startSession();
    try {
      await session.withTransaction(async () => {
        await c.updateOne({ _id: 1 }, { $set: { u: 'c', t: 'y' } }, { session });
        await c.updateOne({ _id: 2 }, { $set: { n: 1 } }, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(await viaIndex({ t: 'x' }, 't_1')).toEqual([2]);
    expect(await viaIndex({ t: 'y' }, 't_1')).toEqual([1]);
    await c.insertOne({ _id: 3, u: 'a' });
    await expect(c.insertOne({ _id: 4, u: 'c' })).rejects.toMatchObject({ code: 11000 });
  });
});
