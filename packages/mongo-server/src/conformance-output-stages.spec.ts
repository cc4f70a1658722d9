/**
 * Conformance: `$out` and `$merge` (their basic forms), from MongoDB 7's
 * aggregation reference; passes against MONGO_URL too.
 */
import { MongoServerError } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

async function sales() {
  const c = await fx.fresh('sales');
  await c.insertMany([
    { _id: 1, item: 'a', qty: 2 },
    { _id: 2, item: 'b', qty: 5 },
    { _id: 3, item: 'a', qty: 1 },
  ] as never[]);
  return c;
}

const TOTALS = [{ $group: { _id: '$item', qty: { $sum: '$qty' } } }, { $sort: { _id: 1 } }];

async function failure(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

describe('$out', () => {
  it("should replace the target collection's documents with the results", async () => {
    const c = await sales();
    const totals = await fx.fresh('totals');
    await totals.insertOne({ _id: 'stale' } as never);
    expect(await c.aggregate([...TOTALS, { $out: 'totals' }]).toArray()).toEqual([]);
    expect(await totals.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', qty: 3 },
      { _id: 'b', qty: 5 },
    ]);
  });

  it('should refuse $out before the last stage', async () => {
    const c = await sales();
    expect((await failure(c.aggregate([{ $out: 'totals' }, { $limit: 1 }]).toArray())).code).toBe(40601);
  });
});

describe('$merge', () => {
  it.each([
    [
      'merge',
      'insert',
      [
        { _id: 'a', qty: 3, note: 'kept' },
        { _id: 'b', qty: 5 },
      ],
    ],
    [
      'replace',
      'insert',
      [
        { _id: 'a', qty: 3 },
        { _id: 'b', qty: 5 },
      ],
    ],
    [
      'keepExisting',
      'insert',
      [
        { _id: 'a', qty: 0, note: 'kept' },
        { _id: 'b', qty: 5 },
      ],
    ],
    ['merge', 'discard', [{ _id: 'a', qty: 3, note: 'kept' }]],
  ])('should write with whenMatched %s and whenNotMatched %s', async (whenMatched, whenNotMatched, expected) => {
    const c = await sales();
    const totals = await fx.fresh('totals');
    await totals.insertOne({ _id: 'a', qty: 0, note: 'kept' } as never);
    await c.aggregate([...TOTALS, { $merge: { into: 'totals', whenMatched, whenNotMatched } }]).toArray();
    expect(await totals.find().sort({ _id: 1 }).toArray()).toEqual(expected);
  });

  it.each([
    ['whenMatched fail', { whenMatched: 'fail' }, 11000],
    ['whenNotMatched fail', { whenNotMatched: 'fail' }, 13113],
    ['on a field without a unique index', { on: 'qty' }, 51183],
  ])('should refuse %s', async (_label, options, code) => {
    const c = await sales();
    const totals = await fx.fresh('totals');
    await totals.insertOne({ _id: 'a', qty: 0 } as never);
    const error = await failure(c.aggregate([...TOTALS, { $merge: { into: 'totals', ...options } }]).toArray());
    expect(error.code).toBe(code);
  });
});

describe("$merge's 'on' fields", () => {
  /** A target collection `keyed` with a unique index on `key`, holding one document. */
  async function keyed(key: Record<string, 1>) {
    const target = await fx.fresh('keyed');
    await target.createIndex(key, { unique: true });
    await target.insertOne({ _id: 'old', k: 1, nested: { k: 1 }, note: 'kept' } as never);
    return target;
  }

  it.each([
    ['missing', {}, 51132, "$merge write error: 'on' field 'k' cannot be missing, null, undefined or an array"],
    ['null', { k: null }, 51132, "$merge write error: 'on' field 'k' cannot be missing, null, undefined or an array"],
    ['an array', { k: [1] }, 51185, "$merge write error: 'on' field 'k' is an array"],
  ])(
    'should refuse a result whose on field is %s (document_source_merge.cpp)',
    async (_label, fields, code, message) => {
      await keyed({ k: 1 });
      const source = await fx.fresh('merge_source');
      await source.insertOne({ _id: 1, ...fields } as never);
      const error = await failure(source.aggregate([{ $merge: { into: 'keyed', on: 'k' } }]).toArray());
      expect([error.code, error.message]).toEqual([code, message]);
    },
  );

  it('should match on a dotted field through its sub-document', async () => {
    const target = await fx.fresh('keyed');
    await target.createIndex({ 'nested.k': 1 }, { unique: true });
    await target.insertMany([
      { _id: 'one', nested: { k: 1 } },
      { _id: 'two', nested: { k: 2 } },
    ] as never[]);
    const source = await fx.fresh('merge_source');
    await source.insertOne({ _id: 3, nested: { k: 1 }, qty: 7 } as never);
    await source.aggregate([{ $project: { _id: 0 } }, { $merge: { into: 'keyed', on: 'nested.k' } }]).toArray();
    expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'one', nested: { k: 1 }, qty: 7 },
      { _id: 'two', nested: { k: 2 } },
    ]);
  });

  it('should give a result without an _id one when merging on _id', async () => {
    const source = await fx.fresh('merge_source');
    await source.insertMany([{ v: 1 }, { v: 2 }] as never[]);
    const target = await fx.fresh('merge_target');
    await source.aggregate([{ $project: { _id: 0, v: 1 } }, { $merge: { into: 'merge_target' } }]).toArray();
    const docs = await target.find().sort({ v: 1 }).toArray();
    expect(docs.map((doc) => doc.v)).toEqual([1, 2]);
    expect(docs.every((doc) => doc._id !== undefined && doc._id !== null)).toBe(true);
  });
});

describe("output stages as the drivers' CRUD spec tests them", () => {
  it('whenMatched fail answers the E11000 of the insert, with keyPattern and keyValue (aggregate-merge-errorResponse)', async () => {
    const target = await fx.fresh('merge_fail');
    await target.insertOne({ _id: 2 } as never);
    const pipeline = [{ $documents: [{ _id: 2, x: 1 }] }, { $merge: { into: 'merge_fail', whenMatched: 'fail' } }];
    const error = await failure(fx.db.aggregate(pipeline).toArray());
    expect(error.code).toBe(11000);
    expect(error.errorResponse).toMatchObject({ keyPattern: { _id: 1 }, keyValue: { _id: 2 } });
  });

  it.each(['$out', '$merge'])(
    "refuses %s under readConcern 'linearizable' (InvalidOptions), as other levels run (aggregate-out-readConcern)",
    async (stage) => {
      const c = await sales();
      await fx.fresh('read_concern_out');
      const last = stage === '$out' ? { $out: 'read_concern_out' } : { $merge: { into: 'read_concern_out' } };
      const error = await failure(c.aggregate([last], { readConcern: { level: 'linearizable' } }).toArray());
      expect([error.codeName, error.message]).toEqual([
        'InvalidOptions',
        `${stage} cannot be used with a 'linearizable' read concern level`,
      ]);
      for (const level of ['local', 'majority', 'available'] as const) {
        await c.aggregate([last], { readConcern: { level } }).toArray();
      }
      expect(await fx.db.collection('read_concern_out').countDocuments()).toBe(3);
    },
  );

  it('writes what a database-level source stage gives ($listLocalSessions, db-aggregate-write-readPreference)', async () => {
    const target = await fx.fresh('from_sessions');
    await fx.db
      .aggregate([
        { $listLocalSessions: {} },
        { $limit: 1 },
        { $addFields: { _id: 1 } },
        { $project: { _id: 1 } },
        { $out: 'from_sessions' },
      ])
      .toArray();
    expect(await target.find().toArray()).toEqual([{ _id: 1 }]);
  });
});
