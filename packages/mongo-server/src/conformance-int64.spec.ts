/**
 * Conformance: Int64 values (driver `useBigInt64: true`, or `Long`) in
 * query filters, in the update operators that compare ($max, $min,
 * $addToSet, sorting $push) and in $group — observed only through the
 * driver, so it passes unchanged against a real MongoDB (MONGO_URL).
 */
import { type Collection, Decimal128, Double, Long } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ client: { useBigInt64: true } });

/** The stored value and its BSON type as the driver decodes it (`useBigInt64`). */
async function field(c: Collection, id: string, path = 'n'): Promise<[string, string]> {
  const doc = await c.findOne({ _id: id as never });
  const value: unknown = path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], doc);
  const type = typeof value === 'bigint' ? 'long' : value instanceof Decimal128 ? 'decimal' : typeof value;
  return [type, String(value)];
}

describe('Int64 in query filters', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('int64_filters');
    await c.insertMany([
      { _id: 'a', n: 51n, b: 0n, arr: [0n, 1n, 2], docs: [{ v: 0n }, { v: 5 }] },
      { _id: 'i', n: 7, b: 0 },
    ] as never[]);
  });

  it.each([
    ['implicit $eq', { _id: 'a', b: 0n }],
    ['$eq', { _id: 'a', b: { $eq: 0n } }],
    ['$in', { _id: 'a', b: { $in: [0n, 'x'] } }],
    ['$gt', { _id: 'a', n: { $gt: 1n } }],
    ['$gte with a Long', { _id: 'a', n: { $gte: Long.fromNumber(51) } }],
    ['Long equality', { _id: 'a', b: Long.fromNumber(0) }],
    ['$nin', { _id: 'a', b: { $nin: [1n, 2n] } }],
    ['$all', { _id: 'a', arr: { $all: [0, 1n, 2n] } }],
    ['$elemMatch', { _id: 'a', docs: { $elemMatch: { v: { $lte: 0n } } } }],
    ['$and / $or', { $and: [{ _id: 'a' }, { $or: [{ b: 1n }, { b: 0n }] }] }],
    ['$expr', { _id: 'a', $expr: { $eq: ['$b', 0n] } }],
  ])('finds with %s', async (_name, filter) => {
    expect(await c.findOne(filter as never)).toMatchObject({ _id: 'a' });
  });

  it('matches numbers by value across int32, Int64, double and Decimal128', async () => {
    const ids = async (filter: object) => (await c.find(filter as never).toArray()).map((d) => String(d._id)).sort();
    for (const zero of [0, 0n, new Double(0), Long.fromNumber(0), Decimal128.fromString('0.0')]) {
      expect(await ids({ b: zero })).toEqual(['a', 'i']);
      expect(await ids({ b: { $in: [zero] } })).toEqual(['a', 'i']);
    }
    expect(await ids({ n: { $gt: 6n, $lt: new Double(51.5) } })).toEqual(['a', 'i']);
    expect(await ids({ n: Decimal128.fromString('51') })).toEqual(['a']);
  });

  it('accepts Int64 in update, findAndModify, positional, arrayFilters and $pull filters', async () => {
    const u = await fx.fresh('int64_write_filters');
    await u.insertOne({ _id: 'a', b: 0n, arr: [0n, 1n, 2], docs: [{ v: 0n }, { v: 5 }] } as never);
    expect(await u.updateOne({ _id: 'a', b: 0n } as never, { $set: { t: 1 } })).toMatchObject({ modifiedCount: 1 });
    expect(await u.findOneAndUpdate({ b: { $in: [0n] } } as never, { $set: { t: 2 } })).toMatchObject({ t: 1 });
    await u.updateOne({ _id: 'a', arr: 1n } as never, { $set: { 'arr.$': 'one' } });
    await u.updateOne({ _id: 'a' } as never, { $set: { 'docs.$[d].hit': true } }, { arrayFilters: [{ 'd.v': 0n }] });
    await u.updateOne({ _id: 'a' } as never, { $pull: { arr: 0 } as never });
    await u.updateOne({ _id: 'a' } as never, { $pullAll: { arr: [2n] } as never });
    expect(await u.findOne({ _id: 'a' as never })).toEqual({
      _id: 'a',
      b: 0n,
      arr: ['one'],
      docs: [{ v: 0n, hit: true }, { v: 5 }],
      t: 2,
    });
    expect((await u.deleteMany({ b: { $lte: 0n } })).deletedCount).toBe(1);
  });

  it('accepts Int64 in aggregation $match stages and projection $elemMatch', async () => {
    const later = await c.aggregate([{ $project: { b: 1 } }, { $match: { b: 0n } }, { $sort: { _id: 1 } }]).toArray();
    expect(later.map((d) => d._id)).toEqual(['a', 'i']);
    const joined = await c
      .aggregate([
        { $match: { _id: 'a' } },
        { $lookup: { from: c.collectionName, pipeline: [{ $match: { n: { $lt: 10n } } }], as: 'small' } },
      ])
      .toArray();
    expect(joined[0]!.small.map((d: { _id: string }) => d._id)).toEqual(['i']);
    const projected = await c.findOne({ _id: 'a' as never }, { projection: { docs: { $elemMatch: { v: 0n } } } });
    expect(projected).toEqual({ _id: 'a', docs: [{ v: 0n }] });
  });
});

describe('update operators that compare Int64', () => {
  let c: Collection;
  beforeEach(async () => {
    c = await fx.fresh('int64_updates');
  });

  it.each([
    ['$max', 51n, 1000n, ['long', '1000']],
    ['$max', 30n, 100n, ['long', '100']],
    ['$max', 5n, 7, ['number', '7']],
    ['$max', 5n, 5, ['long', '5']],
    ['$max', 9n, new Double(8.5), ['long', '9']],
    ['$max', 51n, Decimal128.fromString('51.5'), ['decimal', '51.5']],
    ['$max', 5, 10n, ['long', '10']],
    ['$max', 2n ** 62n, 2n ** 62n + 1n, ['long', String(2n ** 62n + 1n)]],
    ['$min', 1000n, 51n, ['long', '51']],
    ['$min', 100n, 30n, ['long', '30']],
    ['$min', 5n, 3, ['number', '3']],
    ['$min', 5n, new Double(5.5), ['long', '5']],
    ['$min', 10, 9n, ['long', '9']],
    ['$max', 5n, 'text', ['string', 'text']],
    ['$min', 5n, null, ['object', 'null']],
  ])('%s from %p with %p keeps the winner and its type', async (op, from, arg, expected) => {
    await c.insertOne({ _id: 'm', n: from } as never);
    await c.updateOne({ _id: 'm' } as never, { [op]: { n: arg } });
    expect(await field(c, 'm')).toEqual(expected);
  });

  it('$max/$min/$inc create a missing field and reach positional and arrayFilters paths', async () => {
    await c.insertOne({ _id: 'm', arr: [3n, 30n], docs: [{ q: 9n }, { q: 100n }] } as never);
    await c.updateOne({ _id: 'm' } as never, { $max: { 'sub.n': 10n }, $min: { low: 4n } });
    expect(await field(c, 'm', 'sub.n')).toEqual(['long', '10']);
    expect(await field(c, 'm', 'low')).toEqual(['long', '4']);
    await c.updateOne({ _id: 'm', arr: 3n } as never, { $max: { 'arr.$': 10n } });
    await c.updateOne(
      { _id: 'm' } as never,
      { $max: { 'docs.$[d].q': 10n } },
      { arrayFilters: [{ 'd.q': { $lt: 50n } }] },
    );
    await c.updateOne({ _id: 'm' } as never, { $min: { 'docs.$[].q': 99n } });
    await c.updateOne({ _id: 'm', 'docs.q': 99n } as never, { $inc: { 'docs.$.q': 1n } });
    expect(await c.findOne({ _id: 'm' as never })).toMatchObject({
      arr: [10n, 30n],
      docs: [{ q: 10n }, { q: 100n }],
    });
  });

  it('$addToSet treats numbers equal by value, as $each does within itself', async () => {
    await c.insertOne({ _id: 's', arr: [1n, 2], docs: [{ k: 1n }] } as never);
    const r = await c.updateOne({ _id: 's' } as never, {
      $addToSet: { arr: { $each: [1, 2n, 3n, 3, new Double(3)] }, docs: { k: 1 } } as never,
    });
    expect(r.modifiedCount).toBe(1);
    expect(await c.findOne({ _id: 's' as never })).toEqual({ _id: 's', arr: [1n, 2, 3n], docs: [{ k: 1n }] });
    const again = await c.updateOne({ _id: 's' } as never, { $addToSet: { arr: Long.fromNumber(3) } as never });
    expect(again.modifiedCount).toBe(0);
  });

  it('$push with $sort orders Int64 by value (scalars and embedded fields) before $slice', async () => {
    await c.insertOne({ _id: 'p', arr: [5n], docs: [{ v: 100n }] } as never);
    await c.updateOne({ _id: 'p' } as never, {
      $push: {
        arr: { $each: [10n, 9n, 1, new Double(9.5)], $sort: 1 },
        docs: { $each: [{ v: 9n }, { v: 1000n }, { v: 20 }], $sort: { v: -1 }, $slice: 3 },
      } as never,
    });
    expect(await c.findOne({ _id: 'p' as never })).toEqual({
      _id: 'p',
      arr: [1, 5n, 9n, 9.5, 10n],
      docs: [{ v: 1000n }, { v: 100n }, { v: 20 }],
    });
  });

  it('rejects two operators on the same path', async () => {
    await c.insertOne({ _id: 'x', n: 1n } as never);
    await expect(c.updateOne({ _id: 'x' } as never, { $max: { n: 2n }, $set: { n: 3 } })).rejects.toMatchObject({
      code: 40,
    });
    expect(await field(c, 'x')).toEqual(['long', '1']);
  });
});

describe('$group and $min/$max accumulators over Int64', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('int64_group');
    await c.insertMany([
      { _id: 1, k: 1, v: 9n },
      { _id: 2, k: 1n, v: 10n },
      { _id: 3, k: new Double(1), v: 100 },
      { _id: 4, k: 10n, v: 2n },
      { _id: 5, k: 9n, v: null },
    ] as never[]);
  });

  it('groups numerically equal keys together', async () => {
    const groups = await c.aggregate([{ $group: { _id: '$k', c: { $sum: 1 } } }, { $sort: { _id: 1 } }]).toArray();
    expect(groups.map((g) => [Number(g._id), g.c])).toEqual([
      [1, 3],
      [9, 1],
      [10, 1],
    ]);
  });

  it('takes $max/$min in BSON order, ignoring null', async () => {
    const [all] = await c
      .aggregate([{ $group: { _id: null, mx: { $max: '$v' }, mn: { $min: '$v' }, mk: { $max: '$k' } } }])
      .toArray();
    expect(all).toEqual({ _id: null, mx: 100, mn: 2n, mk: 10n });
    const [expr] = await c
      .aggregate([{ $match: { _id: 2 } }, { $project: { _id: 0, top: { $max: ['$v', 9n, 2] } } }])
      .toArray();
    expect(expr).toEqual({ top: 10n });
  });
});
