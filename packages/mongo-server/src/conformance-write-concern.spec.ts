/**
 * Conformance: a write concern asking more members than the replica set has
 * (the drivers' transaction spec, "write concern error on commit"). mongod
 * applies the write and answers a `writeConcernError`, UnsatisfiableWriteConcern
 * (100) "Not enough data-bearing nodes"; the driver throws it. A `w` the set
 * can meet (1, 'majority') is acknowledged. Runs against a real replica set
 * via MONGO_URL too, where no set has ten data-bearing members.
 */
import { type Document, MongoWriteConcernError } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ transactions: true });
const collection = () => fx.db.collection<{ _id: number }>('write_concern');

beforeEach(async () => {
  await fx.fresh('write_concern');
});

async function writeConcernError(pending: Promise<unknown>): Promise<Document> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MongoWriteConcernError);
  return (error as MongoWriteConcernError).result.writeConcernError as Document;
}

describe('a write concern the replica set cannot meet', () => {
  it.each<[string, () => Promise<unknown>]>([
    ['insertOne', () => collection().insertOne({ _id: 1 }, { writeConcern: { w: 10 } })],
    [
      'updateOne (upsert)',
      () => collection().updateOne({ _id: 1 }, { $set: { a: 1 } }, { upsert: true, writeConcern: { w: 10 } }),
    ],
    [
      'findOneAndUpdate (upsert)',
      () => collection().findOneAndUpdate({ _id: 1 }, { $set: { a: 1 } }, { upsert: true, writeConcern: { w: 10 } }),
    ],
  ])('applies %s, then answers UnsatisfiableWriteConcern (100)', async (_label, write) => {
    const error = await writeConcernError(write());
    expect([error.code, error.codeName, error.errmsg]).toEqual([
      100,
      'UnsatisfiableWriteConcern',
      'Not enough data-bearing nodes',
    ]);
    expect(await collection().countDocuments({ _id: 1 })).toBe(1);
  });

  it('commits the transaction, then answers it for commitTransaction', async () => {
    const session = fx.client.startSession();
    try {
      session.startTransaction({ writeConcern: { w: 10 } });
      await collection().insertOne({ _id: 2 }, { session });
      const error = await writeConcernError(session.commitTransaction());
      expect(error.code).toBe(100);
    } finally {
      await session.endSession();
    }
    expect(await collection().countDocuments({ _id: 2 })).toBe(1);
  });

  it.each<[string, Document]>([
    ['w: 1', { w: 1 }],
    ["w: 'majority'", { w: 'majority' }],
  ])('acknowledges %s', async (_label, writeConcern) => {
    await collection().insertOne({ _id: 3 }, { writeConcern });
    expect(await collection().countDocuments({ _id: 3 })).toBe(1);
  });
});
