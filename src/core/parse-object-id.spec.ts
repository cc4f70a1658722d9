import { ObjectId as ForeignShapedObjectId } from 'bson';
import { Types } from 'mongoose';
import { INVALID_OBJECT_IDS, VALID_OBJECT_ID_STRINGS } from './invalid-object-ids.fixture.js';
import { ObjectIdParseError } from './object-id-parse.error.js';
import { isObjectIdHex, parseObjectId, previewString } from './parse-object-id.js';

/** An ObjectId from "another bson copy": same duck type, different class. */
class OtherBsonObjectId {
  readonly _bsontype = 'ObjectID';
  constructor(private readonly hex: string) {}
  toHexString(): string {
    return this.hex;
  }
}

describe('parseObjectId', () => {
  describe('when the value is valid', () => {
    it.each(VALID_OBJECT_ID_STRINGS)('should parse %j to lowercase %s', (input, hex) => {
      const id = parseObjectId(input);
      expect(id).toBeInstanceOf(Types.ObjectId);
      expect(id.toHexString()).toBe(hex);
    });

    it('should return the same instance for a Types.ObjectId', () => {
      const id = new Types.ObjectId();
      expect(parseObjectId(id)).toBe(id);
    });

    it('should rebuild an ObjectId from another bson copy as a Types.ObjectId with the same hex', () => {
      const foreign = new OtherBsonObjectId('507f1f77bcf86cd799439011');
      const id = parseObjectId(foreign);
      expect(id).toBeInstanceOf(Types.ObjectId);
      expect(id.toHexString()).toBe('507f1f77bcf86cd799439011');
    });

    it('should accept the bson package ObjectId (the copy mongoose uses)', () => {
      const id = new ForeignShapedObjectId();
      expect(parseObjectId(id).toHexString()).toBe(id.toHexString());
    });
  });

  describe('when the value is invalid', () => {
    it.each(INVALID_OBJECT_IDS)('should refuse %s with an exact message', (_label, value, detail) => {
      expect(() => parseObjectId(value)).toThrow(new ObjectIdParseError('type', detail));
      expect(isObjectIdHex(value)).toBe(false);
    });

    it.each([
      ['undefined', undefined],
      ['null', null],
      ['an empty string', ''],
    ])('should never invent a random id from %s', (_label, value) => {
      const error = captureError(() => parseObjectId(value));
      expect(error.reason).toBe('missing');
      expect(error.message).toBe('no value was given, expected 24 hex characters');
    });

    it('should report the reason and position of a non-hex character', () => {
      const error = captureError(() => parseObjectId('507f1f77bcf86cd7994390zz'));
      expect(error).toMatchObject({ reason: 'character', position: 22, name: 'ObjectIdParseError' });
    });

    it('should refuse ObjectId instances when allowInstance is false', () => {
      const error = captureError(() => parseObjectId(new Types.ObjectId(), { allowInstance: false }));
      expect(error.message).toBe(
        'received an object (ObjectId instances are not accepted here), expected a string of 24 hex characters',
      );
    });

    it('should refuse a duck type whose toHexString does not return 24 hex characters', () => {
      expect(() => parseObjectId(new OtherBsonObjectId('not hex'))).toThrow(ObjectIdParseError);
    });
  });
});

describe('previewString', () => {
  it.each([
    ['plain', 'abc', '"abc"'],
    ['quotes and backslashes', 'a"b\\c', '"a\\"b\\\\c"'],
    ['control characters', 'a\r\nb', '"a\\u000d\\u000ab"'],
    ['long strings', 'x'.repeat(40), `"${'x'.repeat(32)}"… (40 characters)`],
  ])('should escape and truncate %s', (_label, input, expected) => {
    expect(previewString(input)).toBe(expected);
  });
});

function captureError(fn: () => unknown): ObjectIdParseError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ObjectIdParseError) return error;
    throw error;
  }
  throw new Error('expected an ObjectIdParseError, nothing was thrown');
}
