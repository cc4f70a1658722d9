import { ObjectId as BsonPackageObjectId } from 'bson';
import fc from 'fast-check';
import { Types } from 'mongoose';
import { NIL_OBJECT_ID, isNilObjectId } from './nil-object-id.js';
import { FUZZ, validHex } from './object-id-arbitraries.fixture.js';
import { ObjectIdParseError } from './object-id-parse.error.js';
import { describeInvalidObjectId, isParsableObjectId, parseObjectId, tryParseObjectId } from './parse-object-id.js';

const NIL_MESSAGE =
  'received the nil ObjectId 000000000000000000000000 (all zeros), which names no document; expected the id of a real one';

describe('NIL_OBJECT_ID', () => {
  it('should be the 24 zero hex characters, an immutable string', () => {
    expect(NIL_OBJECT_ID).toBe('0'.repeat(24));
    expect(typeof NIL_OBJECT_ID).toBe('string');
  });

  it('should make a fresh instance each time, so no caller can change another one', () => {
    const a = new Types.ObjectId(NIL_OBJECT_ID);
    const b = new Types.ObjectId(NIL_OBJECT_ID);
    expect(a).not.toBe(b);
    expect(a.toHexString()).toBe(NIL_OBJECT_ID);
  });
});

describe('isNilObjectId', () => {
  it.each([
    ['the hex', NIL_OBJECT_ID],
    ['a Types.ObjectId', new Types.ObjectId(NIL_OBJECT_ID)],
    ['a bson package ObjectId', new BsonPackageObjectId(NIL_OBJECT_ID)],
    ['an ObjectId of zero bytes', new Types.ObjectId(new Uint8Array(12))],
  ])('should be true for %s', (_label, value) => {
    expect(isNilObjectId(value)).toBe(true);
  });

  it.each([
    ['another id', '507f1f77bcf86cd799439011'],
    ['an id of one 1', '000000000000000000000001'],
    ['a short zero string', '0'.repeat(23)],
    ['a long zero string', '0'.repeat(25)],
    ['zero', 0],
    ['an empty string', ''],
    ['null', null],
    ['undefined', undefined],
    ['extended JSON', { $oid: NIL_OBJECT_ID }],
    ['a fake _bsontype tag', { _bsontype: 'ObjectId', toHexString: NIL_OBJECT_ID }],
    ['a random ObjectId', new Types.ObjectId()],
  ])('should be false for %s', (_label, value) => {
    expect(isNilObjectId(value)).toBe(false);
  });

  it('should agree with the hex of any valid id (seeded)', () => {
    fc.assert(
      fc.property(validHex, (hex) => {
        expect(isNilObjectId(hex)).toBe(hex === NIL_OBJECT_ID);
        expect(isNilObjectId(new Types.ObjectId(hex))).toBe(/^0{24}$/.test(hex));
      }),
      FUZZ,
    );
  });
});

describe('parseObjectId with allowNil', () => {
  it.each([
    ['the hex', NIL_OBJECT_ID],
    ['a Types.ObjectId', new Types.ObjectId(NIL_OBJECT_ID)],
    ['an ObjectId from another bson copy', new BsonPackageObjectId(NIL_OBJECT_ID)],
  ])('should accept %s by default (a valid id, as before)', (_label, value) => {
    expect(parseObjectId(value).toHexString()).toBe(NIL_OBJECT_ID);
    expect(isParsableObjectId(value)).toBe(true);
  });

  it.each([
    ['the hex', NIL_OBJECT_ID, {}],
    ['a Types.ObjectId', new Types.ObjectId(NIL_OBJECT_ID), {}],
    ['an ObjectId from another bson copy', new BsonPackageObjectId(NIL_OBJECT_ID), {}],
    ['extended JSON', { $oid: NIL_OBJECT_ID }, { allowExtendedJson: true }],
  ])('should refuse %s with allowNil: false, reason "nil"', (_label, value, extra) => {
    const options = { allowNil: false, ...extra };
    expect(tryParseObjectId(value, options)).toBeUndefined();
    expect(isParsableObjectId(value, options)).toBe(false);
    expect(() => parseObjectId(value, options)).toThrow(new ObjectIdParseError('nil', NIL_MESSAGE));
    expect(describeInvalidObjectId(value, options)).toEqual({ reason: 'nil', message: NIL_MESSAGE });
  });

  it('should accept every other valid id with allowNil: false (seeded)', () => {
    fc.assert(
      fc.property(validHex, (hex) => {
        expect(isParsableObjectId(hex, { allowNil: false })).toBe(hex !== NIL_OBJECT_ID);
      }),
      FUZZ,
    );
  });

  it('should keep the other messages with allowNil: false', () => {
    expect(describeInvalidObjectId('abc', { allowNil: false }).message).toBe(
      '"abc" is 3 characters long, expected 24 hex characters',
    );
    expect(describeInvalidObjectId('0'.repeat(23), { allowNil: false }).reason).toBe('length');
  });
});
