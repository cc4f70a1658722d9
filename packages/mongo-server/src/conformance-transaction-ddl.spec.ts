/**
 * Conformance: collections and indexes created inside a transaction (the
 * drivers' transactions spec, create-collection and create-index; MongoDB's
 * "Create Collections and Indexes in a Transaction"). A collection created
 * by `create`, by `createIndexes` or by the transaction's first write, and
 * the indexes built on it, are seen by no other client before the commit,
 * and not at all after an abort. mongod builds no index inside a transaction
 * on a collection that existed before it, and creates no view there
 * (OperationNotSupportedInTransaction, 263). A write outside transactions
 * into a collection a transaction is creating, or a create of it, waits for
 * the transaction to end. A real
 * replica set via MONGO_URL passes the same suite.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { ClientSession } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ transactions: true });
const collection = () => fx.db.collection<{ _id: number }>('txn_ddl');

let session: ClientSession;
beforeEach(async () => {
  await fx.fresh('txn_ddl');
  session = fx.client.startSession();
});
afterEach(async () => {
  await session.endSession();
});

/** Whether another client (no session) sees the collection. */
async function listed(name: string): Promise<boolean> {
  return (await fx.db.listCollections({ name }, { nameOnly: true }).toArray()).length === 1;
}

/** The index names another client sees on the collection ([] when it does not exist for that client). */
async function indexNames(name: string): Promise<string[]> {
  const indexes = await fx.db
    .collection(name)
    .listIndexes()
    .toArray()
    .catch(() => []);
  return indexes.map((index) => String(index.name)).sort();
}

describe('a collection created inside a transaction', () => {
  it.each<[string, () => Promise<unknown>]>([
    ['by create', () => fx.db.createCollection('txn_ddl', { session })],
    ['by its first insert', () => collection().insertOne({ _id: 1 }, { session })],
    ['by createIndexes', () => collection().createIndex({ x: 1 }, { name: 'x_1', session })],
  ])('%s is seen by no other client before the commit, and then is', async (_label, create) => {
    session.startTransaction();
    await create();
    expect(await listed('txn_ddl')).toBe(false);
    expect(await collection().countDocuments()).toBe(0);
    await session.commitTransaction();
    expect(await listed('txn_ddl')).toBe(true);
  });

  it('is never seen after an abort', async () => {
    session.startTransaction();
    await fx.db.createCollection('txn_ddl', { session });
    await collection().insertOne({ _id: 1 }, { session });
    await collection().createIndex({ x: 1 }, { session });
    await session.abortTransaction();
    expect(await listed('txn_ddl')).toBe(false);
  });

  it("holds the transaction's documents, read inside it and committed with it", async () => {
    session.startTransaction();
    await fx.db.createCollection('txn_ddl', { session });
    await collection().insertMany([{ _id: 1 }, { _id: 2 }], { session });
    expect(await collection().find({}, { session }).toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
    await session.commitTransaction();
    expect(await collection().find().toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
  });

  it('exists for the transaction: a second create of it in the transaction answers NamespaceExists', async () => {
    session.startTransaction();
    await fx.db.createCollection('txn_ddl', { session });
    const error = await rejection(fx.db.command({ create: 'txn_ddl', validator: { x: 1 } }, { session }));
    expect(error.codeName).toBe('NamespaceExists');
    await session.abortTransaction().catch(() => undefined);
  });

  it('keeps a write outside transactions into it waiting until the transaction ends', async () => {
    session.startTransaction();
    await collection().insertOne({ _id: 1 }, { session });
    let settled = false;
    const outside = collection()
      .insertOne({ _id: 2 })
      .finally(() => (settled = true));
    await sleep(100);
    expect(settled).toBe(false);
    await session.commitTransaction();
    await outside;
    expect(await collection().find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
  });
});

// mongod retries the write conflict such a create meets until the transaction ends; here it waits as a write does.
(process.env.MONGO_URL ? it.skip : it)(
  'keeps a create outside transactions of a collection a transaction is creating waiting until it ends',
  async () => {
    session.startTransaction();
    await collection().insertOne({ _id: 1 }, { session });
    let settled = false;
    const outside = fx.db.createCollection('txn_ddl').finally(() => (settled = true));
    await sleep(100);
    expect(settled).toBe(false);
    await session.commitTransaction();
    await outside;
    expect(await collection().find().toArray()).toEqual([{ _id: 1 }]);
  },
);

describe('an index created inside a transaction', () => {
  it.each<[string, () => Promise<unknown>]>([
    ['on a collection that does not exist', async () => undefined],
    ['on a collection the transaction created', () => fx.db.createCollection('txn_ddl', { session })],
  ])('%s is seen after the commit only', async (_label, prepare) => {
    session.startTransaction();
    await prepare();
    await collection().createIndex({ t: 1 }, { name: 't_1', session });
    expect(await indexNames('txn_ddl')).not.toContain('t_1');
    await session.commitTransaction();
    expect(await indexNames('txn_ddl')).toEqual(['_id_', 't_1']);
  });

  it('is refused on a collection that existed before the transaction (263)', async () => {
    await fx.db.createCollection('txn_ddl');
    session.startTransaction();
    const error = await rejection(collection().createIndex({ t: 1 }, { session }));
    expect([error.code, error.codeName]).toEqual([263, 'OperationNotSupportedInTransaction']);
    expect(error.message).toBe(
      `Cannot create new indexes on existing collection ${fx.db.databaseName}.txn_ddl in a multi-document transaction.`,
    );
    await session.abortTransaction().catch(() => undefined);
    expect(await indexNames('txn_ddl')).toEqual(['_id_']);
  });

  it('that already exists is no error, as outside a transaction', async () => {
    await collection().createIndex({ t: 1 }, { name: 't_1' });
    session.startTransaction();
    await expect(collection().createIndex({ t: 1 }, { name: 't_1', session })).resolves.toBe('t_1');
    await session.commitTransaction();
  });
});

it('a view is not created inside a transaction (263)', async () => {
  session.startTransaction();
  const error = await rejection(fx.db.createCollection('txn_ddl_view', { viewOn: 'txn_ddl', pipeline: [], session }));
  expect([error.code, error.codeName, error.message]).toEqual([
    263,
    'OperationNotSupportedInTransaction',
    'Cannot create a view in a multi-document transaction.',
  ]);
  await session.abortTransaction().catch(() => undefined);
  expect(await listed('txn_ddl_view')).toBe(false);
});
