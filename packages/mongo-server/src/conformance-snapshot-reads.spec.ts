/**
 * Conformance: `readConcern: { level: 'snapshot' }` outside a transaction, as
 * a snapshot session (`startSession({ snapshot: true })`) sends it (the
 * drivers' sessions spec, snapshot-sessions-unsupported-ops). mongod refuses
 * it for writes and for every command but find, aggregate and distinct
 * (InvalidOptions, 72). Those three it reads at one point in time, which the
 * embedded server cannot (it keeps no history): it refuses them with
 * CommandNotSupported naming the feature rather than answer with what later
 * writes changed; against a real MongoDB (MONGO_URL) those cases are skipped.
 */
import type { ClientSession } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ transactions: true });
const embedded = !process.env.MONGO_URL;
const collection = () => fx.db.collection<{ _id: number; x?: number }>('snapshot_reads');

let session: ClientSession;
beforeEach(async () => {
  await fx.fresh('snapshot_reads');
  await collection().insertOne({ _id: 1, x: 1 });
  session = fx.client.startSession({ snapshot: true });
});
afterEach(async () => {
  await session.endSession();
});

describe('a snapshot session', () => {
  it.each<[string, string, () => Promise<unknown>]>([
    ['insert', 'insertOne', () => collection().insertOne({ _id: 2 }, { session })],
    ['update', 'updateOne', () => collection().updateOne({ _id: 1 }, { $inc: { x: 1 } }, { session })],
    ['delete', 'deleteOne', () => collection().deleteOne({}, { session })],
    [
      'findAndModify',
      'findOneAndUpdate',
      () => collection().findOneAndUpdate({ _id: 1 }, { $inc: { x: 1 } }, { session }),
    ],
    ['listCollections', 'listCollections', () => fx.db.listCollections({}, { session }).toArray()],
    ['listIndexes', 'listIndexes', () => collection().listIndexes({ session }).toArray()],
  ])('is refused by %s (%s) with InvalidOptions, and writes nothing', async (command, _method, run) => {
    const error = await rejection(run());
    expect([error.code, error.codeName]).toEqual([72, 'InvalidOptions']);
    expect(error.message).toContain(`Command ${command} does not support`);
    expect(await collection().find().toArray()).toEqual([{ _id: 1, x: 1 }]);
  });

  (embedded ? it.each : it.skip.each)<[string, () => Promise<unknown>]>([
    ['find', () => collection().find({}, { session }).toArray()],
    ['aggregate', () => collection().aggregate([], { session }).toArray()],
    ['distinct', () => collection().distinct('x', {}, { session })],
  ])('reads through %s at a point in time, which the embedded server refuses by name', async (_label, run) => {
    const error = await rejection(run());
    expect(error.codeName).toBe('CommandNotSupported');
    expect(error.message).toContain("readConcern level 'snapshot' outside a transaction");
  });

  it('is not needed inside a transaction, whose reads and writes run', async () => {
    const plain = fx.client.startSession();
    try {
      await plain.withTransaction(
        async () => {
          await collection().insertOne({ _id: 3 }, { session: plain });
          expect(await collection().countDocuments({}, { session: plain })).toBe(2);
        },
        { readConcern: { level: 'snapshot' } },
      );
    } finally {
      await plain.endSession();
    }
    expect(await collection().countDocuments()).toBe(2);
  });
});
