/**
 * Conformance: `explain` shows which index a query walks (IXSCAN under
 * FETCH, mongod's IDHACK for `{ _id }`, or COLLSCAN) and how much it read,
 * through the driver's and mongoose's `.explain()` (works against a real
 * MongoDB via MONGO_URL).
 */
import { type Collection, type Document, MaxKey, MinKey, ObjectId } from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture } from './conformance.fixture.js';
import { accessPath, executionStats, stagesOf, winningPlan } from './explain-plan.fixture.js';

const fx = useDriverFixture();
const N = 500;
let items: Collection;
let ids: ObjectId[];

beforeAll(async () => {
  items = await fx.fresh('explain_items');
  ids = Array.from({ length: N }, (_, i) => ObjectId.createFromTime(1_700_000_000 + i));
  await items.insertMany(
    ids.map((_id, i) => ({ _id, slug: `s-${i}`, n: i, cat: `c${i % 5}`, tags: [`t${i % 7}`, `u${i % 3}`], free: i })),
  );
  await items.createIndex({ slug: 1 }, { unique: true });
  await items.createIndex({ n: 1 });
  await items.createIndex({ cat: 1, n: -1 });
  await items.createIndex({ tags: 1 });
});

describe('explain', () => {
  it('find by _id: the _id index, one document', async () => {
    const explain = await items.find({ _id: ids[42] }).explain('executionStats');
    expect(accessPath(winningPlan(explain)).indexName).toBe('_id_');
    expect(executionStats(explain)).toMatchObject({ nReturned: 1, totalDocsExamined: 1 });
  });

  it('find by a unique field: IXSCAN of its index under FETCH', async () => {
    const explain = await items.find({ slug: 's-7' }).explain('executionStats');
    const plan = winningPlan(explain);
    expect(plan.stage).toBe('FETCH');
    expect(plan.inputStage).toMatchObject({
      stage: 'IXSCAN',
      indexName: 'slug_1',
      keyPattern: { slug: 1 },
      isUnique: true,
      direction: 'forward',
      indexBounds: { slug: ['["s-7", "s-7"]'] },
    });
    expect(executionStats(explain)).toMatchObject({ nReturned: 1, totalKeysExamined: 1, totalDocsExamined: 1 });
  });

  it('a keyset page reads about a page, not the collection', async () => {
    const explain = await items
      .find({ _id: { $gt: ids[100] } })
      .sort({ _id: 1 })
      .limit(20)
      .explain('executionStats');
    const plan = winningPlan(explain);
    expect(accessPath(plan)).toEqual({ stage: 'IXSCAN', indexName: '_id_', direction: 'forward' });
    expect(stagesOf(plan).map((stage) => stage.stage)).not.toContain('SORT');
    const stats = executionStats(explain);
    expect(stats.nReturned).toBe(20);
    expect(stats.totalDocsExamined).toBeLessThanOrEqual(21);
    expect(stats.totalKeysExamined).toBeLessThanOrEqual(21);
  });

  it('a range: the bounds and only the documents inside', async () => {
    const explain = await items.find({ n: { $gte: 10, $lt: 20 } }).explain('executionStats');
    const plan = winningPlan(explain);
    expect(plan.inputStage).toMatchObject({ stage: 'IXSCAN', indexName: 'n_1', indexBounds: { n: ['[10, 20)'] } });
    expect(executionStats(explain)).toMatchObject({ nReturned: 10, totalDocsExamined: 10 });
  });

  it('the prefix of a compound index serves the sort, in either direction', async () => {
    const forward = await items.find({ cat: 'c1' }).sort({ n: -1 }).limit(5).explain('executionStats');
    expect(accessPath(winningPlan(forward))).toEqual({
      stage: 'IXSCAN',
      indexName: 'cat_1_n_-1',
      direction: 'forward',
    });
    expect(stagesOf(winningPlan(forward)).map((stage) => stage.stage)).not.toContain('SORT');
    expect(executionStats(forward)).toMatchObject({ nReturned: 5, totalDocsExamined: 5 });
    const backward = await items.find({ cat: 'c1' }).sort({ n: 1 }).limit(5).explain('executionStats');
    expect(accessPath(winningPlan(backward))).toEqual({
      stage: 'IXSCAN',
      indexName: 'cat_1_n_-1',
      direction: 'backward',
    });
    expect(await items.find({ cat: 'c1' }).sort({ n: 1 }).limit(2).toArray()).toMatchObject([{ n: 1 }, { n: 6 }]);
  });

  it('$in and a multikey field use their index', async () => {
    const byIn = await items.find({ slug: { $in: ['s-1', 's-2', 'nope'] } }).explain('executionStats');
    expect(accessPath(winningPlan(byIn)).indexName).toBe('slug_1');
    expect(executionStats(byIn)).toMatchObject({ nReturned: 2, totalDocsExamined: 2 });
    const multikey = await items.find({ tags: 't3' }).explain('executionStats');
    const ixscan = stagesOf(winningPlan(multikey)).find((stage) => stage.stage === 'IXSCAN');
    expect(ixscan).toMatchObject({ indexName: 'tags_1', isMultiKey: true });
    expect(executionStats(multikey).nReturned).toBe(Math.ceil((N - 3) / 7));
  });

  it('no fitting index: COLLSCAN over every document', async () => {
    const explain = await items.find({ free: 3 }).explain('executionStats');
    expect(accessPath(winningPlan(explain))).toEqual({ stage: 'COLLSCAN' });
    expect(executionStats(explain)).toMatchObject({ nReturned: 1, totalDocsExamined: N, totalKeysExamined: 0 });
  });

  // mongod's bounds for numbers start at -inf.0 (NaN sorts lower, and no range matches it); a range with NaN holds NaN or nothing.
  it.each<[Document, string[]]>([
    [{ n: { $lt: 5 } }, ['[-inf.0, 5)']],
    [{ n: { $gt: 495 } }, ['(495, inf.0]']],
    [{ n: { $lte: Number.NaN } }, ['[nan.0, nan.0]']],
    [{ n: { $gt: Number.NaN } }, []],
    // Every other type lies below MaxKey and above MinKey.
    [{ n: { $lt: new MaxKey() } }, ['[MinKey, MaxKey)']],
    [{ n: { $gt: new MinKey() } }, ['(MinKey, MaxKey]']],
    // A missing field's key is null: `$exists: false` walks it, and the fetch drops the nulls.
    [{ n: { $exists: false } }, ['[null, null]']],
  ])('bounds of %j', async (filter, bounds) => {
    const explain = await items.find(filter).explain('queryPlanner');
    expect(winningPlan(explain).inputStage).toMatchObject({ stage: 'IXSCAN', indexBounds: { n: bounds } });
  });

  it('queryPlanner verbosity has no executionStats', async () => {
    const explain = await items.find({ slug: 's-1' }).explain('queryPlanner');
    expect(explain.queryPlanner.namespace).toBe(`${fx.mongo.dbName}.explain_items`);
    expect(explain.executionStats).toBeUndefined();
  });

  it('count, update, delete and findAndModify explain their query and write nothing', async () => {
    const verbosity = 'executionStats';
    const count = await fx.db.command({ explain: { count: 'explain_items', query: { slug: 's-3' } }, verbosity });
    expect(accessPath(winningPlan(count)).indexName).toBe('slug_1');
    expect(winningPlan(count).stage).toBe('COUNT');
    const update = await fx.db.command({
      explain: { update: 'explain_items', updates: [{ q: { n: 4 }, u: { $set: { free: -1 } } }] },
      verbosity,
    });
    expect(winningPlan(update).stage).toBe('UPDATE');
    expect(accessPath(winningPlan(update)).indexName).toBe('n_1');
    const remove = await fx.db.command({
      explain: { delete: 'explain_items', deletes: [{ q: { slug: 's-4' }, limit: 1 }] },
      verbosity,
    });
    expect(winningPlan(remove).stage).toBe('DELETE');
    expect(accessPath(winningPlan(remove)).indexName).toBe('slug_1');
    const findAndModify = await fx.db.command({
      explain: { findAndModify: 'explain_items', query: { _id: ids[5] }, update: { $set: { free: -1 } } },
      verbosity,
    });
    expect(winningPlan(findAndModify).stage).toBe('UPDATE');
    expect(accessPath(winningPlan(findAndModify)).indexName).toBe('_id_');
    expect(await items.countDocuments({ free: -1 })).toBe(0);
    expect(await items.countDocuments()).toBe(N);
  });

  it('aggregate with a leading $match uses the index', async () => {
    const explain: Document = await items.aggregate([{ $match: { slug: 's-9' } }, { $project: { n: 1 } }]).explain();
    expect(accessPath(winningPlan(explain)).indexName).toBe('slug_1');
  });

  it("mongoose's Query#explain", async () => {
    const connection = await mongoose.createConnection(fx.mongo.uri, { dbName: fx.mongo.dbName }).asPromise();
    try {
      const model = connection.model('ExplainItem', new mongoose.Schema({ slug: String }), 'explain_items');
      const explain = (await model.findOne({ slug: 's-11' }).explain('executionStats')) as unknown as Document;
      const reply = Array.isArray(explain) ? (explain[0] as Document) : explain;
      expect(accessPath(winningPlan(reply)).indexName).toBe('slug_1');
    } finally {
      await connection.close();
    }
  });

  // Command names are looked up as names, not as properties of an object.
  it.each(['__proto__', 'toString', 'constructor'])(
    "of a command named '%s' fails as an unknown command",
    async (name) => {
      const error = await fx.db.command({ explain: { [name]: 'explain_items' } }).then(
        () => undefined,
        (e: { codeName?: string }) => e,
      );
      expect(error?.codeName).toBe('CommandNotFound');
    },
  );

  // The explained command is parsed as the command itself: a wrongly typed argument fails with its error.
  it.each<[string, Document]>([
    ['aggregate, pipeline a number', { aggregate: 'explain_items', pipeline: 1, cursor: {} }],
    ['aggregate, an unknown stage', { aggregate: 'explain_items', pipeline: [{ $bogus: 1 }], cursor: {} }],
    ['find, filter a number', { find: 'explain_items', filter: 1 }],
    ['count, query a number', { count: 'explain_items', query: 1 }],
    ['distinct, no key', { distinct: 'explain_items' }],
    ['distinct, key a number', { distinct: 'explain_items', key: 1 }],
  ])('of %s fails as the command does', async (_label, command) => {
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        (reply) => ['succeeded', reply],
        (error: { code?: number; codeName?: string }) => [error.code, error.codeName],
      );
    const direct = await failure(fx.db.command(command));
    expect(direct[0]).toEqual(expect.any(Number));
    expect(direct[1]).not.toBe('InternalError');
    expect(await failure(fx.db.command({ explain: command, verbosity: 'queryPlanner' }))).toEqual(direct);
  });
});

/** A key's fields with MinKey and MaxKey by name (`toEqual` takes one for the other: neither has own fields). */
const typed = (key: Document) =>
  Object.entries(key).map(([field, value]) => [field, (value as { _bsontype?: string } | null)?._bsontype ?? value]);

// The count command's plans, as mongod's getExecutorCount builds them (the classic engine, also on 7.0).
describe('explain of count', () => {
  const explainCount = (count: Document) =>
    fx.db.command({ explain: { count: 'explain_items', ...count }, verbosity: 'executionStats' });

  it('equality on a prefix of an index: COUNT over COUNT_SCAN of one interval, no document read', async () => {
    const explain = await explainCount({ query: { cat: 'c3' } });
    const plan = winningPlan(explain);
    expect(plan.stage).toBe('COUNT');
    expect(plan.inputStage).toMatchObject({
      stage: 'COUNT_SCAN',
      keyPattern: { cat: 1, n: -1 },
      indexName: 'cat_1_n_-1',
      isMultiKey: false,
      isUnique: false,
      indexBounds: { startKeyInclusive: true, endKeyInclusive: true },
    });
    // Named after the key pattern; `n` descends, so its interval runs from MaxKey to MinKey
    // (`toMatchObject` would take a MinKey for a MaxKey: neither has own fields).
    const { startKey, endKey } = (plan.inputStage as Document).indexBounds as Document;
    expect(typed(startKey)).toEqual([
      ['cat', 'c3'],
      ['n', 'MaxKey'],
    ]);
    expect(typed(endKey)).toEqual([
      ['cat', 'c3'],
      ['n', 'MinKey'],
    ]);
    expect(executionStats(explain)).toMatchObject({ nReturned: 0, totalDocsExamined: 0, totalKeysExamined: 101 });
  });

  // keysExamined: the scan stops once COUNT has counted `skip + limit`; otherwise it probes one key past the end.
  it.each<[string, Document, number, number, number]>([
    ['no skip or limit', {}, 100, 0, 101],
    ['skip and limit inside the matches', { skip: 30, limit: 50 }, 50, 30, 80],
    ['a limit past the matches', { skip: 90, limit: 50 }, 10, 90, 101],
    ['a skip past the matches', { skip: 150 }, 0, 100, 101],
    ['a limit of exactly the matches', { limit: 100 }, 100, 0, 100],
    ['a negative limit', { limit: -20 }, 20, 0, 20],
  ])('%s: nCounted, nSkipped and keys examined', async (_label, page, nCounted, nSkipped, keysExamined) => {
    const query = { cat: 'c3' };
    expect((await fx.db.command({ count: 'explain_items', query, ...page })).n).toBe(nCounted);
    const stages = executionStats(await explainCount({ query, ...page })).executionStages as Document;
    expect(stages).toMatchObject({ stage: 'COUNT', nReturned: 0, nCounted, nSkipped });
    expect(stages.inputStage).toMatchObject({ stage: 'COUNT_SCAN', keysExamined });
  });

  it('a condition the index cannot answer: COUNT over FETCH, every candidate read', async () => {
    const query = { cat: 'c3', free: { $gte: 250 } };
    const explain = await explainCount({ query });
    expect(stagesOf(winningPlan(explain)).map((stage) => stage.stage)).toEqual(['COUNT', 'FETCH', 'IXSCAN']);
    expect(executionStats(explain)).toMatchObject({ nReturned: 0, totalDocsExamined: 100 });
    expect((executionStats(explain).executionStages as Document).nCounted).toBe(50);
  });

  // mongod's isSingleInterval: points, then one range, then unbounded fields set to skip or take the range's end values.
  it.each<[string, Document, string, [unknown[], boolean, unknown[], boolean], number]>([
    ['a number range', { n: { $gte: 10, $lt: 20 } }, 'n_1', [[['n', 10]], true, [['n', 20]], false], 10],
    [
      'an equality, then a range on a descending field',
      { cat: 'c3', n: { $gt: 450 } },
      'cat_1_n_-1',
      [
        [
          ['cat', 'c3'],
          ['n', Infinity],
        ],
        true,
        [
          ['cat', 'c3'],
          ['n', 450],
        ],
        false,
      ],
      10,
    ],
    [
      'strings upwards: up to the next type',
      { slug: { $gte: 's-9' } },
      'slug_1',
      [[['slug', 's-9']], true, [['slug', {}]], false],
      11,
    ],
    [
      'an exclusive range, then an unbounded descending field',
      { cat: { $gt: 'c3' } },
      'cat_1_n_-1',
      [
        [
          ['cat', 'c3'],
          ['n', 'MinKey'],
        ],
        false,
        [
          ['cat', {}],
          ['n', 'MaxKey'],
        ],
        false,
      ],
      100,
    ],
  ])('%s: COUNT_SCAN of one interval', async (_label, query, indexName, [start, startIn, end, endIn], nCounted) => {
    const explain = await explainCount({ query });
    const scan = winningPlan(explain).inputStage as Document;
    expect(scan).toMatchObject({ stage: 'COUNT_SCAN', indexName });
    const bounds = scan.indexBounds as Document;
    expect([typed(bounds.startKey), bounds.startKeyInclusive, typed(bounds.endKey), bounds.endKeyInclusive]).toEqual([
      start,
      startIn,
      end,
      endIn,
    ]);
    expect(executionStats(explain)).toMatchObject({ totalDocsExamined: 0, totalKeysExamined: nCounted + 1 });
    expect((executionStats(explain).executionStages as Document).nCounted).toBe(nCounted);
  });

  it('an element of a multikey field: COUNT_SCAN, each document counted once', async () => {
    const query = { tags: 't3' };
    const matching = await items.countDocuments(query, { hint: { $natural: 1 } });
    const explain = await explainCount({ query });
    expect(winningPlan(explain).inputStage).toMatchObject({
      stage: 'COUNT_SCAN',
      indexName: 'tags_1',
      isMultiKey: true,
    });
    expect((executionStats(explain).executionStages as Document).nCounted).toBe(matching);
  });

  it('no query: RECORD_STORE_FAST_COUNT, which reports the skip asked for', async () => {
    for (const [page, nCounted, nSkipped] of [
      [{}, N, 0],
      [{ skip: 10, limit: 5 }, 5, 10],
      [{ skip: N + 100 }, 0, N + 100],
    ] as const) {
      const explain = await explainCount(page);
      expect(winningPlan(explain)).toEqual({ stage: 'RECORD_STORE_FAST_COUNT' });
      expect(executionStats(explain).executionStages).toMatchObject({ nReturned: 0, nCounted, nSkipped });
    }
  });

  it('a missing collection: COUNT over EOF', async () => {
    const explain = await fx.db.command({
      explain: { count: 'explain_missing', query: { cat: 'c3' }, skip: 2 },
      verbosity: 'executionStats',
    });
    expect(stagesOf(winningPlan(explain)).map((stage) => stage.stage)).toEqual(['COUNT', 'EOF']);
    expect(executionStats(explain).executionStages).toMatchObject({ nCounted: 0, nSkipped: 0 });
  });
});
