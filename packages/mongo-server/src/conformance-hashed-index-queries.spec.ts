/**
 * Conformance: queries answered through hashed indexes (MongoDB's "Hashed
 * Indexes" page: equality and `$in` use them, ranges and sorts on the hashed
 * field do not), from mongod's single_field_hashed_index.js and
 * hashed_index_queries.js, and a property test: through a hashed index (on
 * its own, after a field, before one, on a dotted path) a query returns what
 * a collection scan returns, also after updates and deletes and inside a
 * transaction. Works against a real MongoDB via MONGO_URL (a replica set for
 * the transaction).
 */
import fc from 'fast-check';
import { Decimal128, type Document, Int32, Long, MaxKey, MinKey, ObjectId } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';
import { accessPath, stagesOf, winningPlan } from './explain-plan.fixture.js';

const fx = useDriverFixture({ transactions: true });

/** The stages of `filter`'s winning plan, top first. */
async function stagesOfFind(name: string, filter: Document, options: Document = {}): Promise<string[]> {
  const explain = await fx.db.collection(name).find(filter, options).explain('queryPlanner');
  return stagesOf(winningPlan(explain)).map((stage) => stage.stage as string);
}

/** The access path of `filter` on collection `name` (the index walked, or COLLSCAN). */
async function access(name: string, filter: Document, options: Document = {}) {
  return accessPath(winningPlan(await fx.db.collection(name).find(filter, options).explain('queryPlanner')));
}

/** The hashed index key mongod computes for `value` (`$toHashedIndexKey`), as a decimal string. */
async function hashOf(value: unknown): Promise<string> {
  const [row] = await fx.db
    .aggregate([{ $documents: [{ v: value }] }, { $project: { _id: 0, h: { $toHashedIndexKey: '$v' } } }])
    .toArray();
  return String(row!.h);
}

describe('single_field_hashed_index.js', () => {
  beforeAll(async () => {
    const t = await fx.fresh('single_hashed');
    await t.createIndex({ a: 'hashed' });
    for (let i = 0; i < 10; i++) await t.insertOne({ a: i });
  });

  it('every document is in the index, and a look-up through it finds what the _id index finds', async () => {
    const t = fx.db.collection('single_hashed');
    expect(await t.find().hint({ a: 'hashed' }).toArray()).toHaveLength(10);
    const byId = await t.find({ a: 3 }).hint({ _id: 1 }).toArray();
    const byHash = await t.find({ a: 3 }).hint({ a: 'hashed' }).toArray();
    expect(byHash.map((doc) => doc._id)).toEqual(byId.map((doc) => doc._id));
  });

  it('of two values with the same hash (3 and 3.1), each query returns its own', async () => {
    const t = fx.db.collection('single_hashed');
    await t.insertOne({ a: 3.1 });
    try {
      expect(await hashOf(3.1)).toBe(await hashOf(3));
      expect((await t.find({ a: 3.1 }).hint({ a: 'hashed' }).toArray()).map((doc) => doc.a)).toEqual([3.1]);
      expect((await t.find({ a: 3 }).hint({ a: 'hashed' }).toArray()).map((doc) => doc.a)).toEqual([3]);
      // A count goes through the same index and fetch: the colliding document is not counted.
      expect((await fx.db.command({ count: 'single_hashed', query: { a: 3 } })).n).toBe(1);
      expect(await t.countDocuments({ a: 3 })).toBe(1);
    } finally {
      await t.deleteOne({ a: 3.1 });
    }
  });

  it.each<[string, Document]>([
    ['an equality', { a: 1 }],
    ['$in', { a: { $in: [1, 2] } }],
    ['a singleton $and', { $and: [{ a: 1 }] }],
    ['$in and a range on the same field under $and', { $and: [{ a: { $in: [1, 2] } }, { a: { $gt: 1 } }] }],
    ['{ $exists: false } on a non-sparse index (the null key)', { a: { $exists: false } }],
    ['null', { a: null }],
  ])('%s uses the hashed index', async (_label, filter) => {
    expect(await access('single_hashed', filter)).toMatchObject({ stage: 'IXSCAN', indexName: 'a_hashed' });
  });

  it.each<[string, Document]>([
    ['a field the index does not cover', { c: 1 }],
    ['a range', { a: { $gt: 5 } }],
    ['a range with both ends', { a: { $gte: 2, $lt: 4 } }],
    ['a regular expression', { a: /x/ }],
    ['$ne', { a: { $ne: 1 } }],
  ])('%s does not use it', async (_label, filter) => {
    expect(await access('single_hashed', filter)).toEqual({ stage: 'COLLSCAN' });
  });

  it("the bounds of an equality are the value's hashed index key", async () => {
    const explain = await fx.db.collection('single_hashed').find({ a: 7 }).explain('queryPlanner');
    const ixscan = stagesOf(winningPlan(explain)).find((stage) => stage.stage === 'IXSCAN')!;
    const hash = await hashOf(7);
    expect(ixscan.keyPattern).toEqual({ a: 'hashed' });
    expect(ixscan.indexBounds.a).toHaveLength(1);
    expect(ixscan.indexBounds.a[0]).toContain(hash);
  });

  it('a sort on the hashed field is not given by the index', async () => {
    expect(await stagesOfFind('single_hashed', { a: 1 }, { sort: { a: 1 } })).toContain('SORT');
  });

  it('a hashed index on _id finds what the _id index finds', async () => {
    const t = fx.db.collection('single_hashed');
    await t.createIndex({ _id: 'hashed' });
    const newId = (await t.findOne({ a: 5 }))!._id;
    const byId = await t.find({ _id: newId }).hint({ _id: 1 }).toArray();
    const byHash = await t.find({ _id: newId }).hint({ _id: 'hashed' }).toArray();
    expect(byHash).toEqual(byId);
    expect(byHash).toHaveLength(1);
  });

  it('a sparse hashed index lacks documents without the field, so { $exists: false } and null do not use it', async () => {
    const t = fx.db.collection('single_hashed');
    await t.createIndex({ b: 'hashed' }, { sparse: true });
    for (let i = 0; i < 10; i++) await t.insertOne({ b: i });
    expect(await access('single_hashed', { b: { $exists: false } })).toEqual({ stage: 'COLLSCAN' });
    expect(await access('single_hashed', { b: null })).toEqual({ stage: 'COLLSCAN' });
    expect(await access('single_hashed', { b: 4 })).toMatchObject({ stage: 'IXSCAN', indexName: 'b_hashed' });
    expect(await t.find().hint({ b: 'hashed' }).toArray()).toHaveLength(10);
    const total = await t.countDocuments({});
    expect(await t.find().hint({ a: 'hashed' }).toArray()).toHaveLength(total);
    expect(total).toBe(20);
    // Without the field: 10 documents; the scan answers them, not the sparse index.
    expect(await t.countDocuments({ b: { $exists: false } })).toBe(10);
    expect(await t.countDocuments({ b: null })).toBe(10);
  });
});

describe('hashed_index_queries.js (compound hashed indexes)', () => {
  const docs: Document[] = [];
  for (let i = 0, id = 0; i < 100; i++) {
    docs.push({ _id: id++, a: i, b: { subObj: `str_${i % 13}` }, c: new Int32(i % 10) });
    docs.push({ _id: id++, a: i, b: i % 13, c: new Int32(i % 10) });
  }
  const sorted = (rows: Document[]) => rows.map((row) => JSON.stringify(row)).sort();

  async function expectFind(name: string, filter: Document, stages: string[], output?: Document[]) {
    if (output) {
      const rows = await fx.db
        .collection(name)
        .find(filter, { projection: { _id: 0 } })
        .toArray();
      expect(sorted(rows)).toEqual(sorted(output));
    }
    const plan = await stagesOfFind(name, filter, { projection: { _id: 0 } });
    for (const stage of stages) expect(plan).toContain(stage);
  }

  async function expectCount(name: string, filter: Document, stages: string[], n: number) {
    expect((await fx.db.command({ count: name, query: filter })).n).toBe(n);
    const explain = await fx.db.command({ explain: { count: name, query: filter }, verbosity: 'queryPlanner' });
    const plan = stagesOf(winningPlan(explain)).map((stage) => stage.stage as string);
    for (const stage of stages) expect(plan).toContain(stage);
  }

  it('the hashed field first: ranges and sub-fields scan, an equality on a document uses the index', async () => {
    const coll = await fx.fresh('hashed_prefix');
    await coll.createIndex({ b: 'hashed', c: -1 });
    await coll.insertMany(docs.map((doc) => ({ ...doc })));
    await expectFind('hashed_prefix', { b: { $gt: 10, $lt: 12 } }, ['COLLSCAN']);
    await expectFind('hashed_prefix', { 'b.subObj': 'str_10' }, ['COLLSCAN']);
    await expectFind(
      'hashed_prefix',
      { b: { subObj: 'str_11' } },
      ['IXSCAN', 'FETCH'],
      [
        { a: 11, b: { subObj: 'str_11' }, c: 1 },
        { a: 24, b: { subObj: 'str_11' }, c: 4 },
        { a: 37, b: { subObj: 'str_11' }, c: 7 },
        { a: 50, b: { subObj: 'str_11' }, c: 0 },
        { a: 63, b: { subObj: 'str_11' }, c: 3 },
        { a: 76, b: { subObj: 'str_11' }, c: 6 },
        { a: 89, b: { subObj: 'str_11' }, c: 9 },
      ],
    );
  });

  it('the hashed field second: $in points on every field, and a range on the field before it', async () => {
    const coll = await fx.fresh('hashed_middle');
    await coll.createIndex({ a: 1, b: 'hashed', c: -1 });
    await coll.insertMany(docs.map((doc) => ({ ...doc })));
    await expectFind(
      'hashed_middle',
      { a: { $in: [38, 37] }, b: { $in: [{ subObj: 'str_12' }, { subObj: 'str_11' }] }, c: { $in: [7, 8] } },
      ['IXSCAN', 'FETCH'],
      [
        { a: 37, b: { subObj: 'str_11' }, c: 7 },
        { a: 38, b: { subObj: 'str_12' }, c: 8 },
      ],
    );
    await expectFind('hashed_middle', { a: { $gt: 25, $lt: 29 }, b: 0 }, ['IXSCAN', 'FETCH'], [{ a: 26, b: 0, c: 6 }]);
    // A sort on the field before the hashed one is the index's order; on the hashed field it is not.
    expect(await stagesOfFind('hashed_middle', { a: { $gt: 25 } }, { sort: { a: 1 }, limit: 3 })).not.toContain('SORT');
    expect(await stagesOfFind('hashed_middle', { a: 26 }, { sort: { b: 1 } })).toContain('SORT');
  });

  it('counts through a hashed index fetch each document (the hash alone cannot tell 3 from 3.1)', async () => {
    await fx.fresh('hashed_count_prefix');
    await fx.db.collection('hashed_count_prefix').createIndex({ b: 'hashed', a: 1 });
    await fx.db.collection('hashed_count_prefix').insertMany(docs.map((doc) => ({ ...doc })));
    await expectCount('hashed_count_prefix', { b: { $gt: 10, $lt: 12 } }, ['COLLSCAN'], 7);
    await expectCount('hashed_count_prefix', { b: { subObj: 'str_10' } }, ['IXSCAN', 'FETCH'], 7);

    await fx.fresh('hashed_count_middle');
    await fx.db.collection('hashed_count_middle').createIndex({ a: 1, b: 'hashed', c: -1 });
    await fx.db.collection('hashed_count_middle').insertMany(docs.map((doc) => ({ ...doc })));
    await expectCount('hashed_count_middle', { a: { $gt: 25, $lt: 29 }, b: 0 }, ['IXSCAN', 'FETCH'], 1);
  });
});

describe('through a hashed index, the same documents as a collection scan', () => {
  /** Values of the hashed fields: numbers that hash alike, equal across types, and other BSON types; no arrays (16766). */
  const scalar = fc.constantFrom<unknown>(
    0,
    1,
    1.5,
    -1,
    3,
    3.1,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    new Long(3),
    Decimal128.fromString('3.0'),
    Decimal128.fromString('NaN'),
    2 ** 63,
    'a',
    'b',
    '',
    null,
    true,
    false,
    new ObjectId('65a000000000000000000001'),
    new Date('2026-01-02T00:00:00Z'),
    new MinKey(),
    new MaxKey(),
  );
  const value = fc.oneof(
    { weight: 6, arbitrary: scalar },
    { weight: 1, arbitrary: scalar.map((x) => ({ x })) },
    { weight: 1, arbitrary: fc.tuple(scalar, scalar).map(([x, y]) => ({ x, y })) },
  );
  const documents = fc
    .array(fc.record({ a: value, b: value, c: scalar.map((x) => ({ x })) }, { requiredKeys: [] }), { maxLength: 25 })
    .map((rows) => rows.map((row, i) => ({ ...row, i })));
  const condition = fc.oneof(
    value,
    value.map((v) => ({ $eq: v })),
    fc.array(value, { maxLength: 3 }).map((vs) => ({ $in: vs })),
    fc.tuple(fc.constantFrom('$gt', '$gte', '$lt', '$lte'), scalar).map(([op, v]) => ({ [op]: v })),
    fc.tuple(fc.array(scalar, { minLength: 1, maxLength: 3 }), scalar).map(([vs, v]) => ({ $in: vs, $gte: v })),
    fc.boolean().map((exists) => ({ $exists: exists })),
    scalar.map((v) => ({ $ne: v })),
  );
  const fieldName = fc.constantFrom('a', 'b', 'c.x');
  const filter = fc.oneof(
    fc.tuple(fieldName, condition).map(([field, cond]) => ({ [field]: cond })),
    fc
      .tuple(fieldName, condition, fieldName, condition)
      .map(([f1, c1, f2, c2]) => ({ $and: [{ [f1]: c1 }, { [f2]: c2 }] })),
  );
  const hint = fc.constantFrom<Document | undefined>(
    undefined,
    { a: 'hashed' },
    { b: 1, a: 'hashed' },
    { a: 'hashed', b: -1 },
    { 'c.x': 'hashed' },
  );

  beforeAll(async () => {
    const c = await fx.fresh('hashed_planner');
    await c.createIndex({ a: 'hashed' });
    await c.createIndex({ b: 1, a: 'hashed' });
    await c.createIndex({ a: 'hashed', b: -1 });
    await c.createIndex({ 'c.x': 'hashed' });
  });

  const ids = (rows: Document[]) => rows.map((row) => row.i as number).sort((x, y) => x - y);

  async function reset(rows: Document[]): Promise<void> {
    const c = fx.db.collection('hashed_planner');
    await c.deleteMany({});
    if (rows.length > 0) await c.insertMany(rows.map((row) => ({ ...row })));
  }

  async function expectSameAsScan(q: Document, h: Document | undefined, session?: import('mongodb').ClientSession) {
    const c = fx.db.collection('hashed_planner');
    const indexed = await c.find(q, { session, ...(h && { hint: h }) }).toArray();
    const scanned = await c.find(q, { session, hint: { $natural: 1 } }).toArray();
    expect(ids(indexed)).toEqual(ids(scanned));
    expect(await c.countDocuments(q, { session, ...(h && { hint: h }) })).toBe(scanned.length);
  }

  it('for random documents and queries, planned or hinted', async () => {
    await fc.assert(
      fc.asyncProperty(
        documents,
        fc.array(fc.tuple(filter, hint), { minLength: 1, maxLength: 5 }),
        async (rows, qs) => {
          await reset(rows);
          for (const [q, h] of qs) await expectSameAsScan(q, h);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('after updates and deletes that move documents between hashes', async () => {
    await fc.assert(
      fc.asyncProperty(documents, filter, value, filter, filter, hint, async (rows, where, newA, gone, q, h) => {
        await reset(rows);
        const c = fx.db.collection('hashed_planner');
        await c.updateMany(where, { $set: { a: newA } });
        await c.deleteMany(gone);
        await c.updateOne({ i: 0 }, { $unset: { b: '' } });
        await expectSameAsScan(q, h);
      }),
      { numRuns: 40 },
    );
  });

  it('inside a transaction that changed the collection', async () => {
    await fc.assert(
      fc.asyncProperty(documents, filter, value, filter, hint, async (rows, where, newA, q, h) => {
        await reset(rows);
        const c = fx.db.collection('hashed_planner');
        const session = fx.client.startSession();
        try {
          session.startTransaction();
          await c.updateMany(where, { $set: { a: newA } }, { session });
          await c.insertOne({ a: newA, b: 1, i: 1000 }, { session });
          await expectSameAsScan(q, h, session);
          await session.abortTransaction();
        } finally {
          await session.endSession();
        }
      }),
      { numRuns: 25 },
    );
  });
});
