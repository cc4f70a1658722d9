/**
 * Conformance: the bit test query operators ($bitsAllSet, $bitsAllClear,
 * $bitsAnySet, $bitsAnyClear) as MongoDB documents them: a mask given as bit
 * positions, a number or BinData; values that are integral numbers of any
 * numeric type (two's complement, sign-extended) or BinData; nothing else
 * matches. Observed through the driver only, so it passes unchanged against
 * a real MongoDB (MONGO_URL).
 * @see https://www.mongodb.com/docs/manual/reference/operator/query-bitwise/
 */
import { Binary, type Collection, Decimal128, Double, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ client: { useBigInt64: true } });
let c: Collection<{ _id: string; a?: unknown }>;

beforeAll(async () => {
  c = (await fx.fresh('bit_tests')) as unknown as Collection<{ _id: string; a?: unknown }>;
  await c.insertMany([
    { _id: 'int 5', a: 5 },
    { _id: 'int 2', a: 2 },
    { _id: 'long 5', a: Long.fromNumber(5) },
    { _id: 'decimal 5', a: Decimal128.fromString('5') },
    { _id: 'double 5.0', a: new Double(5) },
    { _id: 'double 5.5', a: 5.5 },
    { _id: 'NaN', a: Number.NaN },
    { _id: 'double 2^63', a: 2 ** 63 },
    { _id: 'int -1', a: -1 },
    { _id: 'long -6', a: Long.fromNumber(-6) },
    { _id: 'binData 05', a: new Binary(Buffer.from([0x05])) },
    { _id: 'binData 00 01', a: new Binary(Buffer.from([0x00, 0x01])) },
    { _id: 'string', a: 'x' },
    { _id: 'array 4, 1', a: [4, 1] },
    { _id: 'missing' },
  ]);
});

async function ids(filter: object): Promise<string[]> {
  return (await c.find(filter as never).toArray()).map((d) => String(d._id)).sort();
}

async function failure(filter: object): Promise<[number, string]> {
  const error = await rejection(c.find(filter as never).toArray());
  return [Number(error.code), error.message];
}

const FIVES = ['decimal 5', 'double 5.0', 'int 5', 'long 5'];

describe('bit tests', () => {
  it.each<[string, object, string[]]>([
    // Bit 0 of every integral numeric type, BinData's bit 0, and an array's element.
    ['$bitsAllSet 1', { a: { $bitsAllSet: 1 } }, [...FIVES, 'array 4, 1', 'binData 05', 'int -1'].sort()],
    // The same mask three ways: positions, a number, BinData.
    ['$bitsAllSet [0, 2]', { a: { $bitsAllSet: [0, 2] } }, [...FIVES, 'binData 05', 'int -1'].sort()],
    ['$bitsAllSet 5', { a: { $bitsAllSet: 5 } }, [...FIVES, 'binData 05', 'int -1'].sort()],
    [
      '$bitsAllSet BinData 05',
      { a: { $bitsAllSet: new Binary(Buffer.from([0x05])) } },
      [...FIVES, 'binData 05', 'int -1'].sort(),
    ],
    // Bit 8 is BinData's second byte; past its end BinData is zero, past bit 63 a number is its sign.
    ['$bitsAnySet [8]', { a: { $bitsAnySet: [8] } }, ['binData 00 01', 'int -1', 'long -6']],
    [
      '$bitsAnySet BinData 00 01',
      { a: { $bitsAnySet: new Binary(Buffer.from([0x00, 0x01])) } },
      ['binData 00 01', 'int -1', 'long -6'],
    ],
    ['$bitsAllSet [200]', { a: { $bitsAllSet: [200] } }, ['int -1', 'long -6']],
    [
      '$bitsAllClear [200]',
      { a: { $bitsAllClear: [200] } },
      [...FIVES, 'array 4, 1', 'binData 00 01', 'binData 05', 'int 2'].sort(),
    ],
    // -6 is ...11111010 in two's complement.
    [
      '$bitsAnyClear [0, 1]',
      { a: { $bitsAnyClear: [0, 1] } },
      [...FIVES, 'array 4, 1', 'binData 00 01', 'binData 05', 'int 2', 'long -6'].sort(),
    ],
    ['$bitsAllClear 3', { a: { $bitsAllClear: 3 } }, ['array 4, 1', 'binData 00 01']],
    // An empty mask: every test of "all" holds, none of "any".
    [
      '$bitsAllSet []',
      { a: { $bitsAllSet: [] } },
      [...FIVES, 'array 4, 1', 'binData 00 01', 'binData 05', 'int -1', 'int 2', 'long -6'].sort(),
    ],
    ['$bitsAnySet 0', { a: { $bitsAnySet: 0 } }, []],
  ])('%s', async (_label, filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('never matches a non-integral double, NaN, a double past Int64, a string or a missing field', async () => {
    const matched = new Set([
      ...(await ids({ a: { $bitsAllClear: [] } })),
      ...(await ids({ a: { $bitsAnyClear: [62] } })),
    ]);
    expect(['double 5.5', 'NaN', 'double 2^63', 'string', 'missing'].filter((id) => matched.has(id))).toEqual([]);
  });

  it.each<[string, object, number, string]>([
    [
      'a string mask',
      { $bitsAllSet: 'x' },
      2,
      'a takes an Array, a number, or a BinData but received: $bitsAllSet: "x"',
    ],
    ['a negative mask', { $bitsAnySet: -1 }, 9, 'Expected a non-negative number in: $bitsAnySet: -1'],
    ['a fractional mask', { $bitsAllClear: 1.5 }, 9, 'Expected an integer: $bitsAllClear: 1.5'],
    ['a NaN mask', { $bitsAnyClear: Number.NaN }, 9, 'Expected an integer, but found NaN in: $bitsAnyClear: nan.0'],
    [
      'a negative position',
      { $bitsAllSet: [1, -1] },
      2,
      'Failed to parse bit position. Expected a non-negative number in: 1: -1',
    ],
    [
      'a position that is no number',
      { $bitsAllSet: ['1'] },
      2,
      'Failed to parse bit position. Expected a number in: 0: "1"',
    ],
    [
      'a position past int32',
      { $bitsAllSet: [2 ** 31] },
      2,
      'Failed to parse bit position. Cannot represent 0: 2147483648.0 in an int',
    ],
  ])('refuses %s with mongod error', async (_label, condition, code, message) => {
    expect(await failure({ a: condition })).toEqual([code, message]);
  });
});
