/**
 * Conformance: cursors and their batches. The batch sizes of an aggregate's
 * cursor and of the getMores that continue it (a `batchSize` of 0 answering
 * an empty first batch), counting and iterating large documents with and
 * without a limit, count against the documents a find returns, index bounds
 * of single-field, compound, sub-document and mixed-direction indexes with
 * hinted sorts in both directions, cursors whose collection, database or
 * scanned index is dropped or renamed between the find and its getMore, and
 * cursors whose next documents are deleted or changed between two batches.
 * The cases and answers are those of mongod's own jstests
 * (jstests/core/query/cursor), ported from the mongo shell to the Node.js
 * driver, and hold against a real MongoDB 7 via MONGO_URL. Every cursor is
 * opened in an explicit session of its own, from which its getMores come.
 *
 * Not ported: cursora.js (a parallel shell and `$where`), getmore_cmd_maxtimems.js
 * (its non-capped case is in conformance-get-more, the rest needs capped
 * collections and tailable cursors), limit_batch_size.js (requires FCV 8.3,
 * changed after 7.0), the killCursors case of getmore_invalidated_cursors.js
 * (in conformance-crud) and the geo cases (5 to 9) of
 * getmore_invalidated_documents.js.
 */
import { type ClientSession, type Collection, type Document, type FindCursor, Long } from 'mongodb';

import { useDriverFixture, useSessions, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

const sessions = useSessions(fx);
const startSession = (): ClientSession => sessions.start();

/** `itcount()`: how many documents the cursor has left. */
async function itcount(cursor: FindCursor): Promise<number> {
  return (await cursor.toArray()).length;
}

describe('aggregate: batchSize on the cursor and its getMores (aggregation_getmore_batchsize.js)', () => {
  const NAME = 'aggregation_getmore_batchsize';
  const PIPELINE = [{ $match: { a: 1 } }, { $limit: 6 }];

  beforeEach(async () => {
    await (await fx.fresh(NAME)).insertMany([1, 2, 3, 4, 5, 6].map(() => ({ a: 1 })));
  });

  /** The aggregate's first batch and the getMores' batches, until six documents came; `batchSize` on each. */
  async function batches(cursor: Document, getMoreBatchSize?: number): Promise<number[]> {
    const session = startSession();
    // promoteLongs off: the cursor id stays the Int64 a getMore must be sent.
    const reply = await fx.db.command(
      { aggregate: NAME, pipeline: PIPELINE, cursor },
      { session, promoteLongs: false },
    );
    let { id, firstBatch: batch } = reply.cursor as { id: Long; firstBatch: Document[]; nextBatch?: Document[] };
    const sizes = [batch.length];
    let seen = batch.length;
    while (seen < 6 && Long.isLong(id) && !id.isZero()) {
      const command: Document = { getMore: id, collection: NAME };
      if (getMoreBatchSize !== undefined) command.batchSize = getMoreBatchSize;
      const next = await fx.db.command(command, { session, promoteLongs: false });
      ({ id, nextBatch: batch } = next.cursor as { id: Long; nextBatch: Document[] });
      sizes.push(batch.length);
      seen += batch.length;
    }
    return sizes;
  }

  it('answers batches of two for { batchSize: 2 }, the getMores of two as well', async () => {
    expect(await batches({ batchSize: 2 }, 2)).toEqual([2, 2, 2]);
  });

  it('answers an empty first batch for { batchSize: 0 }, and the six in the getMore without batchSize', async () => {
    expect(await batches({ batchSize: 0 })).toEqual([0, 6]);
  });

  it('answers all six in the first batch for cursor: {}', async () => {
    expect(await batches({})).toEqual([6]);
  });
});

describe('find: count and itcount of documents of 50 KB (cursor1.js)', () => {
  it('counts and iterates 200 documents, and 100 with limit 100', async () => {
    const collection = await fx.fresh('cursor1');
    let big = '';
    while (big.length < 50000) big += 'asdasdasdasdsdsdadsasdasdasD';
    const num = Math.ceil(10000000 / big.length);
    expect(num).toBe(200);
    await collection.insertMany(Array.from({ length: num }, (_, i) => ({ num: i, str: big })));
    const session = startSession();
    expect((await fx.db.command({ count: 'cursor1', query: {} }, { session })).n).toBe(num);
    expect(await itcount(collection.find({}, { session }))).toBe(num);
    expect(await itcount(collection.find({}, { session }).limit(num / 2))).toBe(num / 2);
  });
});

describe('find: count against the documents returned (cursor2.js)', () => {
  it('counts as many documents as a find with a projection returns', async () => {
    const collection = await fx.fresh('ed_db_cursor2_ccvsal');
    await collection.insertOne({ a: 1, b: 1 });
    await collection.insertOne({ a: 2, b: 1 });
    await collection.insertOne({ a: 3 });
    const session = startSession();
    const fromCount = (await fx.db.command({ count: 'ed_db_cursor2_ccvsal', query: {} }, { session })).n as number;
    const fromArrLen = (await collection.find({}, { projection: { b: 1 }, session }).toArray()).length;
    expect(fromCount).toBe(fromArrLen);
    expect(fromCount).toBe(3);
  });
});

/**
 * The shell's `checkResults(expected, find(filter).sort(sort).hint(hint))`: `count()` (a count command with the
 * filter and the hint) is the number expected, and the find's documents, without `_id`, are those expected in order.
 */
async function checkResults(
  collection: Collection,
  filter: Document,
  sort: Document,
  hint: Document,
  expected: Document[],
  withCount = true,
): Promise<void> {
  const session = startSession();
  if (withCount) {
    const count = await fx.db.command({ count: collection.collectionName, query: filter, hint }, { session });
    expect(count.n).toBe(expected.length);
  }
  const docs = await collection.find(filter, { sort, hint, projection: { _id: 0 }, session }).toArray();
  expect(docs).toEqual(expected);
}

describe('find: inequality bounds with a sort on a single-field index (cursor3.js)', () => {
  const NAME = 'cursor3';
  beforeAll(async () => {
    const collection = await fx.fresh(NAME);
    for (const a of [0, 1, 2]) await collection.insertOne({ a });
    await collection.createIndex({ a: 1 });
  });

  it.each<[number, Document, 1 | -1, number[]]>([
    [1, { a: 1 }, 1, [1]],
    [2, { a: 1 }, -1, [1]],
    [3, { a: { $gt: 0 } }, 1, [1, 2]],
    [4, { a: { $gt: 0 } }, -1, [2, 1]],
    [5, { a: { $gte: 1 } }, 1, [1, 2]],
    [6, { a: { $gte: 1 } }, -1, [2, 1]],
    [7, { a: { $lt: 2 } }, 1, [0, 1]],
    [8, { a: { $lt: 2 } }, -1, [1, 0]],
    [9, { a: { $lte: 1 } }, 1, [0, 1]],
    [10, { a: { $lte: 1 } }, -1, [1, 0]],
  ])('testNum %i: %j sorted { a: %i } hinted { a: 1 }', async (_n, filter, direction, expected) => {
    await checkResults(
      fx.db.collection(NAME),
      filter,
      { a: direction },
      { a: 1 },
      expected.map((a) => ({ a })),
    );
  });
});

describe('find: inequality bounds with a multi-field sort (cursor4.js)', () => {
  const NAME = 'ed_db_cursor4_cfmfs';
  const entries = [
    { a: 0, b: 0 },
    { a: 0, b: 1 },
    { a: 1, b: 1 },
    { a: 1, b: 1 },
    { a: 2, b: 0 },
  ];
  const reverseEntries = entries.slice().reverse();
  const UP = { a: 1, b: 1 };
  const DOWN = { a: -1, b: -1 };

  beforeAll(async () => {
    const collection = await fx.fresh(NAME);
    for (const entry of entries) await collection.insertOne({ ...entry });
    await collection.createIndex({ a: 1, b: 1 });
  });

  it.each<[Document, Document, Document[]]>([
    [{ a: 1, b: 1 }, UP, entries.slice(2, 4)],
    [{ a: 1, b: 1 }, DOWN, entries.slice(2, 4)],
    [{ a: { $gt: 0 } }, UP, entries.slice(2, 5)],
    [{ a: { $gt: 0 } }, DOWN, reverseEntries.slice(0, 3)],
    [{ a: { $lt: 2 } }, UP, entries.slice(0, 4)],
    [{ a: { $lt: 2 } }, DOWN, reverseEntries.slice(1, 5)],
    [{ a: { $gt: 0 }, b: { $lt: 1 } }, UP, entries.slice(4, 5)],
    [{ a: { $gt: 0 }, b: { $gt: 0 } }, UP, entries.slice(2, 4)],
    [{ a: { $gt: 0 }, b: { $lt: 1 } }, DOWN, reverseEntries.slice(0, 1)],
    [{ a: { $gt: 0 }, b: { $gt: 0 } }, DOWN, reverseEntries.slice(1, 3)],
    [{ a: { $lt: 2 }, b: { $lt: 1 } }, UP, entries.slice(0, 1)],
    [{ a: { $lt: 2 }, b: { $gt: 0 } }, UP, entries.slice(1, 4)],
    [{ a: { $lt: 2 }, b: { $lt: 1 } }, DOWN, reverseEntries.slice(4, 5)],
    [{ a: { $lt: 2 }, b: { $gt: 0 } }, DOWN, reverseEntries.slice(1, 4)],
  ])('%j sorted %j hinted { a: 1, b: 1 }', async (filter, sort, expected) => {
    await checkResults(fx.db.collection(NAME), filter, sort, { a: 1, b: 1 }, expected);
  });
});

describe('find: bounds of an index with a sub-document (cursor5.js)', () => {
  const NAME = 'ed_db_cursor5_bwsi';
  const z = [
    { a: { b: 1, c: 2, d: 3 }, e: 4 },
    { a: { b: 1, c: 2, d: 3 }, e: 5 },
    { a: { b: 1, c: 2, d: 4 }, e: 4 },
    { a: { b: 1, c: 2, d: 4 }, e: 5 },
    { a: { b: 2, c: 2, d: 3 }, e: 4 },
    { a: { b: 2, c: 2, d: 3 }, e: 5 },
  ];
  const idx = { 'a.d': 1, a: 1, e: -1 };
  const rIdx = { 'a.d': -1, a: -1, e: 1 };

  beforeAll(async () => {
    const collection = await fx.fresh(NAME);
    for (const doc of z) await collection.insertOne({ ...doc });
    await collection.createIndex(idx);
  });

  it.each<[string, Document, Document, Document[]]>([
    ['the index', { e: 4 }, idx, [z[0]!, z[4]!, z[2]!]],
    ['the index', { e: { $gt: 4 }, 'a.b': 1 }, idx, [z[1]!, z[3]!]],
    ['the reverse of the index', { e: 4 }, rIdx, [z[2]!, z[4]!, z[0]!]],
    ['the reverse of the index', { e: { $gt: 4 }, 'a.b': 1 }, rIdx, [z[3]!, z[1]!]],
  ])('sorts by %s: %j', async (_label, filter, sort, expected) => {
    await checkResults(fx.db.collection(NAME), filter, sort, idx, expected);
  });
});

describe('find: sorts in all directions on a compound index of mixed directions (cursor6.js)', () => {
  const NAME = 'ed_db_cursor6';
  const z = [
    { a: 1, b: 1 },
    { a: 1, b: 2 },
    { a: 2, b: 1 },
    { a: 2, b: 2 },
  ];

  beforeAll(async () => {
    const collection = await fx.fresh(NAME);
    for (const doc of z) await collection.insertOne({ ...doc });
    await collection.createIndex({ a: 1, b: -1 });
  });

  const cases: [Document, Document, Document[]][] = [
    [{}, { a: 1, b: 1 }, [z[0]!, z[1]!, z[2]!, z[3]!]],
    [{}, { a: 1, b: -1 }, [z[1]!, z[0]!, z[3]!, z[2]!]],
    [{}, { a: -1, b: 1 }, [z[2]!, z[3]!, z[0]!, z[1]!]],
    [{ a: { $gte: 2 } }, { a: 1, b: -1 }, [z[3]!, z[2]!]],
    [{ a: { $gte: 2 } }, { a: -1, b: 1 }, [z[2]!, z[3]!]],
    [{ a: { $gte: 2 } }, { a: 1, b: 1 }, [z[2]!, z[3]!]],
    [{}, { a: -1, b: -1 }, [z[3]!, z[2]!, z[1]!, z[0]!]],
  ];

  const hints: Document[] = [{ $natural: 1 }, { a: 1, b: -1 }];

  it.each<[Document, Document, Document, Document[]]>(
    hints.flatMap((hint) =>
      cases.map(([filter, sort, expected]): [Document, Document, Document, Document[]] => [
        hint,
        filter,
        sort,
        expected,
      ]),
    ),
  )('hinted %j: %j sorted %j', async (hint, filter, sort, expected) => {
    await checkResults(fx.db.collection(NAME), filter, sort, hint, expected, false);
  });
});

describe('find: bounds of several inequalities with a sort (cursor7.js)', () => {
  const NAME = 'ed_db_cursor_mi';
  const z = [
    { a: 1, b: 2 },
    { a: 3, b: 4 },
    { a: 5, b: 6 },
    { a: 7, b: 8 },
  ];
  const idx = { a: 1, b: 1 };
  const rIdx = { a: -1, b: -1 };
  const BOTH_A = { a: { $gt: 1, $lt: 7, $gte: 3, $lte: 5 }, b: { $gt: 2, $lt: 8, $gte: 4, $lte: 6 } };
  const BOTH_B = { a: { $gte: 1, $lte: 7, $gt: 2, $lt: 6 }, b: { $gte: 2, $lte: 8, $gt: 3, $lt: 7 } };

  beforeAll(async () => {
    const collection = await fx.fresh(NAME);
    for (const doc of z) await collection.insertOne({ ...doc });
    await collection.createIndex(idx);
  });

  it.each<[Document, Document, Document[]]>([
    [{ a: { $gt: 3 } }, idx, [z[2]!, z[3]!]],
    [{ a: { $gt: 3, $lt: 7 } }, idx, [z[2]!]],
    [{ a: { $gt: 3, $lt: 7, $lte: 5 } }, idx, [z[2]!]],
    [{ a: { $gt: 3 } }, rIdx, [z[3]!, z[2]!]],
    [{ a: { $gt: 3, $lt: 7 } }, rIdx, [z[2]!]],
    [{ a: { $gt: 3, $lt: 7, $lte: 5 } }, rIdx, [z[2]!]],
    [BOTH_A, idx, [z[1]!, z[2]!]],
    [BOTH_A, rIdx, [z[2]!, z[1]!]],
    [BOTH_B, idx, [z[1]!, z[2]!]],
    [BOTH_B, rIdx, [z[2]!, z[1]!]],
  ])('%j sorted %j hinted { a: 1, b: 1 }', async (filter, sort, expected) => {
    await checkResults(fx.db.collection(NAME), filter, sort, idx, expected);
  });
});

describe('getMore of a cursor whose collection, database or index went away (getmore_invalidated_cursors.js)', () => {
  const N_DOCS = 100;
  const BATCH_SIZE = N_DOCS - 1;
  /** QueryPlanKilled, NamespaceNotFound: the codes of a query killed by a drop. */
  const KILLED_BY_DROP = [175, 26];

  const testDb = () => fx.client.db(`${fx.mongo.dbName}_getmore_invalidated_cursors`);
  afterAll(async () => {
    await testDb().dropDatabase();
  });

  async function setupCollection(): Promise<Collection> {
    const coll = testDb().collection('test');
    await coll.drop().catch(() => undefined);
    await coll.insertMany(Array.from({ length: N_DOCS }, (_, i) => ({ _id: i, x: i })) as never[]);
    await coll.createIndex({ x: 1 });
    return coll;
  }

  /** A find of `BATCH_SIZE` per batch whose first document was read (the find sent). */
  async function started(coll: Collection, hint?: Document): Promise<FindCursor> {
    const cursor = coll.find({}, { session: startSession(), ...(hint ? { hint } : {}) }).batchSize(BATCH_SIZE);
    expect(await cursor.next()).not.toBeNull();
    return cursor;
  }

  it('fails the getMore with QueryPlanKilled or NamespaceNotFound, "collection dropped", after dropDatabase', async () => {
    const cursor = await started(await setupCollection());
    await testDb().command({ dropDatabase: 1 });
    const error = await rejection(cursor.toArray());
    expect(KILLED_BY_DROP).toContain(error.code);
    expect(error.message).toContain('collection dropped');
  });

  it('fails the getMore with QueryPlanKilled or NamespaceNotFound after the collection is dropped', async () => {
    const coll = await setupCollection();
    const cursor = await started(coll);
    await coll.drop();
    const error = await rejection(cursor.toArray());
    expect(KILLED_BY_DROP).toContain(error.code);
    expect(error.message).toMatch(/collection dropped|collection renamed/);
  });

  it('continues a cursor not using the index that is dropped', async () => {
    const coll = await setupCollection();
    const cursor = await started(coll);
    await testDb().command({ dropIndexes: 'test', index: { x: 1 } });
    expect(await itcount(cursor)).toBe(N_DOCS - 1);
  });

  it('fails the getMore with QueryPlanKilled or NamespaceNotFound, "index \'x_1\' dropped", after the hinted index is dropped', async () => {
    const coll = await setupCollection();
    const cursor = await started(coll, { x: 1 });
    await testDb().command({ dropIndexes: 'test', index: { x: 1 } });
    const error = await rejection(cursor.toArray());
    expect(KILLED_BY_DROP).toContain(error.code);
    expect(error.message).toContain("index 'x_1' dropped");
  });

  it('fails the getMore with QueryPlanKilled, "collection renamed", after the collection is renamed', async () => {
    const coll = await setupCollection();
    await testDb()
      .collection('test_rename')
      .drop()
      .catch(() => undefined);
    const cursor = coll.find({}, { session: startSession() }).batchSize(BATCH_SIZE);
    expect(await cursor.hasNext()).toBe(true);
    await fx.client.db('admin').command({
      renameCollection: `${testDb().databaseName}.test`,
      to: `${testDb().databaseName}.test_rename`,
    });
    const error = await rejection(cursor.toArray());
    expect(error.code).toBe(175);
    expect(error.message).toContain('collection renamed');
  });
});

describe('getMore after the next documents were deleted or changed (getmore_invalidated_documents.js)', () => {
  const NAME = 'getmore_invalidated_documents';

  /** A cursor of two documents per batch whose first batch was read. */
  async function afterFirstBatch(coll: Collection, filter: Document, sort?: Document): Promise<FindCursor> {
    const cursor = coll.find(filter, { session: startSession(), ...(sort ? { sort } : {}) }).batchSize(2);
    expect(await cursor.next()).not.toBeNull();
    expect(await cursor.next()).not.toBeNull();
    return cursor;
  }

  async function textCollection(): Promise<Collection> {
    const t = await fx.fresh(NAME);
    await t.createIndex({ a: 'text' });
    for (const _id of [1, 2, 3]) await t.insertOne({ _id, a: 'bar' } as never);
    return t;
  }

  async function mergeSortCollection(): Promise<Collection> {
    const t = await fx.fresh(NAME);
    await t.createIndex({ a: 1, b: 1 });
    for (const [a, b] of [
      [1, 1],
      [1, 2],
      [2, 3],
      [2, 4],
    ]) {
      await t.insertOne({ a, b });
    }
    return t;
  }

  async function sortCollection(): Promise<Collection> {
    const t = await fx.fresh(NAME);
    await t.createIndex({ a: 1 });
    await t.insertOne({ a: 1, b: 2 });
    await t.insertOne({ a: 3, b: 3 });
    await t.insertOne({ a: 2, b: 1 });
    return t;
  }

  it('case 1: a text search whose next match was deleted returns it or not', async () => {
    const t = await textCollection();
    const cursor = await afterFirstBatch(t, { $text: { $search: 'bar' } });
    await t.deleteOne({ _id: 3 } as never);
    expect([0, 1]).toContain(await itcount(cursor));
  });

  it('case 2: a text search whose next match no longer matches skips it or returns the old version', async () => {
    const t = await textCollection();
    const cursor = await afterFirstBatch(t, { $text: { $search: 'bar' } });
    await t.updateOne({ _id: 3 } as never, { $set: { a: 'nomatch' } });
    if (await cursor.hasNext()) expect((await cursor.next())!.a).toBe('bar');
  });

  it('case 3: a merge sort whose next document was deleted returns one or two', async () => {
    const t = await mergeSortCollection();
    const cursor = await afterFirstBatch(t, { a: { $in: [1, 2] } }, { b: 1 });
    await t.deleteOne({ a: 2, b: 3 });
    expect([1, 2]).toContain(await itcount(cursor));
  });

  it('case 4: a merge sort whose next document no longer matches returns { a: 2 } once or twice', async () => {
    const t = await mergeSortCollection();
    const cursor = await afterFirstBatch(t, { a: { $in: [1, 2] } }, { b: 1 });
    await t.updateOne({ a: 2, b: 3 }, { $set: { a: 6 } });
    expect(await cursor.hasNext()).toBe(true);
    expect((await cursor.next())!.a).toBe(2);
    if (await cursor.hasNext()) expect((await cursor.next())!.a).toBe(2);
    expect(await cursor.hasNext()).toBe(false);
  });

  it('case 10: a sort whose document was deleted returns { b: 3 } if anything', async () => {
    const t = await sortCollection();
    const cursor = await afterFirstBatch(t, { a: { $in: [1, 2, 3] } }, { b: 1 });
    await t.deleteOne({ a: 2 });
    if (await cursor.hasNext()) expect((await cursor.next())!.b).toBe(3);
  });

  it('case 11: a sort whose document was changed is iterated to its end', async () => {
    const t = await sortCollection();
    const cursor = await afterFirstBatch(t, { a: { $in: [1, 2, 3] } }, { b: 1 });
    await t.updateOne({ a: 2 }, { $set: { a: 4 } });
    expect(await itcount(cursor)).toBeGreaterThanOrEqual(0);
    if (await cursor.hasNext()) expect((await cursor.next())!.b).toBe(3);
  });
});
