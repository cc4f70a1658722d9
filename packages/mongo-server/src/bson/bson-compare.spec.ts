import fc from 'fast-check';

import { bsonEquals, compareBson, compareNumbers, compareStrings, isNaNNumber } from './bson-compare.js';
import { Decimal128, Double, Long, MaxKey, MinKey, ObjectId, Timestamp } from './bson-library.cjs';
import { encodeIndexValue } from './index-key-encoder.js';

const sign = (n: number): number => Math.sign(n);

describe('compareNumbers', () => {
  it.each([
    [1, 2n, -1],
    [2n, 2, 0],
    [Decimal128.fromString('2.50'), 2.5, 0],
    [Decimal128.fromString('10'), Long.fromNumber(9), 1],
    [9007199254740993n, 9007199254740992, 1],
    [Decimal128.fromString('-1E+2'), -99.5, -1],
    [Decimal128.fromString('NaN'), -Infinity, -1],
    [NaN, NaN, 0],
    [0n, 0, 0],
    [0n, -0, 0],
    [Decimal128.fromString('Infinity'), 1e308, 1],
    [0.1, Decimal128.fromString('0.1'), 1], // the double 0.1 is slightly above one tenth
  ])('compare(%p, %p) = %p', (a, b, expected) => {
    expect(sign(compareNumbers(a, b))).toBe(expected);
    expect(sign(compareNumbers(b, a))).toBe(expected === 0 ? 0 : -expected);
  });

  it('agrees with < for doubles and is antisymmetric for bigint vs double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), (a, b) => {
        expect(sign(compareNumbers(a, b))).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.double({ noNaN: true }), (a, b) => {
        // `|| 0` turns -0 into 0: toBe tells them apart, and a tie (0n against 0) negates to -0.
        expect(sign(compareNumbers(a, b)) || 0).toBe(-sign(compareNumbers(b, a)) || 0);
      }),
    );
  });
});

describe('isNaNNumber', () => {
  it.each<[unknown, boolean]>([
    [Number.NaN, true],
    [new Double(Number.NaN), true],
    [Decimal128.fromString('NaN'), true],
    [Decimal128.fromString('-NaN'), true],
    [Infinity, false],
    [Decimal128.fromString('Infinity'), false],
    [0, false],
    [Long.fromNumber(0), false],
    ['NaN', false],
    [null, false],
    [{ value: Number.NaN }, false],
  ])('%p: %p', (value, expected) => {
    expect(isNaNNumber(value)).toBe(expected);
  });
});

describe('compareBson cross-type order', () => {
  const ordered: unknown[] = [
    new MinKey(),
    null,
    -5,
    'a',
    { a: 1 },
    [1],
    new ObjectId('000000000000000000000001'),
    false,
    true,
    new Date(0),
    new Timestamp({ t: 1, i: 0 }),
    /re/,
    new MaxKey(),
  ];
  it.each(ordered.slice(1).map((v, i) => [ordered[i], v]))('%p < %p', (a, b) => {
    expect(compareBson(a, b)).toBeLessThan(0);
    expect(compareBson(b, a)).toBeGreaterThan(0);
  });

  it('orders ObjectIds by bytes and strings by UTF-8', () => {
    expect(
      compareBson(new ObjectId('00000000000000000000000a'), new ObjectId('0000000000000000000000a0')),
    ).toBeLessThan(0);
    expect(compareStrings('\uFFFD', '\u{1F600}')).toBeLessThan(0);
    expect(compareStrings('Z', 'a')).toBeLessThan(0);
  });

  it('treats null and missing as equal', () => {
    expect(compareBson(null, undefined)).toBe(0);
    expect(bsonEquals(null, undefined)).toBe(true);
  });
});

describe('encodeIndexValue', () => {
  it.each([
    [1, 1n],
    [2.5, Decimal128.fromString('2.50')],
    [Long.fromNumber(7), Decimal128.fromString('7')],
    [null, undefined],
    [0, -0],
  ])('%p and %p share a key', (a, b) => {
    expect(encodeIndexValue(a)).toBe(encodeIndexValue(b));
  });

  it.each([
    ['1', 1],
    [
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ],
    [true, 1],
    [new ObjectId('000000000000000000000001'), '000000000000000000000001'],
  ])('%p and %p differ', (a, b) => {
    expect(encodeIndexValue(a)).not.toBe(encodeIndexValue(b));
  });

  it('equal keys exactly when compareBson says equal (numbers)', () => {
    const num = fc.oneof(
      fc.integer().map((n) => n as unknown),
      fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
      fc.double({ noNaN: true }),
    );
    fc.assert(
      fc.property(num, num, (a, b) => {
        expect(encodeIndexValue(a) === encodeIndexValue(b)).toBe(compareBson(a, b) === 0);
      }),
    );
  });
});
