import { Binary, Decimal128, Double, Int32, Long } from 'bson';

import { $bitsAllClear, $bitsAllSet, $bitsAnyClear, $bitsAnySet } from './bit-test-operators.js';

/**
 * The bit tests on values as the server holds them, bson wrappers included
 * (a promoted Int32 is a number and an Int64 a bigint, but a wrapper must
 * not fail). conformance-bit-tests.spec.ts checks them through the driver.
 */
describe('bit test operators', () => {
  it.each<[string, unknown, boolean]>([
    ['a number', 5, true],
    ['a bigint', 5n, true],
    ['an Int32 wrapper', new Int32(5), true],
    ['a Long wrapper', Long.fromNumber(5), true],
    ['an integral Double', new Double(5), true],
    ['a Decimal128', Decimal128.fromString('5.0'), true],
    ['BinData', new Binary(Buffer.from([5])), true],
    ['a fractional Decimal128', Decimal128.fromString('5.5'), false],
    ['a string', '5', false],
    ['null', null, false],
  ])('$bitsAllSet [0, 2] on %s', (_label, value, expected) => {
    expect($bitsAllSet('a', [0, 2])({ a: value })).toBe(expected);
  });

  it('tests every element of an array, and the four operators agree on 0b0101', () => {
    const doc = { a: [2, 5] };
    expect([
      $bitsAllSet('a', 5)(doc),
      $bitsAnySet('a', 2)(doc),
      $bitsAllClear('a', 8)(doc),
      $bitsAnyClear('a', 5)(doc),
    ]).toEqual([true, true, true, true]);
    expect([$bitsAllSet('a', 10)({ a: 5 }), $bitsAnyClear('a', 5)({ a: 5 })]).toEqual([false, false]);
  });
});
