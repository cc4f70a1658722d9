import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { ParseIntInRangePipe } from './parse-int-in-range.pipe.js';

const metadata: ArgumentMetadata = { type: 'query', data: 'limit', metatype: Number };
const EXPECTED = 'Validation failed (integer from 1 to 100 is expected)';

function message(pipe: ParseIntInRangePipe, value: unknown): unknown {
  try {
    return { parsed: pipe.transform(value, metadata) };
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: unknown }).message;
  }
}

describe('ParseIntInRangePipe', () => {
  const pipe = new ParseIntInRangePipe({ min: 1, max: 100, defaultValue: 20 });

  describe('when validation passes', () => {
    it.each([
      [undefined, 20],
      ['1', 1],
      ['100', 100],
      ['42', 42],
      ['007', 7], // leading zeros are still decimal
      ['0000000000000000000000001', 1],
    ])('should turn %j into %j', (value, expected) => {
      expect(pipe.transform(value, metadata)).toBe(expected);
    });
  });

  describe('when validation fails', () => {
    it.each([
      // Written otherwise than in decimal digits: Number() would take all of these.
      ['0x10', 'limit "0x10" must be written in digits 0-9 only, e.g. 20'],
      ['0b11', 'limit "0b11" must be written in digits 0-9 only, e.g. 20'],
      ['0o17', 'limit "0o17" must be written in digits 0-9 only, e.g. 20'],
      ['1e1', 'limit "1e1" must be written in digits 0-9 only, e.g. 20'],
      ['1e9', 'limit "1e9" must be written in digits 0-9 only, e.g. 20'],
      [' 5', 'limit " 5" must be written in digits 0-9 only, e.g. 20'],
      ['5 ', 'limit "5 " must be written in digits 0-9 only, e.g. 20'],
      ['\t5', 'limit "\\t5" must be written in digits 0-9 only, e.g. 20'],
      ['+5', 'limit "+5" must be written in digits 0-9 only, e.g. 20'],
      ['-1', 'limit "-1" must be written in digits 0-9 only, e.g. 20'],
      ['-0', 'limit "-0" must be written in digits 0-9 only, e.g. 20'],
      ['1.5', 'limit "1.5" must be written in digits 0-9 only, e.g. 20'],
      ['5.0', 'limit "5.0" must be written in digits 0-9 only, e.g. 20'],
      ['1_000', 'limit "1_000" must be written in digits 0-9 only, e.g. 20'],
      ['١٢', 'limit "١٢" must be written in digits 0-9 only, e.g. 20'], // Arabic-Indic digits
      ['Infinity', 'limit "Infinity" must be written in digits 0-9 only, e.g. 20'],
      ['abc', 'limit "abc" must be written in digits 0-9 only, e.g. 20'],
      ['x'.repeat(50), `limit "${'x'.repeat(40)}…" must be written in digits 0-9 only, e.g. 20`],
      // Decimal, but not in the range.
      ['0', 'limit 0 is out of range'],
      ['101', 'limit 101 is out of range'],
      ['99999999999999999999', 'limit 99999999999999999999 is out of range'],
      ['9'.repeat(400), `limit ${'9'.repeat(40)}… is out of range`], // Number() is Infinity
      // Not one value.
      ['', 'limit is empty'],
      [['1', '2'], 'limit is given 2 times; send it once'],
      [{ a: '1' }, 'limit must be one plain value, e.g. 20'],
      [null, 'limit must be one plain value, e.g. 20'],
      // Numbers are not what a client sends: a converted one can no longer be checked.
      [42, 'limit must be one plain value, e.g. 20'],
      [Number.NaN, 'limit must be one plain value, e.g. 20'],
    ])('should refuse %j: %s', (value, detail) => {
      expect(message(pipe, value)).toBe(`${EXPECTED}: ${detail}`);
    });

    it('should require the value when there is no default', () => {
      expect(message(new ParseIntInRangePipe({ min: 1, max: 5 }), undefined)).toBe(
        'Validation failed (integer from 1 to 5 is expected): limit is missing',
      );
    });
  });

  describe('with a negative min', () => {
    const signed = new ParseIntInRangePipe({ min: -5, max: 5 });

    it.each([
      ['-5', -5],
      ['-0', 0],
      ['5', 5],
    ])('should turn %j into %j', (value, expected) => {
      expect(signed.transform(value, metadata)).toBe(expected);
    });

    it.each([
      ['+5', 'limit "+5" must be written in digits 0-9 only, with a leading - if negative, e.g. 0'],
      ['--1', 'limit "--1" must be written in digits 0-9 only, with a leading - if negative, e.g. 0'],
      ['-6', 'limit -6 is out of range'],
    ])('should refuse %j', (value, detail) => {
      expect(message(signed, value)).toBe(`Validation failed (integer from -5 to 5 is expected): ${detail}`);
    });
  });

  it.each([
    [{ min: 1, max: 1.5 }, 'ParseIntInRangePipe: min and max must be safe integers, min <= max; got 1, 1.5'],
    [{ min: 5, max: 1 }, 'ParseIntInRangePipe: min and max must be safe integers, min <= max; got 5, 1'],
    [{ min: 1, max: 5, defaultValue: 6 }, 'ParseIntInRangePipe: defaultValue 6 is not from 1 to 5'],
  ])('should refuse the options %j', (options, error) => {
    expect(() => new ParseIntInRangePipe(options)).toThrow(new RangeError(error));
  });
});
