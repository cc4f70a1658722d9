import fc from 'fast-check';
import mongoose, { Types } from 'mongoose';
import { decodeKeysetCursor, encodeKeysetCursor, keysetCursorOf, type KeysetValue } from './keyset-cursor.js';
import { KeysetPaginationError } from './keyset-pagination.error.js';
import { parseKeysetSort, type KeysetSort } from './keyset-sort.js';

const { Decimal128, Long } = mongoose.mongo;
const ID = new Types.ObjectId('6553f1003f2a91c8d4003039');
const ANY: KeysetSort = { field: 'value', direction: 1 };
const PRICE = parseKeysetSort('price', { price: 'number' });
const NEWEST = parseKeysetSort('-_id');
const b64 = (json: unknown) =>
  Buffer.from(typeof json === 'string' ? json : JSON.stringify(json)).toString('base64url');
const FIX = 'pass nextCursor or previousCursor of a page unchanged, or leave it out to start from the first page';
const notACursor = (what: string) => `after is not a cursor of this list (${what}); ${FIX}`;
const decode = (text: unknown, sort = PRICE, options = {}) => decodeKeysetCursor(text, sort, options, 'after');
const valid = { v: 1, s: 'price', i: ID.toHexString(), t: 'n', k: '24.9' };

describe('encodeKeysetCursor and decodeKeysetCursor', () => {
  describe('when the cursor is one the list made', () => {
    it.each<[string, KeysetValue]>([
      ['a double', 24.9],
      ['a negative zero (as 0)', -0],
      ['an integer past 2^53', 2 ** 60],
      ['infinity', -Infinity],
      ['a Long', Long.fromString('9223372036854775807')],
      ['a Decimal128', Decimal128.fromString('1.10')],
      ['a string with astral characters', 'crème 😀 "quoted" \\'],
      ['an empty string', ''],
      ['a Date', new Date('1969-07-20T20:17:40.123Z')],
      ['an ObjectId', new Types.ObjectId('507f1f77bcf86cd799439011')],
      ['null (also a missing field)', null],
    ])('should give back %s with its BSON type', (_, value) => {
      const decoded = decodeKeysetCursor(encodeKeysetCursor({ sort: ANY, value, id: ID }), ANY);
      expect(decoded).toEqual({ sort: ANY, value: Object.is(value, -0) ? 0 : value, id: ID });
      expect(decoded.value?.constructor).toBe(value?.constructor);
    });

    it('should round-trip any value (property)', () => {
      const value = fc.oneof(
        fc.double({ noNaN: true }),
        fc.string({ unit: 'binary' }),
        fc.date({ noInvalidDate: true }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => Long.fromBigInt(n)),
        fc.constant(null),
      );
      fc.assert(
        fc.property(value, fc.boolean(), fc.constantFrom(1, -1) as fc.Arbitrary<1 | -1>, (v, signed, direction) => {
          const sort = { field: 'a.b', direction };
          const options = signed ? { secret: Buffer.from('key') } : {};
          const text = encodeKeysetCursor({ sort, value: v, id: ID }, { ...options, maxLength: 1e6 });
          expect(text).toMatch(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]{22})?$/);
          const back = decodeKeysetCursor(text, sort, { ...options, maxLength: 1e6 });
          expect(back.value).toEqual(Object.is(v, -0) ? 0 : v);
        }),
      );
    });

    it('should read the sort value of a document, through a dotted path, missing as null', () => {
      const sort = { field: 'stats.views', direction: 1 as const };
      expect(keysetCursorOf({ _id: ID, stats: { views: 3 } }, sort).value).toBe(3);
      expect(keysetCursorOf({ _id: ID, stats: {} }, sort).value).toBeNull();
      expect(keysetCursorOf({ _id: ID }, sort).value).toBeNull();
      expect(keysetCursorOf({ _id: ID }, NEWEST)).toEqual({ sort: NEWEST, value: ID, id: ID });
    });

    it.each([
      ['NaN', Number.NaN],
      ['an invalid Date', new Date(Number.NaN)],
      ['a boolean', true],
      ['an array', [1]],
      ['a sub-document', { a: 1 }],
      ['a Decimal128 NaN', Decimal128.fromString('NaN')],
    ])('should refuse to make a cursor of %s (a TypeError: the data, not the client)', (_, value) => {
      expect(() => encodeKeysetCursor({ sort: ANY, value: value as never, id: ID })).toThrow(TypeError);
      expect(() => encodeKeysetCursor({ sort: ANY, value: value as never, id: ID })).not.toThrow(KeysetPaginationError);
    });

    it('should refuse to make a cursor longer than maxLength', () => {
      expect(() => encodeKeysetCursor({ sort: ANY, value: 'x'.repeat(2000), id: ID })).toThrow(
        /is 2\d\d\d characters, over maxLength 1024; raise maxLength or sort by a shorter field/,
      );
    });
  });

  describe('when the client sent something else', () => {
    const good = b64(valid);
    it.each<[string, unknown, string]>([
      ['a number', 5, notACursor('not text')],
      ['a repeated parameter', [good, good], notACursor('given 2 times')],
      ['an object', { $gt: '' }, notACursor('not text')],
      ['the empty string', '', notACursor('not base64url text')],
      ['standard base64', `${good}+/`, notACursor('not base64url text')],
      ['padding', `${good}=`, notACursor('not base64url text')],
      ['a truncated cursor', good.slice(0, 40), notACursor('damaged')],
      ['a cursor cut to a non-canonical length', good.slice(0, -1), notACursor('not base64url text')],
      ['three parts', `${good}.a.b`, notACursor('not base64url text')],
      [
        'a signature on an unsigned list',
        `${good}.${'A'.repeat(22)}`,
        notACursor('signed, but this list does not sign its cursors'),
      ],
      ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url'), notACursor('damaged')],
      ['a JSON array', b64([1]), notACursor('damaged')],
      ['JSON null', b64('null'), notACursor('damaged')],
      ['another version', b64({ ...valid, v: 2 }), notACursor('unknown version')],
      [
        'a __proto__ key',
        b64(`{"v":1,"s":"price","i":"${valid.i}","t":"n","k":"1","__proto__":{"x":1}}`),
        notACursor('damaged'),
      ],
      ['a constructor key', b64({ ...valid, constructor: 1 }), notACursor('damaged')],
      ['a missing value', b64({ v: 1, s: 'price', i: valid.i, t: 'n' }), notACursor('damaged')],
      ['a value with a null tag', b64({ v: 1, s: 'price', i: valid.i, t: 'z', k: '1' }), notACursor('damaged')],
      ['an unknown tag', b64({ ...valid, t: 'x' }), notACursor('damaged')],
      ['a tag from the prototype', b64({ ...valid, t: 'toString' }), notACursor('damaged')],
      ['an upper-case id', b64({ ...valid, i: valid.i.toUpperCase() }), notACursor('damaged')],
      ['an id as an object', b64({ ...valid, i: { $oid: valid.i } }), notACursor('damaged')],
      [
        'a string where price holds numbers',
        b64({ ...valid, t: 's', k: 'cheap' }),
        notACursor('a string value, but price holds none'),
      ],
      [
        'a null where price is required',
        b64({ v: 1, s: 'price', i: valid.i, t: 'z' }),
        notACursor('a null value, but price holds none'),
      ],
      ['a number as JSON number', b64({ ...valid, k: 24.9 }), notACursor('damaged')],
      ['a number not written canonically', b64({ ...valid, k: '024.90' }), notACursor('damaged')],
      ['a hex number', b64({ ...valid, k: '0x10' }), notACursor('damaged')],
      ['an empty number', b64({ ...valid, k: '' }), notACursor('damaged')],
      ['NaN', b64({ ...valid, k: 'NaN' }), notACursor('damaged')],
      ['a Long past 64 bits', b64({ ...valid, t: 'l', k: '9223372036854775808' }), notACursor('damaged')],
      ['a Long with a plus', b64({ ...valid, t: 'l', k: '+1' }), notACursor('damaged')],
      ['a Decimal128 not written canonically', b64({ ...valid, t: 'm', k: '01.1' }), notACursor('damaged')],
      ['a Decimal128 that is not a number', b64({ ...valid, t: 'm', k: 'abc' }), notACursor('damaged')],
      ['a Decimal128 NaN', b64({ ...valid, t: 'm', k: 'NaN' }), notACursor('damaged')],
    ])('should refuse %s with a 400-worthy message', (_, text, message) => {
      expect(() => decode(text)).toThrow(new KeysetPaginationError(expect.any(String) as never, message));
      expect(() => decode(text)).toThrow(KeysetPaginationError);
    });

    it.each<[string, unknown, KeysetSort]>([
      ['a date out of range', b64({ ...valid, t: 'D', k: '8640000000000001' }), ANY],
      ['a date with a fraction', b64({ ...valid, t: 'D', k: '1.5' }), ANY],
      ['an ObjectId value in capitals', b64({ ...valid, t: 'o', k: 'A'.repeat(24) }), ANY],
      ['a value on an _id cursor', b64({ v: 1, s: '-_id', i: valid.i, t: 'n', k: '1' }), NEWEST],
    ])('should refuse %s', (_, text, sort) => {
      expect(() => decodeKeysetCursor(text, { ...sort, field: sort.field === '_id' ? '_id' : 'price' })).toThrow(
        /is not a cursor of this list \(damaged\)/,
      );
    });

    it('should refuse a cursor of another sort without decoding its value', () => {
      const other = encodeKeysetCursor({ sort: parseKeysetSort('-price', { price: 'number' }), value: 1, id: ID });
      expect(() => decode(other)).toThrow(
        new KeysetPaginationError(
          'sort-mismatch',
          'after was made for another sort than sort=price; send the sort of the page it came from, or leave after out to start from the first page',
        ),
      );
      expect(() => decode(encodeKeysetCursor({ sort: NEWEST, value: ID, id: ID }))).toThrow(
        /another sort than sort=price/,
      );
    });

    it('should refuse an oversized cursor by its length alone, before decoding', () => {
      const huge = 'A'.repeat(1025);
      expect(() => decode(huge)).toThrow(
        new KeysetPaginationError(
          'too-long',
          `after is 1025 characters long, longer than any cursor of this list (1024); ${FIX}`,
        ),
      );
      expect(() => decode(b64({ ...valid, k: '1' }), PRICE, { maxLength: 10 })).toThrow(
        /longer than any cursor of this list \(10\)/,
      );
    });
  });

  describe('with a secret', () => {
    const secret = 'correct horse';
    const signed = encodeKeysetCursor({ sort: PRICE, value: 24.9, id: ID }, { secret });
    const altered = () =>
      new KeysetPaginationError('signature', `after has been altered or was signed with another key; ${FIX}`);

    it('should accept its own cursors', () => {
      expect(decode(signed, PRICE, { secret })).toEqual({ sort: PRICE, value: 24.9, id: ID });
    });

    it.each([
      ['unsigned', signed.split('.')[0]],
      ['signed with another key', encodeKeysetCursor({ sort: PRICE, value: 24.9, id: ID }, { secret: 'other' })],
      ['with a forged value', `${b64({ ...valid, k: '1' })}.${signed.split('.')[1]}`],
      ['with a short signature', signed.slice(0, -1)],
    ])('should refuse a cursor %s', (_, text) => {
      expect(() => decode(text, PRICE, { secret })).toThrow(altered());
    });

    it('should refuse every single-character change and every truncation (property)', () => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
      fc.assert(
        fc.property(fc.nat({ max: signed.length - 1 }), fc.constantFrom(...alphabet), fc.boolean(), (at, char, cut) => {
          const text = cut ? signed.slice(0, at) : signed.slice(0, at) + char + signed.slice(at + 1);
          fc.pre(text !== signed);
          expect(() => decode(text, PRICE, { secret })).toThrow(KeysetPaginationError);
        }),
      );
    });
  });

  it('should never throw anything but a KeysetPaginationError for any text, nor decode it into another sort (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.base64String().map((s) => s.replace(/=+$/, '')),
          fc.json().map(b64),
        ),
        (text) => {
          try {
            expect(decode(text, PRICE).sort).toBe(PRICE);
          } catch (error) {
            expect(error).toBeInstanceOf(KeysetPaginationError);
          }
        },
      ),
    );
  });
});
