/**
 * A transaction left open (its client died) is aborted after
 * `transactionLifetimeLimitSeconds`, as MongoDB does, so its locks do not
 * block other writers for ever (they wait for it, #15). The embedded
 * server's clock is injected: the test moves time instead of waiting for it.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { MongoClient, MongoServerError } from 'mongodb';

import { EmbeddedMongoServer } from './index.js';

describe('transaction lifetime', () => {
  let now = Date.UTC(2026, 11, 2);
  let server: EmbeddedMongoServer;
  let client: MongoClient;

  beforeAll(async () => {
    server = await EmbeddedMongoServer.start({ transactionLifetimeLimitSeconds: 60, clock: () => now });
    client = await new MongoClient(server.uri, { retryWrites: false }).connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('should abort a transaction left open past the limit and free what it locked', async () => {
    const things = client.db('test').collection<{ _id: number; v: number }>('things');
    await things.insertOne({ _id: 1, v: 0 });
    const abandoned = client.startSession();
    abandoned.startTransaction();
    await things.updateOne({ _id: 1 }, { $set: { v: 1 } }, { session: abandoned });

    now += 59_000;
    // A write outside transactions waits for the transaction to end, as in MongoDB.
    const blocked = things.updateOne({ _id: 1 }, { $set: { v: 2 } });
    const settledEarly = await Promise.race([blocked.then(() => true), sleep(300).then(() => false)]);
    expect(settledEarly).toBe(false);

    // Nothing touches the document: the waiting write itself notices the expiry.
    now += 2_000;
    expect((await blocked).modifiedCount).toBe(1);
    expect(await things.findOne({ _id: 1 })).toEqual({ _id: 1, v: 2 });

    const late = await abandoned.commitTransaction().catch((e: unknown) => e);
    expect((late as MongoServerError).codeName).toBe('NoSuchTransaction');
    await abandoned.endSession();
  });
});
