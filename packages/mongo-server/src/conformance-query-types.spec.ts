/**
 * Conformance: the element and evaluation query operators that look at a
 * value's BSON type or do integer arithmetic ($type, $mod, $size), the
 * `_id` operators the sample app pages with, and aggregation `$project`
 * field order — observed only through the driver, so it passes unchanged
 * against a real MongoDB (MONGO_URL).
 */
import {
  Binary,
  Code,
  type Collection,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  MongoServerError,
  ObjectId,
  Timestamp,
} from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ client: { useBigInt64: true } });

const OID = new ObjectId('65a000000000000000000001');

async function ids(c: Collection, filter: object): Promise<string[]> {
  return (await c.find(filter as never).toArray()).map((d) => String(d._id)).sort();
}

async function rejectCode(c: Collection, filter: object): Promise<unknown> {
  const error: unknown = await c
    .find(filter as never)
    .toArray()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(MongoServerError);
  return (error as MongoServerError).code;
}

describe('$type', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('query_types');
    await c.insertMany([
      { _id: 'double', v: 1.5 },
      { _id: 'string', v: 'x' },
      { _id: 'object', v: { a: 1 } },
      { _id: 'emptyArray', v: [] },
      { _id: 'binData', v: new Binary(Buffer.from([1, 2, 3])) },
      { _id: 'objectId', v: OID },
      { _id: 'bool', v: false },
      { _id: 'date', v: new Date(0) },
      { _id: 'null', v: null },
      { _id: 'regex', v: /ab+c/i },
      { _id: 'javascript', v: new Code('function () { return 1; }') },
      { _id: 'int', v: new Int32(7) },
      { _id: 'timestamp', v: new Timestamp({ t: 1, i: 1 }) },
      { _id: 'long', v: 7n },
      { _id: 'decimal', v: Decimal128.fromString('7.5') },
      { _id: 'minKey', v: new MinKey() },
      { _id: 'maxKey', v: new MaxKey() },
      { _id: 'missing' },
    ] as never[]);
  });

  it.each([
    ['double', 1, ['double']],
    ['string', 2, ['string']],
    ['object', 3, ['object']],
    ['array', 4, ['emptyArray']],
    ['binData', 5, ['binData']],
    ['undefined', 6, []],
    ['objectId', 7, ['objectId']],
    ['bool', 8, ['bool']],
    ['date', 9, ['date']],
    ['null', 10, ['null']],
    ['regex', 11, ['regex']],
    ['javascript', 13, ['javascript']],
    ['int', 16, ['int']],
    ['timestamp', 17, ['timestamp']],
    ['long', 18, ['long']],
    ['decimal', 19, ['decimal']],
    ['minKey', -1, ['minKey']],
    ['maxKey', 127, ['maxKey']],
  ])('%s (%i) matches exactly its own type', async (alias, code, expected) => {
    expect(await ids(c, { v: { $type: alias } })).toEqual(expected);
    expect(await ids(c, { v: { $type: code } })).toEqual(expected);
  });

  it("matches all four numeric types with 'number', and arrays of types", async () => {
    expect(await ids(c, { v: { $type: 'number' } })).toEqual(['decimal', 'double', 'int', 'long']);
    expect(await ids(c, { v: { $type: ['string', 'objectId'] } })).toEqual(['objectId', 'string']);
    expect(await ids(c, { v: { $type: [2, 'null', 18n] } })).toEqual(['long', 'null', 'string']);
    // The numeric code may itself be any numeric BSON type.
    expect(await ids(c, { v: { $type: Long.fromNumber(7) } })).toEqual(['objectId']);
    expect(await ids(c, { v: { $type: new Double(7) } })).toEqual(['objectId']);
  });

  it('works on _id, in $not, $or, $elemMatch and an aggregation $match', async () => {
    const k = await fx.fresh('query_types_ids');
    await k.insertMany([{ _id: OID }, { _id: 'text' }, { _id: 5 }, { _id: 6n }] as never[]);
    expect(await ids(k, { _id: { $type: 'objectId' } })).toEqual([String(OID)]);
    expect(await ids(k, { _id: { $type: 7 } })).toEqual([String(OID)]);
    expect(await ids(k, { _id: { $not: { $type: 'objectId' } } })).toEqual(['5', '6', 'text']);
    expect(await ids(k, { $or: [{ _id: { $type: 'long' } }, { _id: { $type: 'string' } }] })).toEqual(['6', 'text']);
    const agg = await k.aggregate([{ $match: { _id: { $type: 'number' } } }, { $sort: { _id: 1 } }]).toArray();
    expect(agg.map((d) => Number(d._id))).toEqual([5, 6]);
    expect(await ids(c, { v: { $not: { $type: 'number' } }, _id: { $in: ['int', 'string', 'missing'] } })).toEqual([
      'missing',
      'string',
    ]);
    const arrays = await fx.fresh('query_types_elem');
    await arrays.insertMany([
      { _id: 'oids', list: ['a', OID] },
      { _id: 'strings', list: ['a', 'b'] },
    ] as never[]);
    expect(await ids(arrays, { list: { $elemMatch: { $type: 'objectId' } } })).toEqual(['oids']);
  });

  it('matches an array field itself for "array" and by any element for other types', async () => {
    const a = await fx.fresh('query_types_arrays');
    await a.insertMany([
      { _id: 'mixed', v: ['s', OID] },
      { _id: 'nested', v: [[new Int32(1)]] },
      { _id: 'scalar', v: new Int32(1) },
      { _id: 'docs', v: [{ k: 'x' }, { k: new Int32(1) }, { k: [OID] }] },
    ] as never[]);
    expect(await ids(a, { v: { $type: 'array' } })).toEqual(['docs', 'mixed', 'nested']);
    expect(await ids(a, { v: { $type: 'string' } })).toEqual(['mixed']);
    expect(await ids(a, { v: { $type: ['objectId'] } })).toEqual(['mixed']);
    // Only one level of array is looked into: [[1]] holds an array, not an int.
    expect(await ids(a, { v: { $type: 'int' } })).toEqual(['scalar']);
    expect(await ids(a, { v: { $type: 'object' } })).toEqual(['docs']);
    // Through an array of sub-documents: the reached values, not the outer array.
    expect(await ids(a, { 'v.k': { $type: 'string' } })).toEqual(['docs']);
    expect(await ids(a, { 'v.k': { $type: 'int' } })).toEqual(['docs']);
    expect(await ids(a, { 'v.k': { $type: 'objectId' } })).toEqual(['docs']);
    expect(await ids(a, { 'v.k': { $type: 'array' } })).toEqual(['docs']);
    expect(await ids(a, { 'v.0': { $type: 'string' } })).toEqual(['mixed']);
    expect(await ids(a, { 'v.0.k': { $type: 'string' } })).toEqual(['docs']);
  });

  it('documents what holds for integral doubles (the embedded server stores them as int32)', async () => {
    // A real MongoDB keeps Double(2) a double; the embedded server decodes it to
    // the JS number 2 and re-encodes that as int32, so only type-agnostic
    // checks are asserted here: it is a number, and one of int/double.
    const d = await fx.fresh('query_types_doubles');
    await d.insertMany([
      { _id: 'two', v: new Double(2) },
      { _id: 'half', v: new Double(2.5) },
    ] as never[]);
    expect(await ids(d, { v: { $type: 'number' } })).toEqual(['half', 'two']);
    expect(await ids(d, { v: { $type: ['int', 'double'] } })).toEqual(['half', 'two']);
    expect(await ids(d, { v: { $type: 'double' }, _id: 'half' })).toEqual(['half']);
    expect(await ids(d, { v: { $type: 'long' } })).toEqual([]);
  });

  it('reports BSON types from the $type aggregation expression', async () => {
    const out = await c
      .aggregate([
        { $match: { _id: { $in: ['objectId', 'long', 'int', 'decimal', 'missing', 'binData', 'timestamp'] } } },
        { $project: { t: { $type: '$v' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(out.map((d) => [d._id, d.t])).toEqual([
      ['binData', 'binData'],
      ['decimal', 'decimal'],
      ['int', 'int'],
      ['long', 'long'],
      ['missing', 'missing'],
      ['objectId', 'objectId'],
      ['timestamp', 'timestamp'],
    ]);
  });

  it.each([
    ['an unknown alias', { $type: 'objectid' }],
    ['an unknown number', { $type: 99 }],
    ['an unknown alias in an array', { $type: ['string', 'nope'] }],
  ])('rejects %s with BadValue', async (_name, condition) => {
    expect(await rejectCode(c, { v: condition })).toBe(2);
  });
});

describe('$mod and $size with any numeric argument type', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('query_mod_size');
    await c.insertMany([
      { _id: 'long10', n: 10n, arr: [1n, 2n] },
      { _id: 'int7', n: new Int32(7), arr: [1, [2, 3]] },
      { _id: 'double7.9', n: 7.9, arr: [] },
      { _id: 'decimal11', n: Decimal128.fromString('11.5'), arr: [[1, 2]] },
      { _id: 'text', n: 'x', arr: 'ab' },
      { _id: 'array', n: [new Int32(1), 15n], arr: [{ tags: ['a', 'b'] }] },
      { _id: 'negative', n: -5n },
      { _id: 'big', n: 2n ** 62n + 3n },
    ] as never[]);
  });

  it.each([
    ['int32', 4, 3],
    ['bigint', 4n, 3n],
    ['Long', Long.fromNumber(4), Long.fromNumber(3)],
    ['Double', new Double(4), new Double(3)],
    ['fractional doubles (truncated)', 4.9, 3.2],
  ])('$mod with %s arguments matches by value', async (_name, divisor, remainder) => {
    expect(await ids(c, { n: { $mod: [divisor, remainder] } })).toEqual([
      'array',
      'big',
      'decimal11',
      'double7.9',
      'int7',
    ]);
  });

  it('$mod computes in Int64: large values, negative dividends and zero remainders', async () => {
    expect(await ids(c, { n: { $mod: [Long.fromNumber(4), Long.fromNumber(0)] } })).toEqual([]);
    expect(await ids(c, { n: { $mod: [5n, 0n] } })).toEqual(['array', 'long10', 'negative']);
    expect(await ids(c, { n: { $mod: [4n, -1n] } })).toEqual(['negative']);
    expect(await ids(c, { n: { $mod: [2n ** 62n, 3n] } })).toEqual(['big']);
    expect(await ids(c, { _id: 'long10', $and: [{ n: { $mod: [Long.fromNumber(4), Long.fromNumber(2)] } }] })).toEqual([
      'long10',
    ]);
  });

  it.each([
    ['not an array', 4],
    ['one element', [4]],
    ['three elements', [4, 0, 1]],
    ['a zero divisor', [0n, 0]],
    ['a non-numeric divisor', ['4', 0]],
  ])('$mod rejects %s with BadValue', async (_name, spec) => {
    expect(await rejectCode(c, { n: { $mod: spec } })).toBe(2);
  });

  it.each([
    ['int32', 2],
    ['bigint', 2n],
    ['Long', Long.fromNumber(2)],
    ['Double', new Double(2)],
  ])('$size with %s matches arrays of that length only', async (_name, size) => {
    expect(await ids(c, { arr: { $size: size } })).toEqual(['int7', 'long10']);
  });

  it('$size counts the array itself, not nested ones, and reaches through sub-documents', async () => {
    expect(await ids(c, { arr: { $size: Long.fromNumber(0) } })).toEqual(['double7.9']);
    expect(await ids(c, { arr: { $size: 1n } })).toEqual(['array', 'decimal11']);
    expect(await ids(c, { 'arr.tags': { $size: 2n } })).toEqual(['array']);
    expect(await ids(c, { arr: { $not: { $size: 2n } }, _id: { $in: ['long10', 'text'] } })).toEqual(['text']);
  });

  it.each([
    ['a negative size', -1],
    ['a fractional size', 1.5],
    ['a string', '2'],
  ])('$size rejects %s with BadValue', async (_name, size) => {
    expect(await rejectCode(c, { arr: { $size: size } })).toBe(2);
  });
});

describe('aggregation $project field order', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('query_project_order');
    await c.insertOne({ _id: 'p', b: 1, a: 2, sub: { z: 1, y: 2, x: 3 }, c: 3 } as never);
  });

  it('keeps _id first and the input order for included fields, then computed ones', async () => {
    const [doc] = await c
      .aggregate([{ $project: { c: 1, a: 1, sum: { $add: ['$a', '$b'] }, 'sub.x': 1, 'sub.z': 1 } }])
      .toArray();
    expect(Object.keys(doc!)).toEqual(['_id', 'a', 'sub', 'c', 'sum']);
    expect(Object.keys(doc!.sub)).toEqual(['z', 'x']);
    expect(doc).toEqual({ _id: 'p', a: 2, sub: { z: 1, x: 3 }, c: 3, sum: 3 });
  });

  it('honours _id exclusion and exclusion projections, and $addFields keeps positions', async () => {
    const [included] = await c.aggregate([{ $project: { _id: 0, c: 1, a: 1, b: 1 } }]).toArray();
    expect(Object.keys(included!)).toEqual(['b', 'a', 'c']);
    const [excluded] = await c.aggregate([{ $project: { a: 0, sub: 0 } }]).toArray();
    expect(Object.keys(excluded!)).toEqual(['_id', 'b', 'c']);
    const [added] = await c.aggregate([{ $addFields: { a: 'new', z: 1 } }]).toArray();
    expect(Object.keys(added!)).toEqual(['_id', 'b', 'a', 'sub', 'c', 'z']);
    const [literal] = await c.aggregate([{ $project: { z: { $literal: 0 }, b: 1 } }]).toArray();
    expect(Object.keys(literal!)).toEqual(['_id', 'b', 'z']);
    const [explicitId] = await c.aggregate([{ $project: { a: 1, _id: 1 } }]).toArray();
    expect(Object.keys(explicitId!)).toEqual(['_id', 'a']);
  });
});

describe('_id and null/array operators the sample app relies on', () => {
  let c: Collection;
  const oids = Array.from({ length: 6 }, (_, i) => new ObjectId(`65a0000000000000000000${String(i + 10)}`));
  beforeAll(async () => {
    c = await fx.fresh('query_id_operators');
    // Inserted out of order so sort() has work to do.
    await c.insertMany(
      [3, 0, 5, 1, 4, 2].map((i) => ({
        _id: oids[i]!,
        i,
        n: [new Int32(1), 2n, new Double(3.5), Decimal128.fromString('4')][i % 4],
        owner: i % 2 === 0 ? oids[0] : null,
        refs: i < 3 ? [oids[i]!, oids[5]!] : [],
        ...(i === 5 ? {} : { opt: i }),
      })) as never[],
    );
  });
  const idx = (docs: readonly object[]) => docs.map((d) => (d as { i?: unknown }).i);

  it('pages with $gt / $gte / $lt on _id, sorted by _id, with limit', async () => {
    const page = (filter: object, limit: number) =>
      c
        .find(filter as never)
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
    expect(idx(await page({}, 2))).toEqual([0, 1]);
    expect(idx(await page({ _id: { $gt: oids[1] } }, 2))).toEqual([2, 3]);
    expect(idx(await page({ _id: { $gte: oids[1], $lt: oids[4] } }, 10))).toEqual([1, 2, 3]);
    expect(idx(await page({ _id: { $gt: oids[3], $lt: oids[5] } }, 2))).toEqual([4]);
    expect(
      idx(
        await c
          .find({ _id: { $lt: oids[3] } })
          .sort({ _id: -1 })
          .limit(2)
          .toArray(),
      ),
    ).toEqual([2, 1]);
    // Type bracketing: a string bound never matches ObjectIds.
    expect(await page({ _id: { $gt: '' } }, 10)).toEqual([]);
  });

  it('$in / $nin on _id and with mixed numeric types', async () => {
    const byIn = await c
      .find({ _id: { $in: [oids[4], oids[1], new ObjectId()] } })
      .sort({ _id: 1 })
      .toArray();
    expect(idx(byIn)).toEqual([1, 4]);
    const byNin = await c
      .find({ _id: { $nin: [oids[0], oids[2]] } })
      .sort({ _id: 1 })
      .toArray();
    expect(idx(byNin)).toEqual([1, 3, 4, 5]);
    const numeric = await c
      .find({ n: { $in: [new Double(1), Long.fromNumber(2), Decimal128.fromString('3.5'), 4n] } })
      .sort({ i: 1 })
      .toArray();
    expect(idx(numeric)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(
      idx(
        await c
          .find({ n: { $in: [1n, 'x', oids[0]] } })
          .sort({ i: 1 })
          .toArray(),
      ),
    ).toEqual([0, 4]);
    expect(
      idx(
        await c
          .find({ n: { $nin: [1, 4] } })
          .sort({ i: 1 })
          .toArray(),
      ),
    ).toEqual([1, 2, 5]);
    // An ObjectId never equals its hex string.
    expect(await c.countDocuments({ _id: { $in: [oids[0]!.toHexString()] } } as never)).toBe(0);
  });

  it('$exists, $ne: null and $eq: null', async () => {
    expect(idx(await c.find({ opt: { $exists: false } }).toArray())).toEqual([5]);
    expect(await c.countDocuments({ opt: { $exists: true } })).toBe(5);
    expect(
      idx(
        await c
          .find({ owner: { $ne: null } })
          .sort({ i: 1 })
          .toArray(),
      ),
    ).toEqual([0, 2, 4]);
    expect(idx(await c.find({ owner: null }).sort({ i: 1 }).toArray())).toEqual([1, 3, 5]);
    // null matches a missing field too; $exists does not.
    expect(idx(await c.find({ opt: null }).toArray())).toEqual([5]);
    expect(
      idx(
        await c
          .find({ owner: { $nin: [null] } })
          .sort({ i: 1 })
          .toArray(),
      ),
    ).toEqual([0, 2, 4]);
    expect(idx(await c.find({ owner: oids[0] }).sort({ i: 1 }).toArray())).toEqual([0, 2, 4]);
  });

  it('$elemMatch, $all and implicit array equality with ObjectIds', async () => {
    const sorted = (filter: object) =>
      c
        .find(filter as never)
        .sort({ i: 1 })
        .toArray()
        .then(idx);
    expect(await sorted({ refs: { $elemMatch: { $eq: oids[1] } } })).toEqual([1]);
    expect(await sorted({ refs: { $elemMatch: { $in: [oids[0], oids[2]] } } })).toEqual([0, 2]);
    expect(await sorted({ refs: { $elemMatch: { $gt: oids[1], $lt: oids[5] } } })).toEqual([2]);
    expect(await sorted({ refs: oids[5] })).toEqual([0, 1, 2]);
    expect(await sorted({ refs: { $all: [oids[5], oids[2]] } })).toEqual([2]);
    expect(await sorted({ refs: { $size: 0 } })).toEqual([3, 4, 5]);
    expect(await sorted({ refs: { $ne: oids[5] } })).toEqual([3, 4, 5]);
  });
});
