import { jest } from '@jest/globals';
import { HttpException } from '@nestjs/common';
import { Types } from 'mongoose';
import { ParseObjectIdArrayPipe } from './parse-object-id-array.pipe.js';

const A = '507f1f77bcf86cd799439011';
const B = '6553f1003f2a91c8d4003039';
const C = '6553f1003f2a91c8d400303a';

function message(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpException) return error.getResponse();
    throw error;
  }
  throw new Error('expected the pipe to throw');
}

const hexes = (ids: Types.ObjectId[] | undefined) => ids?.map((id) => id.toHexString());

describe('ParseObjectIdArrayPipe', () => {
  describe('when validation passes', () => {
    it.each([
      ['a comma list', `${A},${B}`, [A, B]],
      ['repeated parameters', [A, B], [A, B]],
      ['both forms mixed', [`${A},${B}`, C], [A, B, C]],
      ['a single id', A, [A]],
      ['upper case', A.toUpperCase(), [A]],
      ['instances', [new Types.ObjectId(A)], [A]],
    ])('should parse %s', async (_label, input, expected) => {
      const ids = new ParseObjectIdArrayPipe().transform(input);
      expect(ids?.every((id) => id instanceof Types.ObjectId)).toBe(true);
      expect(hexes(ids)).toEqual(expected);
    });

    it('should split on a custom separator', async () => {
      expect(hexes(new ParseObjectIdArrayPipe({ separator: '|' }).transform(`${A}|${B}`))).toEqual([A, B]);
    });

    it('should take items whole with separator false', async () => {
      expect(hexes(new ParseObjectIdArrayPipe({ separator: false }).transform([A, B]))).toEqual([A, B]);
    });

    it.each([undefined, null, '', []])('should return undefined for %j when optional', async (value) => {
      expect(new ParseObjectIdArrayPipe({ optional: true }).transform(value)).toBeUndefined();
    });

    it('should accept exactly maxItems ids', async () => {
      const ids = Array.from({ length: 3 }, () => new Types.ObjectId().toHexString());
      expect(new ParseObjectIdArrayPipe({ maxItems: 3 }).transform(ids.join(','))).toHaveLength(3);
    });
  });

  describe('when validation fails', () => {
    const prefix = 'Validation failed (ObjectId array is expected): ';
    it.each([
      ['an empty item', `${A},,${B}`, 'item 1 is empty'],
      ['a trailing comma', `${A},`, 'item 1 is empty'],
      ['a short item', `${A},abc`, 'item 1 "abc" is 3 characters long, expected 24 hex characters'],
      [
        'a non-hex item in the array form',
        [A, B, `${C.slice(0, 23)}g`],
        `item 2 "${C.slice(0, 23)}g" has a non-hex character "g" at position 23, expected 24 hex characters (0-9, a-f)`,
      ],
      ['an object item', [A, { $gt: '' }], 'item 1 received an object, expected a string of 24 hex characters'],
      ['a null item', [null], 'item 0 is empty'],
      ['a nested array', [[A]], 'item 0 received an array, expected a string of 24 hex characters'],
      [
        'an object instead of a list',
        { $in: [A] },
        'item 0 received an object, expected a string of 24 hex characters',
      ],
      [
        'a space after the comma',
        `${A}, ${B}`,
        `item 1 " ${B}" has surrounding whitespace, expected exactly 24 hex characters`,
      ],
      ['no value', undefined, 'no value was given, expected a list of 24-hex ObjectIds'],
      ['an empty array', [], 'no value was given, expected a list of 24-hex ObjectIds'],
    ])('should answer 400 for %s', async (_label, input, detail) => {
      expect(message(() => new ParseObjectIdArrayPipe().transform(input))).toEqual({
        statusCode: 400,
        message: prefix + detail,
        error: 'Bad Request',
      });
    });

    it('should refuse more than maxItems (default 100)', async () => {
      const ids = Array.from({ length: 101 }, () => new Types.ObjectId().toHexString()).join(',');
      expect(message(() => new ParseObjectIdArrayPipe().transform(ids))).toMatchObject({
        message: `${prefix}101 ids were given, at most 100 are allowed`,
      });
    });

    it.each([
      ['one string', () => ','.repeat(1_000_000), 1_000_001],
      ['a list of strings', () => ['a,b', ','.repeat(1_000_000)], 1_000_003],
    ])('should refuse a huge list in %s without making more than maxItems + 1 items', async (_label, input, count) => {
      const split = jest.spyOn(String.prototype, 'split');
      try {
        expect(message(() => new ParseObjectIdArrayPipe().transform(input()))).toMatchObject({
          message: `${prefix}${count} ids were given, at most 100 are allowed`,
        });
        const pieces = split.mock.results.map((result) => (result.value as string[]).length);
        expect(Math.max(...pieces)).toBeLessThanOrEqual(101);
      } finally {
        split.mockRestore();
      }
    });

    it('should refuse duplicates when unique, case-insensitively', async () => {
      expect(
        message(() => new ParseObjectIdArrayPipe({ unique: true }).transform([A, B, A.toUpperCase()])),
      ).toMatchObject({ message: `${prefix}item 2 ("${A.toUpperCase()}") repeats item 0` });
    });

    it('should keep duplicates when unique is off', async () => {
      expect(new ParseObjectIdArrayPipe().transform([A, A])).toHaveLength(2);
    });

    it('should use errorHttpStatusCode', async () => {
      expect(message(() => new ParseObjectIdArrayPipe({ errorHttpStatusCode: 422 }).transform('x'))).toMatchObject({
        statusCode: 422,
        error: 'Unprocessable Entity',
      });
    });
  });

  describe('configuration errors', () => {
    it.each([0, -1, 1.5, Number.NaN])('should refuse maxItems %p at construction', (maxItems) => {
      expect(() => new ParseObjectIdArrayPipe({ maxItems })).toThrow(/maxItems must be a positive integer/);
    });

    it('should refuse an empty separator', () => {
      expect(() => new ParseObjectIdArrayPipe({ separator: '' })).toThrow(/separator must not be empty/);
    });
  });
});

describe('ParseObjectIdArrayPipe options for the nil id and extended JSON', () => {
  const NIL = '000000000000000000000000';

  it('should keep the nil id by default and name it as the bad item with allowNil: false', async () => {
    expect(hexes(new ParseObjectIdArrayPipe().transform(`${A},${NIL}`))).toEqual([A, NIL]);
    expect(message(() => new ParseObjectIdArrayPipe({ allowNil: false }).transform(`${A},${NIL}`))).toEqual({
      statusCode: 400,
      message:
        'Validation failed (ObjectId array is expected): item 1 received the nil ObjectId 000000000000000000000000 (all zeros), which names no document; expected the id of a real one',
      error: 'Bad Request',
    });
  });

  it('should take {"$oid": …} items with allowExtendedJson, mixed with strings', async () => {
    const pipe = new ParseObjectIdArrayPipe({ allowExtendedJson: true });
    expect(hexes(pipe.transform([{ $oid: A }, B, { $oid: C.toUpperCase() }]))).toEqual([A, B, C]);
    expect(hexes(pipe.transform({ $oid: A }))).toEqual([A]);
    expect(message(() => new ParseObjectIdArrayPipe().transform([{ $oid: A }]))).toMatchObject({
      message:
        'Validation failed (ObjectId array is expected): item 0 received an object, expected a string of 24 hex characters',
    });
  });

  it('should name a bad {"$oid": …} item and compare extended JSON duplicates by hex', async () => {
    const pipe = new ParseObjectIdArrayPipe({ allowExtendedJson: true, unique: true });
    expect(message(() => pipe.transform([A, { $oid: A, $where: '1' }]))).toMatchObject({
      message:
        'Validation failed (ObjectId array is expected): item 1 received {"$oid": …} with key "$where" besides "$oid", expected "$oid" as its only key',
    });
    expect(message(() => pipe.transform([A, { $oid: A }]))).toMatchObject({
      message: `Validation failed (ObjectId array is expected): item 1 ("${A}") repeats item 0`,
    });
  });
});
