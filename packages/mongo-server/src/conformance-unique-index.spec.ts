/**
 * Conformance: unique indexes and MongoDB's exact duplicate-key error
 * shapes, through the driver and mongoose (works against a real MongoDB
 * via MONGO_URL).
 */
import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

describe('duplicate key shapes', () => {
  it('insert: writeErrors entry with code, errmsg, keyPattern, keyValue; nothing written', async () => {
    const c = await fx.fresh('slugs');
    await c.createIndex({ slug: 1 }, { unique: true });
    await c.insertOne({ slug: 'a' });
    const reply = await fx.db.command({ insert: 'slugs', documents: [{ slug: 'a', extra: 1 }] });
    expect(reply.ok).toBe(1);
    expect(reply.n).toBe(0);
    expect(reply.writeErrors).toEqual([
      {
        index: 0,
        code: 11000,
        errmsg: `E11000 duplicate key error collection: ${fx.mongo.dbName}.slugs index: slug_1 dup key: { slug: "a" }`,
        keyPattern: { slug: 1 },
        keyValue: { slug: 'a' },
      },
    ]);
    expect(await c.countDocuments()).toBe(1);
    const error = await rejection(c.insertOne({ slug: 'a' }));
    expect(error.code).toBe(11000);
    expect(error.keyValue).toEqual({ slug: 'a' });
  });

  it('duplicate _id uses the _id_ index', async () => {
    const c = await fx.fresh('ids');
    await c.insertOne({ _id: 'x' as never });
    const error = await rejection(c.insertOne({ _id: 'x' as never }));
    expect(error.message).toBe(
      `E11000 duplicate key error collection: ${fx.mongo.dbName}.ids index: _id_ dup key: { _id: "x" }`,
    );
    expect(error.keyPattern).toEqual({ _id: 1 });
  });

  it('ordered insertMany stops at the first duplicate; unordered continues', async () => {
    const c = await fx.fresh('batch');
    await c.createIndex({ k: 1 }, { unique: true });
    const ordered = await c.insertMany([{ k: 1 }, { k: 2 }, { k: 1 }, { k: 3 }]).catch((e: unknown) => e);
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect((ordered as MongoBulkWriteError).insertedCount).toBe(2);
    expect(await c.countDocuments()).toBe(2);
    const unordered = await c
      .insertMany([{ k: 2 }, { k: 4 }, { k: 1 }, { k: 5 }], { ordered: false })
      .catch((e: unknown) => e);
    expect((unordered as MongoBulkWriteError).writeErrors).toHaveLength(2);
    expect((await c.find({}, { sort: { k: 1 } }).toArray()).map((d) => d.k)).toEqual([1, 2, 4, 5]);
  });

  it('update: writeErrors with ok: 1 and the document unchanged', async () => {
    const c = await fx.fresh('upd');
    await c.createIndex({ slug: 1 }, { unique: true });
    await c.insertMany([
      { _id: 1 as never, slug: 'a' },
      { _id: 2 as never, slug: 'b' },
    ]);
    const reply = await fx.db.command({
      update: 'upd',
      updates: [{ q: { _id: 2 }, u: { $set: { slug: 'a', other: 1 } } }],
    });
    expect(reply).toMatchObject({ ok: 1, n: 0, nModified: 0 });
    expect(reply.writeErrors[0]).toMatchObject({
      index: 0,
      code: 11000,
      keyPattern: { slug: 1 },
      keyValue: { slug: 'a' },
    });
    expect(await c.findOne({ _id: 2 as never })).toEqual({ _id: 2, slug: 'b' });
  });

  it('findAndModify: top-level DuplicateKey error with keyPattern and keyValue', async () => {
    const c = await fx.fresh('fam');
    await c.createIndex({ slug: 1 }, { unique: true });
    await c.insertMany([{ slug: 'a' }, { slug: 'b' }]);
    const error = await rejection(c.findOneAndUpdate({ slug: 'b' }, { $set: { slug: 'a' } }));
    expect(error.code).toBe(11000);
    expect(error.codeName).toBe('DuplicateKey');
    expect(error.keyPattern).toEqual({ slug: 1 });
    expect(error.keyValue).toEqual({ slug: 'a' });
    expect(error.errorResponse.ok).toBe(0);
  });

  it('createIndex over duplicate data fails with 11000 and builds nothing', async () => {
    const c = await fx.fresh('dupdata');
    await c.insertMany([{ e: 'x' }, { e: 'x' }]);
    const error = await rejection(c.createIndex({ e: 1 }, { unique: true }));
    expect(error.code).toBe(11000);
    expect(error.keyValue).toEqual({ e: 'x' });
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });

  it.each([
    [
      'compound',
      { a: 1, b: 1 },
      {},
      [
        { a: 1, b: 1 },
        { a: 1, b: 2 },
      ],
      { a: 1, b: 1 },
      { a: 1, b: 1 },
    ],
    ['missing fields collide as null', { m: 1 }, {}, [{ x: 1 }], { y: 1 }, { m: null }],
    [
      'sparse skips missing fields',
      { s: 1 },
      { sparse: true },
      [{ x: 1 }, { x: 2 }, { s: 'v' }],
      { s: 'v' },
      { s: 'v' },
    ],
    [
      'partial only covers matching documents',
      { p: 1 },
      { partialFilterExpression: { active: true } },
      [
        { p: 1, active: false },
        { p: 1, active: true },
      ],
      { p: 1, active: true },
      { p: 1 },
    ],
    ['numbers are equal across types', { n: 1 }, {}, [{ n: 2 }], { n: 2.0 }, { n: 2 }],
    [
      'multikey arrays index each element',
      { tags: 1 },
      {},
      [{ tags: ['a', 'b'] }],
      { tags: ['c', 'b'] },
      { tags: 'b' },
    ],
  ])('%s', async (_label, key, options, accepted, rejected, keyValue) => {
    const c = await fx.fresh('shapes');
    await c.createIndex(key, { unique: true, ...options });
    await c.insertMany(accepted.map((d) => ({ ...d })));
    const error = await rejection(c.insertOne({ ...rejected }));
    expect(error.code).toBe(11000);
    expect(error.keyValue).toEqual(keyValue);
    expect(error.keyPattern).toEqual(key);
  });

  it('frees the key when the owner is updated or deleted', async () => {
    const c = await fx.fresh('reuse');
    await c.createIndex({ u: 1 }, { unique: true });
    await c.insertOne({ _id: 1 as never, u: 'a' });
    await c.updateOne({ _id: 1 as never }, { $set: { u: 'b' } });
    await c.insertOne({ _id: 2 as never, u: 'a' });
    await c.deleteOne({ _id: 1 as never });
    await c.insertOne({ _id: 3 as never, u: 'b' });
    expect(await c.countDocuments()).toBe(2);
  });
});

describe('mongoose surfaces duplicates', () => {
  it('as MongoServerError with code 11000 and keyValue', async () => {
    const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
    try {
      const User = conn.model('User', new mongoose.Schema({ email: { type: String, unique: true } }));
      await User.init();
      await User.create({ email: 'x@y.z' });
      const error = await User.create({ email: 'x@y.z' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).code).toBe(11000);
      expect((error as MongoServerError).keyValue).toEqual({ email: 'x@y.z' });
    } finally {
      await conn.close();
    }
  });
});
