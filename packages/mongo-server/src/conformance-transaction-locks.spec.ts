/**
 * Conformance: a write outside transactions that meets a document (or a
 * unique key) an open transaction has written waits until the transaction
 * commits or aborts, then applies to what is committed — it does not fail
 * with WriteConflict, as it did in the embedded server before (#15). A
 * `maxTimeMS` bounds the wait (MaxTimeMSExpired, 50). Inside a transaction a
 * conflicting write still fails at once (conformance-transactions.spec.ts).
 * A real replica set via MONGO_URL passes the same suite.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { ClientSession, Collection, MongoServerError } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ transactions: true });

/**
 * How long a waiting write is watched to see that it does not settle: a write that is not held back
 * (a WriteConflict, or the write applied) is answered in ~1 ms, so 100 ms tells the two apart.
 */
const WATCH_MS = 100;

/** Whether `promise` is still unsettled after {@link WATCH_MS}. */
async function stillWaiting(promise: Promise<unknown>): Promise<boolean> {
  const settled = promise.then(
    () => true,
    () => true,
  );
  return !(await Promise.race([settled, sleep(WATCH_MS).then(() => false)]));
}

interface Counter {
  _id: string;
  n: number;
}

describe('a write outside transactions meeting a document an open transaction wrote', () => {
  let session: ClientSession;
  beforeEach(() => {
    session = fx.client.startSession();
  });
  afterEach(async () => {
    await session.endSession();
  });

  /** A collection with `{ _id: 'x', n: 0 }`, and a transaction that has added 10 to it. */
  async function lockedCounter(name: string): Promise<Collection<Counter>> {
    const c = (await fx.fresh(name)) as unknown as Collection<Counter>;
    await c.insertOne({ _id: 'x', n: 0 });
    session.startTransaction();
    await c.updateOne({ _id: 'x' }, { $inc: { n: 10 } }, { session });
    return c;
  }

  it('waits for the commit, then applies on top of it', async () => {
    const c = await lockedCounter('locks_commit');
    const plain = c.updateOne({ _id: 'x' }, { $inc: { n: 1 } });
    expect(await stillWaiting(plain)).toBe(true);
    await session.commitTransaction();
    expect(await plain).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await c.findOne({ _id: 'x' })).toEqual({ _id: 'x', n: 11 });
  });

  it('waits for the abort, then applies to the document as it was', async () => {
    const c = await lockedCounter('locks_abort');
    const plain = c.updateOne({ _id: 'x' }, { $inc: { n: 1 } });
    expect(await stillWaiting(plain)).toBe(true);
    await session.abortTransaction();
    expect(await plain).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await c.findOne({ _id: 'x' })).toEqual({ _id: 'x', n: 1 });
  });

  it('lets reads and writes of other documents through while it waits', async () => {
    const c = await lockedCounter('locks_others');
    await c.insertOne({ _id: 'y', n: 0 });
    const plain = c.updateOne({ _id: 'x' }, { $inc: { n: 1 } });
    expect(await c.findOne({ _id: 'x' })).toEqual({ _id: 'x', n: 0 });
    expect(await c.updateOne({ _id: 'y' }, { $inc: { n: 1 } })).toMatchObject({ modifiedCount: 1 });
    expect(await stillWaiting(plain)).toBe(true);
    await session.commitTransaction();
    await plain;
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'x', n: 11 },
      { _id: 'y', n: 1 },
    ]);
  });

  it('waits in updateMany, deleteOne and findOneAndUpdate alike', async () => {
    const c = await lockedCounter('locks_kinds');
    await c.insertMany([
      { _id: 'a', n: 0 },
      { _id: 'z', n: 0 },
    ]);
    const many = c.updateMany({}, { $inc: { n: 1 } });
    expect(await stillWaiting(many)).toBe(true);
    await session.commitTransaction();
    expect(await many).toMatchObject({ matchedCount: 3, modifiedCount: 3 });
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', n: 1 },
      { _id: 'x', n: 11 },
      { _id: 'z', n: 1 },
    ]);

    session.startTransaction();
    await c.updateOne({ _id: 'x' }, { $inc: { n: 100 } }, { session });
    const found = c.findOneAndUpdate({ _id: 'x' }, { $inc: { n: 1 } }, { returnDocument: 'after' });
    expect(await stillWaiting(found)).toBe(true);
    await session.commitTransaction();
    expect(await found).toEqual({ _id: 'x', n: 112 });

    session.startTransaction();
    await c.updateOne({ _id: 'x' }, { $set: { n: -1 } }, { session });
    // Only a document the write would change makes it wait: the committed one has n: 112.
    expect(await c.deleteOne({ _id: 'x', n: -1 })).toMatchObject({ deletedCount: 0 });
    const removed = c.deleteOne({ _id: 'x' });
    expect(await stillWaiting(removed)).toBe(true);
    await session.commitTransaction();
    expect(await removed).toMatchObject({ deletedCount: 1 });
    expect(await c.countDocuments({ _id: 'x' })).toBe(0);
  });

  it.each([
    ['commits', 6],
    ['aborts', 1],
  ])(
    'makes a findOneAndUpdate upsert of a document the transaction inserted wait; the transaction %s → n: %d',
    async (ending, n) => {
      const c = (await fx.fresh(`locks_upsert_${ending}`)) as unknown as Collection<Counter>;
      await c.insertOne({ _id: 'other', n: 0 }); // the collection exists before the transaction
      session.startTransaction();
      await c.insertOne({ _id: 'u', n: 5 }, { session });
      const upsert = c.findOneAndUpdate({ _id: 'u' }, { $inc: { n: 1 } }, { upsert: true, returnDocument: 'after' });
      expect(await stillWaiting(upsert)).toBe(true);
      if (ending === 'commits') await session.commitTransaction();
      else await session.abortTransaction();
      expect(await upsert).toEqual({ _id: 'u', n });
      expect(await c.countDocuments({ _id: 'u' })).toBe(1);
    },
  );

  describe('an insert taking a unique key the transaction holds', () => {
    async function heldSlug(name: string): Promise<Collection> {
      const c = await fx.fresh(name);
      await c.createIndex({ slug: 1 }, { unique: true });
      session.startTransaction();
      await c.insertOne({ slug: 'taken' }, { session });
      return c;
    }

    it('waits, then fails with E11000 once the transaction commits', async () => {
      const c = await heldSlug('locks_unique_commit');
      const insert = c.insertOne({ slug: 'taken' });
      expect(await stillWaiting(insert)).toBe(true);
      await session.commitTransaction();
      const error = (await insert.catch((e: unknown) => e)) as MongoServerError;
      expect(error.code).toBe(11000);
      expect(error.message).toMatch(
        /^E11000 duplicate key error collection: \S+\.locks_unique_commit index: slug_1 dup key: \{ slug: "taken" \}$/,
      );
      expect(await c.countDocuments({ slug: 'taken' })).toBe(1);
    });

    it('waits, then succeeds once the transaction aborts', async () => {
      const c = await heldSlug('locks_unique_abort');
      const insert = c.insertOne({ slug: 'taken', mine: true });
      expect(await stillWaiting(insert)).toBe(true);
      await session.abortTransaction();
      await insert;
      expect(await c.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ slug: 'taken', mine: true }]);
    });
  });

  it('gives up after maxTimeMS with MaxTimeMSExpired (50) and writes nothing', async () => {
    const c = await lockedCounter('locks_max_time');
    const started = Date.now();
    const error = (await c.updateOne({ _id: 'x' }, { $inc: { n: 1 } }, { maxTimeMS: 200 }).catch((e: unknown) => e)) as
      MongoServerError | undefined;
    const waited = Date.now() - started;
    expect(error).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
    expect(waited).toBeGreaterThanOrEqual(150);
    expect(waited).toBeLessThan(5000);
    await session.commitTransaction();
    expect(await c.findOne({ _id: 'x' })).toEqual({ _id: 'x', n: 10 });
  });

  it('is let through at once after killAllSessions aborted the transaction, whose commit then fails (251)', async () => {
    const c = await lockedCounter('locks_killed');
    // As test runners (the unified test format's) end what a failed test left open.
    await fx.client.db('admin').command({ killAllSessions: [] });
    const plain = c.updateOne({ _id: 'x' }, { $inc: { n: 1 } });
    expect(await stillWaiting(plain)).toBe(false);
    expect(await plain).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const error = (await session.commitTransaction().catch((e: unknown) => e)) as MongoServerError;
    expect(error).toMatchObject({ code: 251, codeName: 'NoSuchTransaction' });
    expect(await c.findOne({ _id: 'x' })).toEqual({ _id: 'x', n: 1 });
  });

  it('still fails at once inside another transaction (WriteConflict 112, TransientTransactionError)', async () => {
    const c = await lockedCounter('locks_in_transaction');
    const other = fx.client.startSession();
    try {
      other.startTransaction();
      const error = (await c
        .updateOne({ _id: 'x' }, { $inc: { n: 1 } }, { session: other })
        .catch((e: unknown) => e)) as MongoServerError;
      expect(error).toMatchObject({ code: 112, codeName: 'WriteConflict' });
      expect(error.hasErrorLabel('TransientTransactionError')).toBe(true);
      await other.abortTransaction().catch(() => undefined);
    } finally {
      await other.endSession();
    }
    await session.commitTransaction();
    expect(await c.findOne({ _id: 'x' })).toEqual({ _id: 'x', n: 10 });
  });
});
