import mongoose, { type Connection } from 'mongoose';
import { startTestMongo, type TestMongo } from 'nestjs-objectid-mongo-server';

import { hasErrorLabel, runBoundedTransaction } from './bounded-transaction.js';

/** Against a real driver and server (`MONGO_URL`, or the embedded one): transactions need a replica set. */
describe('runBoundedTransaction', () => {
  let mongo: TestMongo;
  let connection: Connection;
  const counters = () => connection.collection<{ _id: string; seq: number }>('counters');
  const take = (session: mongoose.ClientSession) =>
    counters().findOneAndUpdate({ _id: 'n' }, { $inc: { seq: 1 } }, { session, returnDocument: 'after', upsert: true });

  beforeAll(async () => {
    mongo = await startTestMongo({ transactions: true });
    connection = await mongoose.createConnection(mongo.uri, { dbName: mongo.dbName }).asPromise();
  });
  afterAll(async () => {
    await connection?.close();
    await mongo?.stop();
  });
  beforeEach(() => counters().deleteMany({}));

  /** Takes the counter in a transaction of its own and keeps it until `release()`. */
  async function holdCounter() {
    const session = await connection.startSession();
    session.startTransaction();
    await take(session);
    return {
      release: async () => {
        await session.commitTransaction();
        await session.endSession();
      },
    };
  }

  it('should commit what the function wrote and return its result', async () => {
    const result = await runBoundedTransaction(connection, async (session) => (await take(session))?.seq, 1000);
    expect(result).toBe(1);
    expect((await counters().findOne({ _id: 'n' }))?.seq).toBe(1);
  });

  it('should retry a write conflict until the other transaction commits', async () => {
    const holder = await holdCounter();
    setTimeout(() => void holder.release(), 300);
    const result = await runBoundedTransaction(connection, async (session) => (await take(session))?.seq, 10_000);
    expect(result).toBe(2);
  });

  it('should give up after its budget with the last transient error, having written nothing', async () => {
    const holder = await holdCounter();
    try {
      const started = performance.now();
      const error: unknown = await runBoundedTransaction(connection, take, 300).catch((e: unknown) => e);
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
      expect(hasErrorLabel(error, 'TransientTransactionError')).toBe(true);
      expect((error as { code?: number }).code).toBe(112);
    } finally {
      await holder.release();
    }
    expect((await counters().findOne({ _id: 'n' }))?.seq).toBe(1);
  });

  it('should abort and rethrow at once an error that is not transient', async () => {
    const boom = new Error('not a database error');
    await expect(
      runBoundedTransaction(
        connection,
        async (session) => {
          await take(session);
          throw boom;
        },
        10_000,
      ),
    ).rejects.toBe(boom);
    expect(await counters().countDocuments()).toBe(0);
  });
});

describe('hasErrorLabel', () => {
  it.each<[string, unknown, boolean]>([
    ['a driver error with the label', new mongoose.mongo.MongoError('x'), true],
    ['a plain Error', new Error('x'), false],
    ['null', null, false],
    ['an object whose hasErrorLabel is not a function', { hasErrorLabel: true }, false],
  ])('should answer for %s', (_label, error, expected) => {
    if (error instanceof mongoose.mongo.MongoError) error.addErrorLabel('TransientTransactionError');
    expect(hasErrorLabel(error, 'TransientTransactionError')).toBe(expected);
  });
});
