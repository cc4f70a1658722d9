/**
 * Conformance: mongod's one-number expression operators (`$abs`, `$ceil`,
 * `$floor`, `$sqrt`, `$exp`, `$ln`, `$log10`) on every numeric type, with
 * their errors (28765 for a non-number, 28680, 28714, 28766, 28761),
 * arithmetic over Int64 values (exact, widening to a double past the range), the
 * variadic operators' one-operand form (`{ $add: '$n' }`), and `$let`
 * rebinding `CURRENT`. Types are read through the driver with
 * `promoteValues: false`. Written to hold against a real MongoDB 7
 * (MONGO_URL) too, but for the Decimal128 case the embedded server refuses.
 */
import { type Collection, Decimal128, type Document, Double, Long } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';
import { bsonText } from './raw-replies.fixture.js';

const fx = useDriverFixture();

describe('one-number expression operators', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('numeric_operators');
    await c.insertOne({
      _id: 1,
      n: -4,
      intMin: -2147483648,
      long: Long.fromString('-12'),
      longMin: Long.fromString('-9223372036854775808'),
      longMax: Long.fromString('9223372036854775807'),
      big: Long.fromString('9007199254740993'),
      dec: Decimal128.fromString('-4.6'),
      f: -4.5,
      whole: new Double(-3),
      zero: 0,
      s: 'text',
      a: { b: 5, c: [1, 2] },
      b: 'top',
    } as never);
  });

  async function value(expr: unknown): Promise<unknown> {
    const [doc] = await c
      .aggregate([{ $project: { _id: 0, v: expr } }], { promoteValues: false, promoteLongs: false })
      .toArray();
    return bsonText((doc as Document).v);
  }

  async function code(expr: unknown): Promise<unknown> {
    return c
      .aggregate([{ $project: { v: expr } }])
      .toArray()
      .then(
        () => 'no error',
        (error: { code?: unknown; message?: string }) => [error.code, error.message],
      );
  }

  it.each<[string, unknown, unknown]>([
    ['$abs of an int32', { $abs: '$n' }, 'int 4'],
    ['$abs of the int32 minimum (an Int64)', { $abs: '$intMin' }, 'long 2147483648'],
    ['$abs of an Int64', { $abs: '$long' }, 'long 12'],
    ['$abs of a Decimal128', { $abs: '$dec' }, 'decimal 4.6'],
    ['$abs of a double', { $abs: '$f' }, 'double 4.5'],
    ['$abs of an integral double', { $abs: '$whole' }, 'double 3'],
    ['$abs of a one-operand list', { $abs: ['$n'] }, 'int 4'],
    ['$abs of null', { $abs: null }, null],
    ['$abs of a missing field', { $abs: '$missing' }, null],
    ['$ceil of a Decimal128', { $ceil: '$dec' }, 'decimal -4'],
    ['$floor of a Decimal128', { $floor: '$dec' }, 'decimal -5'],
    ['$floor of an Int64', { $floor: '$long' }, 'long -12'],
    ['$ceil of a double', { $ceil: '$f' }, 'double -4'],
    ['$floor of an int32', { $floor: '$n' }, 'int -4'],
    ['$sqrt of an Int64 square', { $sqrt: { $multiply: ['$long', '$long'] } }, 'double 12'],
    ['$exp of 0', { $exp: '$zero' }, 'double 1'],
    ['$ln of NaN', { $ln: Number.NaN }, 'double NaN'],
    ['$log10 of an Int64', { $log10: { $abs: '$long' } }, `double ${Math.log10(12)}`],
  ])('computes %s', async (_label, expr, expected) => {
    expect(await value(expr)).toEqual(expected);
  });

  it.each<[string, unknown, number, string]>([
    ['$abs of a string', { $abs: '$s' }, 28765, '$abs only supports numeric types, not string'],
    ['$ceil of an object', { $ceil: '$a' }, 28765, '$ceil only supports numeric types, not object'],
    ['$exp of an array', { $exp: '$a.c' }, 28765, '$exp only supports numeric types, not array'],
    ['$abs of the Int64 minimum', { $abs: '$longMin' }, 28680, "can't take $abs of long long min"],
    ['$sqrt of a negative', { $sqrt: '$n' }, 28714, "$sqrt's argument must be greater than or equal to 0"],
    ['$ln of a negative', { $ln: '$n' }, 28766, "$ln's argument must be a positive number, but is -4"],
    ['$log10 of 0', { $log10: '$zero' }, 28761, "$log10's argument must be a positive number, but is 0"],
  ])('refuses %s', async (_label, expr, expectedCode, message) => {
    const [actualCode, actualMessage] = (await code(expr)) as [number, string];
    expect(actualCode).toBe(expectedCode);
    expect(actualMessage).toContain(message);
  });

  (process.env.MONGO_URL ? it.skip : it)('refuses $sqrt of a Decimal128 rather than answer in double', async () => {
    expect(await code({ $sqrt: { $abs: '$dec' } })).toEqual([115, expect.stringContaining('$sqrt of a Decimal128')]);
  });

  it.each<[string, unknown, unknown]>([
    ['$add of an Int64 and an int32', { $add: ['$long', 1] }, 'long -11'],
    ['$add past 2^53, exactly', { $add: ['$big', 1] }, 'long 9007199254740994'],
    ['$add of an Int64 and a double', { $add: ['$long', 0.5] }, 'double -11.5'],
    ['$add past the Int64 range (a double)', { $add: ['$longMax', 1] }, `double ${2 ** 63}`],
    ['$subtract', { $subtract: ['$long', '$n'] }, 'long -8'],
    ['$multiply', { $multiply: ['$long', 2] }, 'long -24'],
    ['$multiply past the Int64 range (a double)', { $multiply: ['$longMax', 2] }, `double ${2 ** 64}`],
    ['$divide (a double)', { $divide: ['$long', 4] }, 'double -3'],
    ['$mod, with the sign of the dividend', { $mod: ['$long', 5] }, 'long -2'],
    ['$pow', { $pow: ['$long', 2] }, 'long 144'],
    ['$pow to a negative exponent (a double)', { $pow: ['$long', -1] }, `double ${1 / -12}`],
    ['$round', { $round: ['$long'] }, 'long -12'],
    ['$round to tens, half to even', { $round: [{ $add: ['$long', -3] }, -1] }, 'long -20'],
    ['$trunc to tens', { $trunc: ['$long', -1] }, 'long -10'],
  ])('computes %s of Int64 values', async (_label, expr, expected) => {
    expect(await value(expr)).toEqual(expected);
  });

  it.each<[string, unknown, unknown]>([
    ['$arrayElemAt at an Int64 position', { $arrayElemAt: [[10, 20, 30], { $add: ['$long', 13] }] }, 'int 20'],
    ['$slice of an Int64 count', { $slice: [[10, 20, 30], { $add: ['$long', 14] }] }, ['int 10', 'int 20']],
    ['$range to an Int64 end', { $range: [0, { $add: ['$long', 15] }] }, ['int 0', 'int 1', 'int 2']],
    ['$substrCP from an Int64 index', { $substrCP: ['$b', { $add: ['$long', 13] }, 2] }, 'op'],
  ])('takes whole Int64 and Decimal128 values in %s', async (_label, expr, expected) => {
    expect(await value(expr)).toEqual(expected);
  });

  it('takes Int64 and Decimal128 values as numbers in $stdDevPop', async () => {
    const [doc] = await c
      .aggregate([
        { $project: { _id: 0, v: { $stdDevPop: [{ $add: ['$long', 14] }, 4, { $abs: { $add: ['$dec', -1.4] } }] } } },
      ])
      .toArray();
    // The population deviation of 2, 4 and 6.
    expect((doc as Document).v).toBeCloseTo(Math.sqrt(8 / 3), 12);
  });

  it.each<[string, unknown, number]>([
    ['$mod by zero', { $mod: ['$long', 0] }, 16610],
    ['$divide by zero', { $divide: ['$long', 0] }, 2],
    ['$pow of zero to a negative exponent', { $pow: [{ $multiply: ['$long', 0] }, -1] }, 28764],
  ])('refuses %s of Int64 values', async (_label, expr, expectedCode) => {
    expect(((await code(expr)) as [number])[0]).toBe(expectedCode);
  });

  it.each<[string, unknown, unknown]>([
    ['$add', { $add: '$n' }, 'int -4'],
    ['$multiply', { $multiply: '$long' }, 'long -12'],
    ['$and', { $and: '$n' }, true],
    ['$or', { $or: '$zero' }, false],
    ['$concat', { $concat: '$s' }, 'text'],
  ])('takes a lone operand of %s as a list of one', async (_label, expr, expected) => {
    expect(await value(expr)).toEqual(expected);
  });

  it.each<[string, unknown, unknown]>([
    ['a field of the new CURRENT', { $let: { vars: { CURRENT: '$a' }, in: '$b' } }, 'int 5'],
    ['$$CURRENT itself', { $let: { vars: { CURRENT: '$a.c' }, in: '$$CURRENT' } }, ['int 1', 'int 2']],
    ['$$ROOT, still the document', { $let: { vars: { CURRENT: '$a' }, in: '$$ROOT.b' } }, 'top'],
    ['a $literal "$$ROOT"', { $let: { vars: { CURRENT: '$a' }, in: { $literal: '$$ROOT' } } }, '$$ROOT'],
    [
      'nested rebindings',
      { $let: { vars: { CURRENT: '$a' }, in: { $let: { vars: { CURRENT: '$c' }, in: ['$$CURRENT', '$$ROOT.b'] } } } },
      [['int 1', 'int 2'], 'top'],
    ],
    [
      'another variable beside it',
      { $let: { vars: { CURRENT: '$a', x: '$b' }, in: { $concat: ['$$x', '-', { $toString: '$b' }] } } },
      'top-5',
    ],
  ])('reads %s when $let rebinds CURRENT', async (_label, expr, expected) => {
    expect(await value(expr)).toEqual(expected);
  });
});
