/**
 * Conformance: BSON comparison order, numeric types across int32 / Int64 /
 * double / Decimal128, and `$inc`'s numeric type rules — observed only
 * through the driver (works against a real MongoDB via MONGO_URL).
 */
import { type Collection, Decimal128, Double, Int32, Long, ObjectId } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const MIXED = [
  { _id: 'int3', v: new Int32(3) },
  { _id: 'longBig', v: Long.fromString('9007199254740993') },
  { _id: 'double2.5', v: new Double(2.5) },
  { _id: 'dec2.75', v: Decimal128.fromString('2.75') },
  { _id: 'long1', v: Long.fromNumber(1) },
  { _id: 'decNeg', v: Decimal128.fromString('-1E+2') },
  { _id: 'doubleBig', v: new Double(9007199254740992) },
  { _id: 'long10', v: Long.fromNumber(10) },
  { _id: 'int9', v: new Int32(9) },
];

describe('numeric order across types', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('numbers');
    await c.insertMany(MIXED.map((d) => ({ ...d })) as never[]);
  });

  it('sorts by value ascending and descending', async () => {
    const asc = ['decNeg', 'long1', 'double2.5', 'dec2.75', 'int3', 'int9', 'long10', 'doubleBig', 'longBig'];
    expect((await c.find().sort({ v: 1 }).toArray()).map((d) => d._id)).toEqual(asc);
    expect((await c.find().sort({ v: -1 }).toArray()).map((d) => d._id)).toEqual([...asc].reverse());
    const agg = await c.aggregate([{ $sort: { v: 1 } }, { $project: { _id: 1 } }]).toArray();
    expect(agg.map((d) => d._id)).toEqual(asc);
  });

  it.each([
    ['$gte Decimal128 2.5 and $lt 3', { $gte: Decimal128.fromString('2.5'), $lt: 3 }, ['double2.5', 'dec2.75']],
    ['$gt Long beyond 2^53 is exact', { $gt: Long.fromString('9007199254740992') }, ['longBig']],
    ['$eq matches equal values of any type', { $eq: 10 }, ['long10']],
    ['$in mixes types', { $in: [Decimal128.fromString('3'), Long.fromNumber(9), 1.0] }, ['int3', 'long1', 'int9']],
    ['$lte a double', { $lte: 1 }, ['long1', 'decNeg']],
    [
      '$ne excludes by value',
      { $ne: Decimal128.fromString('1.0') },
      MIXED.map((d) => d._id).filter((id) => id !== 'long1'),
    ],
  ])('%s', async (_label, condition, expected) => {
    const ids = (await c.find({ v: condition }).toArray()).map((d) => d._id);
    expect(ids.sort()).toEqual([...expected].sort());
  });
});

describe('cross-type order', () => {
  it('sorts null < numbers < strings < objects < ObjectId < booleans < dates', async () => {
    const c = await fx.fresh('types');
    const docs = [
      { _id: 'date', v: new Date(0) },
      { _id: 'bool', v: false },
      { _id: 'oid', v: new ObjectId('000000000000000000000001') },
      { _id: 'object', v: { a: 1 } },
      { _id: 'string', v: 'a' },
      { _id: 'number', v: 5 },
      { _id: 'null', v: null },
    ];
    await c.insertMany(docs as never[]);
    const asc = (await c.find().sort({ v: 1 }).toArray()).map((d) => d._id);
    expect(asc).toEqual(['null', 'number', 'string', 'object', 'oid', 'bool', 'date']);
    // Type bracketing: a numeric range never matches strings or dates.
    expect((await c.find({ v: { $gt: 0 } }).toArray()).map((d) => d._id)).toEqual(['number']);
  });

  it('compares strings by UTF-8 bytes, not locale', async () => {
    const c = await fx.fresh('strings');
    await c.insertMany(['b', 'B', 'a', 'é', '\u{1F600}', '\uFFFD'].map((v) => ({ v })));
    const sorted = (await c.find().sort({ v: 1 }).toArray()).map((d) => d.v);
    expect(sorted).toEqual(['B', 'a', 'b', 'é', '\uFFFD', '\u{1F600}']);
  });
});

describe('$inc numeric type rules', () => {
  const raw = { promoteValues: false } as const;

  it.each([
    ['int32 + int32 stays int32', new Int32(1), new Int32(1), Int32, '2'],
    ['int32 overflow becomes Int64', new Int32(2147483647), new Int32(1), Long, '2147483648'],
    ['Int64 + int32 is Int64', Long.fromNumber(5), new Int32(1), Long, '6'],
    ['Int64 beyond 2^53 stays exact', Long.fromString('9007199254740993'), new Int32(1), Long, '9007199254740994'],
    ['double + int32 is double', new Double(1.5), new Int32(1), Double, '2.5'],
    ['int32 + Int64 is Int64', new Int32(7), Long.fromNumber(1), Long, '8'],
  ])('%s', async (_label, start, amount, type, expected) => {
    const c = await fx.fresh('inc');
    await c.insertOne({ _id: 1 as never, n: start });
    await c.updateOne({ _id: 1 as never }, { $inc: { n: amount as never } });
    const doc = await c.findOne({ _id: 1 as never }, raw);
    expect(doc?.n).toBeInstanceOf(type);
    expect(String((doc?.n as { valueOf(): unknown }).toString())).toBe(expected);
  });

  it('counts exactly past 2^53 with Long increments', async () => {
    const c = await fx.fresh('bigcounter');
    await c.insertOne({ _id: 'seq' as never, n: Long.fromString('9007199254740990') });
    for (let i = 0; i < 10; i++) {
      await c.findOneAndUpdate({ _id: 'seq' as never }, { $inc: { n: Long.fromNumber(1) } });
    }
    const doc = await c.findOne({ _id: 'seq' as never }, { useBigInt64: true });
    expect(doc?.n).toBe(9007199254741000n);
  });

  it('rejects $inc on a string with TypeMismatch (14)', async () => {
    const c = await fx.fresh('incbad');
    await c.insertOne({ _id: 1 as never, n: 'x' });
    const error = await c.updateOne({ _id: 1 as never }, { $inc: { n: 1 } as never }).catch((e: unknown) => e);
    expect((error as { code?: number }).code).toBe(14);
  });
});
