import { Binary, Decimal128, Double, Int32, Long } from '../bson/bson-library.cjs';
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
    ['a fractional Decimal128 (5.4: 5)', Decimal128.fromString('5.4'), true],
    ['a string', '5', false],
    ['null', null, false],
  ])('$bitsAllSet [0, 2] on %s', (_label, value, expected) => {
    expect($bitsAllSet('a', [0, 2])({ a: value })).toBe(expected);
  });

  // Bit 0 tells the rounding apart: nearest, ties to even (truncation would make 4.6 even and 5.5 odd).
  it.each<[string, boolean]>([
    ['4.6', true],
    ['4.5', false],
    ['5.5', false],
    ['-4.5', false],
    ['-5.5', false],
    ['-5.4', true],
    ['-4.6', true],
  ])('reads Decimal128 %s as the nearest Int64, ties to even (its bit 0 set: %s)', (text, odd) => {
    expect($bitsAllSet('a', [0])({ a: Decimal128.fromString(text) })).toBe(odd);
  });

  it('reads a Decimal128 NaN, an infinity or one past Int64 as the lowest Int64 (only bit 63 and up set)', () => {
    for (const text of ['NaN', 'Infinity', '-Infinity', '1E+30']) {
      const value = { a: Decimal128.fromString(text) };
      expect([$bitsAllSet('a', [63])(value), $bitsAnySet('a', [0, 62])(value)]).toEqual([true, false]);
    }
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
