/**
 * Conformance: mongod's `onPrimaryTransactionalWrite` fail point, which the
 * drivers' retryable-writes spec arms to drop the connection after a
 * retryable write's statement (or before it commits, with
 * `failBeforeCommitExceptionCode`). The driver retries the write; a
 * statement already applied is answered from the session's record and never
 * applied twice, one not applied runs on the retry. Against a real MongoDB
 * (MONGO_URL) it needs `enableTestCommands=1`; without test commands the
 * suite reports itself skipped, never passed.
 */
import { Long, MongoClient } from 'mongodb';

import { POLLING_MONITOR, useDriverFixture } from './conformance.fixture.js';
import { supportsFailPoints } from './supports-fail-points.js';

// A dropped connection marks the server Unknown in the driver: see POLLING_MONITOR.
const fx = useDriverFixture({ transactions: true, client: POLLING_MONITOR });

// Probed once up front so that `describe.skip` can be chosen (the embedded server always has it).
const failPoints = await supportsFailPoints();

const arm = (mode: unknown, data?: object) =>
  fx.client
    .db('admin')
    .command({ configureFailPoint: 'onPrimaryTransactionalWrite', mode, ...(data === undefined ? {} : { data }) });

/** A client whose commands are counted: each attempt of a write, the driver's retry included, is one. */
let client: MongoClient;
const attempts: string[] = [];
beforeAll(async () => {
  client = await new MongoClient(fx.mongo.uri, { ...POLLING_MONITOR, monitorCommands: true }).connect();
  client.on('commandStarted', (event) => attempts.push(event.commandName));
});
afterAll(async () => {
  await client.close();
});
const collection = () => client.db(fx.db.databaseName).collection<{ _id: number; x?: number }>('txn_write_fail_point');
/** How many times the write command `name` was sent since the test began. */
const sent = (name: string) => attempts.filter((command) => command === name).length;

(failPoints ? describe : describe.skip)('onPrimaryTransactionalWrite fail point', () => {
  beforeEach(async () => {
    await fx.fresh('txn_write_fail_point');
    await collection().insertOne({ _id: 1, x: 11 });
    attempts.length = 0;
  });
  afterEach(async () => {
    await arm('off');
  });

  it('drops the connection after the write, whose retry is answered from the record, applying it once', async () => {
    await arm({ times: 1 });
    const result = await collection().findOneAndUpdate({ _id: 1 }, { $inc: { x: 1 } }, { returnDocument: 'after' });
    expect(result).toEqual({ _id: 1, x: 12 });
    expect(sent('findAndModify')).toBe(2);
    expect(await collection().find().toArray()).toEqual([{ _id: 1, x: 12 }]);
  });

  it('with failBeforeCommitExceptionCode, applies nothing before dropping it; the retry applies the write', async () => {
    await arm({ times: 1 }, { failBeforeCommitExceptionCode: 1 });
    await collection().insertOne({ _id: 2, x: 22 });
    expect(sent('insert')).toBe(2);
    expect(await collection().find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, x: 11 },
      { _id: 2, x: 22 },
    ]);
  });

  it('fails the write when the retry fails too, having applied nothing', async () => {
    await arm({ times: 2 }, { failBeforeCommitExceptionCode: 1 });
    await expect(collection().updateOne({ _id: 1 }, { $inc: { x: 1 } })).rejects.toThrow();
    expect(sent('update')).toBe(2);
    expect(await collection().find().toArray()).toEqual([{ _id: 1, x: 11 }]);
  });

  it('answers a retried insertMany whose statements all ran from the record', async () => {
    await arm({ times: 1 });
    const result = await collection().insertMany([{ _id: 2 }, { _id: 3 }]);
    expect(result.insertedCount).toBe(2);
    expect(sent('insert')).toBe(2);
    expect(await collection().countDocuments()).toBe(3);
  });

  // mongod's own test of the fail point (retryable writes, "Test exception throw"): the statements before the
  // failing one are applied, and the same write sent again runs the rest only.
  it('fails the statement it fires on as a write error without closeConnection; the write sent again runs the rest', async () => {
    await collection().insertOne({ _id: 2, x: 22 });
    await arm({ skip: 1 }, { closeConnection: false, failBeforeCommitExceptionCode: 1 });
    const session = fx.client.startSession();
    try {
      const update = {
        update: collection().collectionName,
        updates: [
          { q: { _id: 1 }, u: { $inc: { x: 1 } } },
          { q: { _id: 2 }, u: { $inc: { x: 1 } } },
        ],
        ordered: true,
        txnNumber: Long.fromNumber(7),
      };
      const first = await fx.db.command(update, { session });
      expect(first.nModified).toBe(1);
      expect(first.writeErrors).toEqual([expect.objectContaining({ index: 1, code: 1 })]);
      await arm('off');
      const second = await fx.db.command(update, { session });
      expect([second.n, second.nModified, second.writeErrors]).toEqual([2, 2, undefined]);
    } finally {
      await session.endSession();
    }
    expect(await collection().find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, x: 12 },
      { _id: 2, x: 23 },
    ]);
  });
});
