/**
 * Conformance: a double keeps its BSON type even when its value is integral
 * (`5.0`). MongoDB stores, matches (`$type`), indexes, computes with and
 * returns it as a double; int32 and Int64 stay what they are. Types are
 * observed through the driver with `promoteValues: false` (Int32, Double,
 * Long wrappers) and through `$type`, so it passes unchanged against a real
 * MongoDB (MONGO_URL).
 */
import { type Collection, Decimal128, type Document, Double, Int32, Long, MongoServerError } from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const RAW = { promoteValues: false } as const;

/** A value's BSON type and value as the driver decodes it with `promoteValues: false`. */
function typed(value: unknown): [string, number] | unknown {
  if (value instanceof Double) return ['double', value.value];
  if (value instanceof Int32) return ['int', value.value];
  if (value instanceof Long) return ['long', value.toNumber()];
  if (value instanceof Decimal128) return ['decimal', Number(value.toString())];
  return value;
}

/** The typed fields of the document with `_id` (all of them but `_id`). */
async function fields(c: Collection, id: unknown): Promise<Document> {
  const doc = await c.findOne({ _id: id as never }, RAW);
  if (!doc) throw new Error(`no document with _id ${String(id)}`);
  const { _id, ...rest } = doc;
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, typed(value)]));
}

describe('stored doubles keep their type', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('double_stored');
    await c.insertOne({
      _id: 1,
      d: new Double(5),
      i: 5,
      f: 5.5,
      z: new Double(0),
      neg: new Double(-7),
      big: 2 ** 40,
      nested: { d: new Double(2) },
      arr: [new Double(1), 2, [new Double(3)], { d: new Double(4) }],
    } as never);
  });

  it('returns an integral double as a double, an int32 as an int32', async () => {
    expect(await fields(c, 1)).toMatchObject({
      d: ['double', 5],
      i: ['int', 5],
      f: ['double', 5.5],
      z: ['double', 0],
      neg: ['double', -7],
      big: ['double', 2 ** 40],
    });
  });

  it('keeps doubles inside sub-documents and arrays', async () => {
    const doc = await c.findOne({ _id: 1 as never }, RAW);
    // toStrictEqual: toEqual would take Int32(2) for Double(2).
    expect(doc?.nested).toStrictEqual({ d: new Double(2) });
    expect(doc?.arr).toStrictEqual([new Double(1), new Int32(2), [new Double(3)], { d: new Double(4) }]);
  });

  it.each([
    ['double', 'd', true],
    [1, 'd', true],
    ['int', 'd', false],
    [16, 'd', false],
    ['number', 'd', true],
    ['int', 'i', true],
    ['double', 'i', false],
    ['double', 'nested.d', true],
    ['double', 'arr', true],
    ['int', 'arr', true],
  ])('$type: %p on %s matches: %p', async (type, path, matches) => {
    expect(await c.countDocuments({ _id: 1, [path]: { $type: type } } as never)).toBe(matches ? 1 : 0);
  });

  it('answers "double" from the $type expression', async () => {
    const [doc] = await c
      .aggregate([{ $project: { _id: 0, d: { $type: '$d' }, i: { $type: '$i' }, n: { $type: '$nested.d' } } }])
      .toArray();
    expect(doc).toEqual({ d: 'double', i: 'int', n: 'double' });
  });
});

describe('doubles compare with other numbers by value', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('double_equality');
    await c.insertMany([
      { _id: 'd', v: new Double(5) },
      { _id: 'i', v: 5 },
      { _id: 'l', v: Long.fromNumber(5) },
      { _id: 'x', v: 6 },
    ] as never[]);
  });

  it.each([
    ['an int32', 5],
    ['a double', new Double(5)],
    ['an Int64', Long.fromNumber(5)],
  ])('finds every type equal to %s, each returned as stored', async (_name, value) => {
    const docs = await c.find({ v: value } as never, { ...RAW, sort: { _id: 1 } }).toArray();
    expect(docs.map((doc) => [doc._id, typed(doc.v)])).toEqual([
      ['d', ['double', 5]],
      ['i', ['int', 5]],
      ['l', ['long', 5]],
    ]);
  });

  it('sorts int32, double and Int64 together by value, keeping each type', async () => {
    const s = await fx.fresh('double_sort');
    await s.insertMany([
      { _id: 1, v: new Double(2) },
      { _id: 2, v: 1 },
      { _id: 3, v: Long.fromNumber(3) },
      { _id: 4, v: 2.5 },
      { _id: 5, v: new Double(-1) },
      { _id: 6, v: 10 },
    ] as never[]);
    const docs = await s.find({}, { ...RAW, sort: { v: 1 } }).toArray();
    expect(docs.map((doc) => typed(doc.v))).toEqual([
      ['double', -1],
      ['int', 1],
      ['double', 2],
      ['double', 2.5],
      ['long', 3],
      ['int', 10],
    ]);
  });

  it('refuses 5 in a unique index that holds 5.0 (the same key)', async () => {
    const u = await fx.fresh('double_unique');
    await u.createIndex({ v: 1 }, { unique: true });
    await u.insertOne({ _id: 1, v: new Double(5) } as never);
    const error = await u.insertOne({ _id: 2, v: 5 } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(11000);
    const again = await u.insertOne({ _id: 3, v: new Double(5) } as never).catch((e: unknown) => e);
    expect((again as MongoServerError).message).toBe(
      `E11000 duplicate key error collection: ${fx.db.databaseName}.double_unique index: v_1 dup key: { v: 5.0 }`,
    );
    expect(await fields(u, 1)).toEqual({ v: ['double', 5] });
  });
});

describe('update operators give MongoDB numeric result types', () => {
  it.each<[string, Document, Document, [string, number]]>([
    ['$inc int32 by an integral double', { n: 5 }, { $inc: { n: new Double(1) } }, ['double', 6]],
    ['$inc an integral double by int32', { n: new Double(5) }, { $inc: { n: 1 } }, ['double', 6]],
    ['$inc doubles to an integral sum', { n: 0.5 }, { $inc: { n: 0.5 } }, ['double', 1]],
    ['$inc a missing field by a double', {}, { $inc: { n: new Double(3) } }, ['double', 3]],
    ['$inc int32 past its range', { n: 2 ** 31 - 1 }, { $inc: { n: 1 } }, ['long', 2 ** 31]],
    ['$inc Int64 by a double', { n: Long.fromNumber(5) }, { $inc: { n: new Double(1) } }, ['double', 6]],
    ['$mul int32 by an integral double', { n: 5 }, { $mul: { n: new Double(2) } }, ['double', 10]],
    ['$mul an integral double by int32', { n: new Double(5) }, { $mul: { n: 2 } }, ['double', 10]],
    ['$mul a missing field by a double', {}, { $mul: { n: new Double(3) } }, ['double', 0]],
    ['$mul int32 by int32', { n: 5 }, { $mul: { n: 2 } }, ['int', 10]],
    ['$mul int32 past its range', { n: 2 ** 31 - 1 }, { $mul: { n: 2 } }, ['long', 2 ** 32 - 2]],
    ['$mul int32 by Int64', { n: 5 }, { $mul: { n: Long.fromNumber(3) } }, ['long', 15]],
    ['$mul a missing field by Int64', {}, { $mul: { n: Long.fromNumber(3) } }, ['long', 0]],
    ['$mul a missing field by int32', {}, { $mul: { n: 3 } }, ['int', 0]],
    // The $bit examples of MongoDB's manual.
    ['$bit and of int32s', { n: 13 }, { $bit: { n: { and: 10 } } }, ['int', 8]],
    ['$bit or of Int64 and int32', { n: Long.fromNumber(3) }, { $bit: { n: { or: 5 } } }, ['long', 7]],
    ['$bit xor of Int64 and int32', { n: Long.fromNumber(1) }, { $bit: { n: { xor: 5 } } }, ['long', 4]],
    ['$bit of a missing field', {}, { $bit: { n: { or: 6 } } }, ['int', 6]],
    ['$bit operations in order', { n: 12 }, { $bit: { n: { and: 10, or: 1 } } }, ['int', 9]],
    ['$bit and of a negative int32', { n: -1 }, { $bit: { n: { and: 255 } } }, ['int', 255]],
    ['$set an integral double', { n: 1 }, { $set: { n: new Double(7) } }, ['double', 7]],
    ['$max: a double that wins', { n: 5 }, { $max: { n: new Double(7) } }, ['double', 7]],
    ['$min: an int32 that loses', { n: new Double(5) }, { $min: { n: 9 } }, ['double', 5]],
  ])('%s', async (_name, initial, update, expected) => {
    const c = await fx.fresh('double_updates');
    await c.insertOne({ _id: 1, ...initial } as never);
    await c.updateOne({ _id: 1 } as never, update);
    expect(await fields(c, 1)).toEqual({ n: expected });
  });

  it('returns the updated double from findOneAndUpdate', async () => {
    const c = await fx.fresh('double_find_and_modify');
    await c.insertOne({ _id: 1, n: 4 } as never);
    await c.updateOne({ _id: 1 } as never, { $inc: { n: 1.5 } });
    const doc = await c.findOneAndUpdate(
      { _id: 1 } as never,
      { $inc: { n: 0.5 } },
      { ...RAW, returnDocument: 'after' },
    );
    expect(typed(doc?.n)).toEqual(['double', 6]);
  });
});

describe('integral doubles as arguments', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('double_arguments');
    await c.insertMany([
      { _id: 1, a: 1, arr: [1, 2, 3], d: new Double(3) },
      { _id: 2, a: 2, arr: [4, 5], d: new Double(4) },
      { _id: 3, a: 3, arr: [], d: 0.5 },
    ] as never[]);
  });

  const D = (n: number) => new Double(n);
  it.each<[string, Document, unknown[]]>([
    ['find limit and skip', { find: 'double_arguments', projection: { _id: 1 }, limit: D(1), skip: D(1) }, [2]],
    ['find sort', { find: 'double_arguments', projection: { _id: 1 }, sort: { a: D(-1) } }, [3, 2, 1]],
    [
      'aggregate $sort, $skip, $limit',
      {
        aggregate: 'double_arguments',
        pipeline: [{ $sort: { a: D(-1) } }, { $skip: D(1) }, { $limit: D(1) }, { $project: { _id: 1 } }],
        cursor: {},
      },
      [2],
    ],
    [
      '$project inclusion flag',
      { aggregate: 'double_arguments', pipeline: [{ $project: { _id: 0, a: D(1) } }], cursor: {} },
      [{ a: 1 }, { a: 2 }, { a: 3 }],
    ],
    [
      '$arrayElemAt, $slice index',
      {
        aggregate: 'double_arguments',
        pipeline: [{ $project: { _id: 0, x: { $arrayElemAt: ['$arr', D(0)] }, y: { $slice: ['$arr', D(1)] } } }],
        cursor: {},
      },
      [{ x: 1, y: [1] }, { x: 4, y: [4] }, { y: [] }],
    ],
    [
      '$toString and $in of a stored double',
      {
        aggregate: 'double_arguments',
        pipeline: [{ $project: { _id: 0, s: { $toString: '$d' }, i: { $in: ['$d', [3, 4]] } } }],
        cursor: {},
      },
      [
        { s: '3', i: true },
        { s: '4', i: true },
        { s: '0.5', i: false },
      ],
    ],
  ])('%s', async (_name, command, expected) => {
    const reply = await fx.db.command(command);
    const docs = (reply.cursor as { firstBatch: Document[] }).firstBatch;
    expect(docs.map((doc) => (Object.keys(doc).length === 1 && '_id' in doc ? doc._id : doc))).toEqual(expected);
  });

  it('seeds an upsert with the double of its filter', async () => {
    const u = await fx.fresh('double_upsert');
    await u.updateOne({ _id: 1, v: new Double(5) } as never, { $set: { w: 1 } }, { upsert: true });
    expect(await fields(u, 1)).toEqual({ v: ['double', 5], w: ['int', 1] });
  });
});

describe('aggregation gives MongoDB numeric result types', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('double_aggregation');
    await c.insertMany([
      { _id: 1, g: 'ints', i: 2, d: new Double(4) },
      { _id: 2, g: 'ints', i: 4, d: new Double(6) },
      { _id: 3, g: 'mixed', i: 3, d: 0.5 },
      { _id: 4, g: 'mixed', i: new Double(1), d: 0.5 },
    ] as never[]);
  });

  it.each<[string, unknown, [string, number]]>([
    ['$add of int32 and a double', { $add: ['$i', '$d'] }, ['double', 6]],
    ['$add of int32s', { $add: ['$i', 1] }, ['int', 3]],
    ['$subtract of doubles', { $subtract: ['$d', new Double(1)] }, ['double', 3]],
    ['$multiply by a double', { $multiply: ['$i', new Double(2)] }, ['double', 4]],
    ['$multiply of int32s', { $multiply: ['$i', 3] }, ['int', 6]],
    ['$divide of int32s', { $divide: ['$d', '$i'] }, ['double', 2]],
    ['$floor of a double', { $floor: { $add: ['$d', 0.5] } }, ['double', 4]],
    ['$abs of int32', { $abs: '$i' }, ['int', 2]],
    ['$sum of an array of int32 and a double', { $sum: ['$i', '$d'] }, ['double', 6]],
    ['$avg of an array of int32', { $avg: ['$i', 4] }, ['double', 3]],
    ['a copied double', '$d', ['double', 4]],
  ])('%s', async (_name, expression, expected) => {
    const [doc] = await c.aggregate([{ $match: { _id: 1 } }, { $project: { _id: 0, v: expression } }], RAW).toArray();
    expect(typed(doc?.v)).toEqual(expected);
  });

  it('$group: $sum of int32 stays int32, of doubles is a double; $avg is a double', async () => {
    const docs = await c
      .aggregate(
        [
          { $group: { _id: '$g', si: { $sum: '$i' }, sd: { $sum: '$d' }, ai: { $avg: '$i' }, n: { $sum: 1 } } },
          { $sort: { _id: 1 } },
        ],
        RAW,
      )
      .toArray();
    expect(docs.map((doc) => [doc._id, typed(doc.si), typed(doc.sd), typed(doc.ai), typed(doc.n)])).toEqual([
      ['ints', ['int', 6], ['double', 10], ['double', 3], ['int', 2]],
      ['mixed', ['double', 4], ['double', 1], ['double', 2], ['int', 2]],
    ]);
  });

  it('$group: $sum of int32 past its range is an Int64', async () => {
    const g = await fx.fresh('double_sum_overflow');
    await g.insertMany([
      { _id: 1, n: 2 ** 31 - 1 },
      { _id: 2, n: 1 },
    ] as never[]);
    const [doc] = await g.aggregate([{ $group: { _id: null, s: { $sum: '$n' } } }], RAW).toArray();
    expect(typed(doc?.s)).toEqual(['long', 2 ** 31]);
  });
});

describe('mongoose', () => {
  it('round-trips a Number as int32 when integral, a Double field as a double', async () => {
    await fx.fresh('double_mongoose');
    const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
    try {
      const schema = new mongoose.Schema(
        { n: Number, f: Number, d: mongoose.Schema.Types.Double },
        { collection: 'double_mongoose' },
      );
      const Item = conn.model('DoubleItem', schema);
      const { _id } = await Item.create({ n: 5, f: 5.5, d: 5 });
      const raw = await conn.db!.collection('double_mongoose').findOne({ _id }, RAW);
      expect([typed(raw?.n), typed(raw?.f), typed(raw?.d)]).toEqual([
        ['int', 5],
        ['double', 5.5],
        ['double', 5],
      ]);
      expect(await Item.countDocuments({ d: { $type: 'double' } })).toBe(1);
      const found = await Item.findById(_id).orFail();
      expect(found.d).toBeInstanceOf(mongoose.Types.Double);
      expect(found.d?.valueOf()).toBe(5);
      await Item.updateOne({ _id }, { $inc: { n: 1, d: 1 } });
      const after = await conn.db!.collection('double_mongoose').findOne({ _id }, RAW);
      expect([typed(after?.n), typed(after?.d)]).toEqual([
        ['int', 6],
        ['double', 6],
      ]);
    } finally {
      await conn.close();
    }
  });
});
