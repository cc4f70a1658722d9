/**
 * Conformance: atomic upserts under concurrency and multi-document
 * transactions through `session.withTransaction`, via the driver and
 * mongoose (a real replica set via MONGO_URL passes the same suite).
 */
import { type ClientSession, MongoServerError } from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ transactions: true });

describe('atomic findOneAndUpdate upserts', () => {
  it('500 concurrent $inc upserts through mongoose return exactly 1..500', async () => {
    const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
    try {
      const Counter = conn.model('Counter', new mongoose.Schema({ _id: String, seq: Number }, { versionKey: false }));
      const results = await Promise.all(
        Array.from({ length: 500 }, () =>
          Counter.findOneAndUpdate(
            { _id: 'c' },
            { $inc: { seq: 1 } },
            { upsert: true, returnDocument: 'after' },
          ).lean(),
        ),
      );
      const seqs = results.map((doc) => Number(doc?.seq)).sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
      expect(await Counter.countDocuments()).toBe(1);
    } finally {
      await conn.close();
    }
  });
});

describe('transactions', () => {
  it('commits writes to several collections atomically; outsiders see nothing before commit', async () => {
    const a = await fx.fresh('tx_a');
    const b = await fx.fresh('tx_b');
    const session = fx.client.startSession();
    try {
      await session.withTransaction(async () => {
        await a.insertOne({ _id: 1 as never, v: 'a' }, { session });
        await b.updateOne({ _id: 1 as never }, { $set: { v: 'b' } }, { session, upsert: true });
        expect(await a.findOne({ _id: 1 as never }, { session })).toEqual({ _id: 1, v: 'a' });
        expect(await a.countDocuments({}, { session })).toBe(1);
        expect(await a.findOne({ _id: 1 as never })).toBeNull();
      });
    } finally {
      await session.endSession();
    }
    expect(await a.findOne({ _id: 1 as never })).toEqual({ _id: 1, v: 'a' });
    expect(await b.findOne({ _id: 1 as never })).toEqual({ _id: 1, v: 'b' });
  });

  it('discards writes on abortTransaction', async () => {
    const c = await fx.fresh('tx_abort');
    await c.insertOne({ _id: 1 as never, n: 1 });
    const session = fx.client.startSession();
    try {
      session.startTransaction();
      await c.insertOne({ _id: 2 as never }, { session });
      await c.deleteOne({ _id: 1 as never }, { session });
      await c.updateOne({ _id: 3 as never }, { $set: { x: 1 } }, { session, upsert: true });
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await c.find().toArray()).toEqual([{ _id: 1, n: 1 }]);
  });

  it('aborts when the callback throws', async () => {
    const c = await fx.fresh('tx_throw');
    const session = fx.client.startSession();
    try {
      await expect(
        session.withTransaction(async () => {
          await c.insertOne({ _id: 1 as never }, { session });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
    } finally {
      await session.endSession();
    }
    expect(await c.countDocuments()).toBe(0);
  });

  it('retries on WriteConflict (112, TransientTransactionError) and then commits', async () => {
    const c = await fx.fresh('tx_conflict');
    await c.insertOne({ _id: 'k' as never, n: 0 });
    const holder = fx.client.startSession();
    const retrier = fx.client.startSession();
    try {
      holder.startTransaction();
      await c.updateOne({ _id: 'k' as never }, { $inc: { n: 100 } }, { session: holder });
      let attempts = 0;
      let conflict: MongoServerError | undefined;
      await retrier.withTransaction(async () => {
        attempts++;
        try {
          await c.updateOne({ _id: 'k' as never }, { $inc: { n: 1 } }, { session: retrier });
        } catch (error) {
          conflict = error as MongoServerError;
          // Let the other transaction lose so the retry can succeed.
          await holder.abortTransaction();
          throw error;
        }
      });
      expect(attempts).toBe(2);
      expect(conflict?.code).toBe(112);
      expect(conflict?.codeName).toBe('WriteConflict');
      expect(conflict?.hasErrorLabel('TransientTransactionError')).toBe(true);
    } finally {
      await holder.endSession();
      await retrier.endSession();
    }
    expect(await c.findOne({ _id: 'k' as never })).toEqual({ _id: 'k', n: 1 });
  });

  it('checks unique indexes against committed data and its own writes; a failed statement aborts (NoSuchTransaction 251)', async () => {
    const c = await fx.fresh('tx_unique');
    await c.createIndex({ slug: 1 }, { unique: true });
    await c.insertOne({ slug: 'taken' });
    const session = fx.client.startSession();
    try {
      session.startTransaction();
      await c.insertOne({ slug: 'new' }, { session });
      const own = await c.insertOne({ slug: 'new' }, { session }).catch((e: unknown) => e);
      expect((own as MongoServerError).code).toBe(11000);
      const after = await c.insertOne({ slug: 'other' }, { session }).catch((e: unknown) => e);
      expect((after as MongoServerError).code).toBe(251);
      expect((after as MongoServerError).codeName).toBe('NoSuchTransaction');
      await session.abortTransaction().catch(() => undefined);

      session.startTransaction();
      const committed = await c.insertOne({ slug: 'taken' }, { session }).catch((e: unknown) => e);
      expect((committed as MongoServerError).code).toBe(11000);
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
    expect((await c.find({}, { projection: { _id: 0 } }).toArray()).map((d) => d.slug)).toEqual(['taken']);
  });

  it.each<[string, (session: ClientSession) => Promise<unknown>]>([
    ['count', (session) => fx.db.command({ count: 'tx_refused' }, { session })],
    ['listCollections', (session) => fx.db.command({ listCollections: 1 }, { session })],
    ['listIndexes', (session) => fx.db.command({ listIndexes: 'tx_refused' }, { session })],
  ])('refuses %s inside a transaction (OperationNotSupportedInTransaction 263), not transient', async (name, run) => {
    await fx.fresh('tx_refused');
    const session = fx.client.startSession();
    try {
      session.startTransaction();
      await fx.db.collection('tx_refused').insertOne({ _id: 1 } as never, { session });
      const error = (await run(session).catch((e: unknown) => e)) as MongoServerError;
      expect([error.code, error.codeName, error.message]).toEqual([
        263,
        'OperationNotSupportedInTransaction',
        `Cannot run '${name}' in a multi-document transaction.`,
      ]);
      expect(error.hasErrorLabel('TransientTransactionError')).toBe(false);
    } finally {
      await session.abortTransaction().catch(() => undefined);
      await session.endSession();
    }
  });

  it('works through mongoose connection.transaction()', async () => {
    const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
    try {
      const Account = conn.model('Account', new mongoose.Schema({ _id: String, balance: Number }));
      await Account.createCollection();
      await Account.create([
        { _id: 'a', balance: 10 },
        { _id: 'b', balance: 0 },
      ]);
      await conn.transaction(async (session) => {
        await Account.updateOne({ _id: 'a' }, { $inc: { balance: -4 } }, { session });
        await Account.updateOne({ _id: 'b' }, { $inc: { balance: 4 } }, { session });
      });
      const balances = await Account.find().sort({ _id: 1 }).lean();
      expect(balances.map((d) => d.balance)).toEqual([6, 4]);
    } finally {
      await conn.close();
    }
  });
});
