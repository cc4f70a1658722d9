/**
 * Conformance: CRUD, cursors and the command surface, driven only through
 * the official driver and mongoose. Passes unchanged against a real MongoDB
 * when MONGO_URL is set.
 */
import { MongoServerError, ObjectId } from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

describe('CRUD through the driver', () => {
  it('inserts, finds, updates, replaces and deletes', async () => {
    const c = await fx.fresh('crud');
    const { insertedId } = await c.insertOne({ name: 'a', tags: ['x', 'y'], nested: { n: 1 } });
    expect(insertedId).toBeInstanceOf(ObjectId);
    await c.insertMany([
      { name: 'b', n: 2 },
      { name: 'c', n: 3 },
    ]);

    expect(await c.findOne({ _id: insertedId })).toEqual({
      _id: insertedId,
      name: 'a',
      tags: ['x', 'y'],
      nested: { n: 1 },
    });
    expect(await c.countDocuments()).toBe(3);
    expect(await c.countDocuments({ n: { $gte: 2 } })).toBe(2);
    expect(await c.estimatedDocumentCount()).toBe(3);
    expect(await c.findOne({ tags: 'y' })).toMatchObject({ name: 'a' });
    expect(await c.findOne({ 'nested.n': 1 })).toMatchObject({ name: 'a' });

    const upd = await c.updateMany({ n: { $exists: true } }, { $inc: { n: 10 }, $set: { touched: true } });
    expect(upd).toMatchObject({ matchedCount: 2, modifiedCount: 2, upsertedCount: 0 });
    const noop = await c.updateOne({ name: 'b' }, { $set: { touched: true } });
    expect(noop).toMatchObject({ matchedCount: 1, modifiedCount: 0 });

    const rep = await c.replaceOne({ name: 'c' }, { name: 'c2', replaced: true });
    expect(rep.modifiedCount).toBe(1);
    expect(await c.findOne({ name: 'c2' }, { projection: { _id: 0 } })).toEqual({ name: 'c2', replaced: true });

    expect((await c.deleteOne({ name: 'b' })).deletedCount).toBe(1);
    expect((await c.deleteMany({})).deletedCount).toBe(2);
    expect(await c.countDocuments()).toBe(0);
  });

  it('supports projection, sort, skip and limit on find', async () => {
    const c = await fx.fresh('paging');
    await c.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i, sq: (i * 7) % 20, group: i % 3 })) as never[]);
    const page = await c
      .find({ group: { $in: [0, 1] } }, { projection: { sq: 1 } })
      .sort({ sq: -1 })
      .skip(2)
      .limit(3)
      .toArray();
    expect(page.map((d) => d.sq)).toEqual([11, 10, 9]);
    expect(Object.keys(page[0]!)).toEqual(['_id', 'sq']);
    const excluded = await c.find({ _id: 1 as never }, { projection: { group: 0 } }).toArray();
    expect(excluded).toEqual([{ _id: 1, sq: 7 }]);
  });

  it('applies update operators: $set nested, $unset, $push, $addToSet, $pull, arrayFilters', async () => {
    const c = await fx.fresh('ops');
    await c.insertOne({
      _id: 'd' as never,
      items: [
        { k: 'a', q: 1 },
        { k: 'b', q: 5 },
      ],
      set: [1],
    });
    await c.updateOne({ _id: 'd' as never }, { $set: { 'meta.by': 'me' }, $push: { set: 2 } as never });
    await c.updateOne({ _id: 'd' as never }, { $addToSet: { set: 2 } });
    await c.updateOne(
      { _id: 'd' as never },
      { $set: { 'items.$[big].q': 0 } },
      { arrayFilters: [{ 'big.q': { $gt: 2 } }] },
    );
    await c.updateOne({ _id: 'd' as never }, { $pull: { set: 1 } as never, $unset: { nothing: '' } });
    expect(await c.findOne({ _id: 'd' as never })).toEqual({
      _id: 'd',
      items: [
        { k: 'a', q: 1 },
        { k: 'b', q: 0 },
      ],
      set: [2],
      meta: { by: 'me' },
    });
  });

  it('upserts with $setOnInsert only on insert', async () => {
    const c = await fx.fresh('upsert');
    const first = await c.updateOne(
      { key: 'k' },
      { $setOnInsert: { created: 1 }, $inc: { hits: 1 } },
      { upsert: true },
    );
    expect(first.upsertedCount).toBe(1);
    expect(first.upsertedId).toBeInstanceOf(ObjectId);
    const second = await c.updateOne(
      { key: 'k' },
      { $setOnInsert: { created: 2 }, $inc: { hits: 1 } },
      { upsert: true },
    );
    expect(second).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect(await c.findOne({ key: 'k' }, { projection: { _id: 0 } })).toEqual({ key: 'k', created: 1, hits: 2 });
    const replaced = await c.replaceOne({ _id: 'fixed' as never }, { v: 1 }, { upsert: true });
    expect(replaced.upsertedId).toBe('fixed');
  });

  it('refuses to change _id', async () => {
    const c = await fx.fresh('immutable');
    await c.insertOne({ _id: 1 as never, v: 1 });
    const error = await c.updateOne({ _id: 1 as never }, { $set: { _id: 2 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(66);
  });
});

describe('cursors', () => {
  it('streams 1,500 documents through getMore with batchSize, in insertion order', async () => {
    const c = await fx.fresh('big');
    await c.insertMany(Array.from({ length: 1500 }, (_, i) => ({ i })));
    const seen: number[] = [];
    for await (const doc of c.find({}, { batchSize: 100 })) seen.push(doc.i as number);
    expect(seen).toEqual(Array.from({ length: 1500 }, (_, i) => i));
    expect(await c.find().toArray()).toHaveLength(1500);
  });

  it('pages with $gt on _id (ObjectId order) without gaps or repeats', async () => {
    const c = await fx.fresh('keyset');
    const ids = Array.from({ length: 250 }, () => new ObjectId());
    await c.insertMany([...ids].reverse().map((_id, i) => ({ _id, i })));
    const sorted = [...ids].sort((a, b) => a.toHexString().localeCompare(b.toHexString()));
    const seen: ObjectId[] = [];
    let last: ObjectId | undefined;
    for (;;) {
      const page = await c
        .find(last ? { _id: { $gt: last } } : {})
        .sort({ _id: 1 })
        .limit(40)
        .toArray();
      if (page.length === 0) break;
      seen.push(...page.map((d) => d._id));
      last = page[page.length - 1]!._id;
    }
    expect(seen.map(String)).toEqual(sorted.map(String));
  });

  it('raises CursorNotFound (43) for getMore on a killed cursor', async () => {
    const c = await fx.fresh('killed');
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ i })));
    // promoteLongs off: an id that fits in 53 bits would come back as a number, and a cursor id must be an Int64.
    const first = await fx.db.command({ find: 'killed', batchSize: 2 }, { promoteLongs: false });
    const id = first.cursor.id;
    const killed = await fx.db.command({ killCursors: 'killed', cursors: [id] });
    expect(killed.cursorsKilled).toHaveLength(1);
    const error = await fx.db.command({ getMore: id, collection: 'killed' }).catch((e: unknown) => e);
    expect((error as MongoServerError).code).toBe(43);
    expect((error as MongoServerError).codeName).toBe('CursorNotFound');
  });
});

describe('commands', () => {
  it('answers ping, hello and buildInfo', async () => {
    expect((await fx.db.admin().ping()).ok).toBe(1);
    const hello = await fx.db.admin().command({ hello: 1 });
    expect(hello.isWritablePrimary).toBe(true);
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(9);
    expect(typeof hello.logicalSessionTimeoutMinutes).toBe('number');
    const info = await fx.db.admin().command({ buildInfo: 1 });
    expect(info.version).toMatch(/^\d+\.\d+/);
  });

  it('returns CommandNotFound (59) for an unknown command', async () => {
    const error = await fx.db.command({ frobnicate: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(59);
    expect((error as MongoServerError).codeName).toBe('CommandNotFound');
    expect((error as MongoServerError).message).toBe("no such command: 'frobnicate'");
  });

  it('runs distinct, count and aggregate ($match, $group, $sort, $project, $skip, $limit, $lookup)', async () => {
    const orders = await fx.fresh('orders');
    const users = await fx.fresh('users');
    await users.insertMany([
      { _id: 1 as never, name: 'ann' },
      { _id: 2 as never, name: 'bob' },
    ]);
    await orders.insertMany([
      { user: 1, total: 5, tags: ['a', 'b'] },
      { user: 1, total: 7, tags: ['b'] },
      { user: 2, total: 1, tags: ['c'] },
    ]);
    expect((await orders.distinct('tags')).sort()).toEqual(['a', 'b', 'c']);
    expect((await orders.distinct('user', { total: { $gt: 2 } })).sort()).toEqual([1]);
    expect((await fx.db.command({ count: 'orders', query: { user: 1 } })).n).toBe(2);
    const totals = await orders
      .aggregate([
        { $match: { total: { $gte: 1 } } },
        { $group: { _id: '$user', sum: { $sum: '$total' }, n: { $sum: 1 } } },
        { $lookup: { from: 'users', localField: '_id', foreignField: '_id', as: 'who' } },
        { $project: { _id: 0, user: '$_id', sum: 1, n: 1, name: { $arrayElemAt: ['$who.name', 0] } } },
        { $sort: { sum: -1 } },
        { $skip: 0 },
        { $limit: 5 },
      ])
      .toArray();
    expect(totals).toEqual([
      { user: 1, sum: 12, n: 2, name: 'ann' },
      { user: 2, sum: 1, n: 1, name: 'bob' },
    ]);
  });

  it('creates, lists and drops collections and databases', async () => {
    await fx.db.createCollection('made');
    const names = (await fx.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toContain('made');
    expect(await fx.db.collection('made').drop()).toBe(true);
    expect((await fx.db.listCollections({ name: 'made' }).toArray()).length).toBe(0);

    const other = fx.client.db(`${fx.mongo.dbName}_x`);
    await other.collection('c').insertOne({ a: 1 });
    const dbs = (await fx.client.db().admin().listDatabases()).databases.map((d) => d.name);
    expect(dbs).toContain(`${fx.mongo.dbName}_x`);
    await other.dropDatabase();
    const after = (await fx.client.db().admin().listDatabases()).databases.map((d) => d.name);
    expect(after).not.toContain(`${fx.mongo.dbName}_x`);
  });

  it('creates, lists and drops indexes; listIndexes on a missing collection is NamespaceNotFound (26)', async () => {
    const c = await fx.fresh('indexed');
    expect(await c.createIndex({ a: 1, b: -1 }, { name: 'ab' })).toBe('ab');
    await c.createIndex({ slug: 1 }, { unique: true });
    const indexes = await c.listIndexes().toArray();
    expect(indexes.map((i) => i.name)).toEqual(['_id_', 'ab', 'slug_1']);
    expect(indexes.find((i) => i.name === 'slug_1')).toMatchObject({ key: { slug: 1 }, unique: true });
    await c.dropIndex('ab');
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'slug_1']);
    await c.dropIndexes();
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
    const error = await fx.db.command({ listIndexes: 'no_such_collection' }).catch((e: unknown) => e);
    expect((error as MongoServerError).code).toBe(26);
  });
});

describe('mongoose', () => {
  it('runs Model.init, syncIndexes, create, find and findOneAndUpdate', async () => {
    const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
    try {
      const schema = new mongoose.Schema({ slug: { type: String, unique: true }, views: { type: Number, default: 0 } });
      schema.index({ views: -1 });
      const Page = conn.model('Page', schema);
      await Page.init();
      await Page.syncIndexes();
      const names = (await Page.listIndexes()).map((i: { name: string }) => i.name).sort();
      expect(names).toEqual(['_id_', 'slug_1', 'views_-1']);
      await Page.create({ slug: 'home' });
      const updated = await Page.findOneAndUpdate(
        { slug: 'home' },
        { $inc: { views: 2 } },
        { returnDocument: 'after' },
      ).lean();
      expect(updated?.views).toBe(2);
      expect(await Page.countDocuments()).toBe(1);
      const missing = await Page.findOneAndUpdate({ slug: 'nope' }, { $inc: { views: 1 } }).lean();
      expect(missing).toBeNull();
      const deleted = await Page.findOneAndDelete({ slug: 'home' }).lean();
      expect(deleted?.slug).toBe('home');
      expect(await Page.countDocuments()).toBe(0);
    } finally {
      await conn.close();
    }
  });
});
