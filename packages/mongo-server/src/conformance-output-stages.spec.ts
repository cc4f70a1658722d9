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
