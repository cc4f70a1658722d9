import fc from 'fast-check';
import { Types } from 'mongoose';
import { INVALID_EXTENDED_JSON, VALID_EXTENDED_JSON } from './extended-json-object-ids.fixture.js';
import { INVALID_OBJECT_IDS } from './invalid-object-ids.fixture.js';
import { anyInput, extendedJsonInput, FUZZ, HEX24 } from './object-id-arbitraries.fixture.js';
import { ObjectIdParseError } from './object-id-parse.error.js';
import { isParsableObjectId, parseObjectId, tryParseObjectId } from './parse-object-id.js';

const EJSON = { allowExtendedJson: true };

/** The rule, written the plain way: a plain object whose only own key is "$oid", holding 24 hex characters. */
function isStrictExtendedJson(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const keys = Reflect.ownKeys(value);
  const oid: unknown = Object.getOwnPropertyDescriptor(value, '$oid')?.value;
  return keys.length === 1 && keys[0] === '$oid' && typeof oid === 'string' && HEX24.test(oid);
}

function captureError(fn: () => unknown): ObjectIdParseError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ObjectIdParseError) return error;
    throw error;
  }
  throw new Error('expected an ObjectIdParseError, nothing was thrown');
}

describe('parseObjectId with allowExtendedJson', () => {
  describe('when the value is {"$oid": "<24 hex>"}', () => {
    it.each(VALID_EXTENDED_JSON)('should parse %s to its lowercase hex', (_label, value, hex) => {
      const id = parseObjectId(value, EJSON);
      expect(id).toBeInstanceOf(Types.ObjectId);
      expect(id.toHexString()).toBe(hex);
      expect(isParsableObjectId(value, EJSON)).toBe(true);
    });

    it.each(VALID_EXTENDED_JSON)('should still refuse %s without the option (it is opt-in)', (_label, value) => {
      expect(captureError(() => parseObjectId(value)).message).toBe(
        'received an object, expected a string of 24 hex characters',
      );
      expect(isParsableObjectId(value)).toBe(false);
    });

    it('should still accept plain strings and instances', () => {
      const id = new Types.ObjectId();
      expect(parseObjectId(id, EJSON)).toBe(id);
      expect(parseObjectId(id.toHexString(), EJSON).equals(id)).toBe(true);
    });
  });

  describe('when the value is any other object', () => {
    it.each(INVALID_EXTENDED_JSON)('should refuse %s with an exact message', (_label, value, detail) => {
      const error = captureError(() => parseObjectId(value, EJSON));
      expect(error.message).toBe(detail);
      expect(tryParseObjectId(value, EJSON)).toBeUndefined();
      expect(isParsableObjectId(value, EJSON)).toBe(false);
    });

    it('should give the reason and position of a bad character inside "$oid"', () => {
      const error = captureError(() => parseObjectId({ $oid: '507f1f77bcf86cd7994390zz' }, EJSON));
      expect(error).toMatchObject({ reason: 'character', position: 22 });
      expect(captureError(() => parseObjectId({ $oid: null }, EJSON)).reason).toBe('type');
      expect(captureError(() => parseObjectId({ $oid: 'abc', x: 1 }, EJSON)).reason).toBe('type');
    });

    it('should never run a getter or a toString of the input', () => {
      let calls = 0;
      const spy = () => {
        calls += 1;
        return '507f1f77bcf86cd799439011';
      };
      const getter = Object.defineProperty({}, '$oid', { get: spy, enumerable: true });
      const stringish = { $oid: { toString: spy, valueOf: spy } };
      expect(tryParseObjectId(getter, EJSON)).toBeUndefined();
      expect(tryParseObjectId(stringish, EJSON)).toBeUndefined();
      expect(() => parseObjectId(getter, EJSON)).toThrow(ObjectIdParseError);
      expect(() => parseObjectId(stringish, EJSON)).toThrow(ObjectIdParseError);
      expect(calls).toBe(0);
    });

    it.each(INVALID_OBJECT_IDS.filter(([, value]) => typeof value !== 'object' || value === null))(
      'should keep the message for %s, which is no object',
      (_label, value, detail) => {
        expect(captureError(() => parseObjectId(value, EJSON)).message).toBe(detail);
      },
    );
  });

  describe('properties (seeded)', () => {
    it('should accept exactly the strict form, and give its hex', () => {
      fc.assert(
        fc.property(fc.oneof(extendedJsonInput, anyInput), (input) => {
          const id = tryParseObjectId(input, { ...EJSON, allowInstance: false });
          const expected = isStrictExtendedJson(input) || (typeof input === 'string' && HEX24.test(input));
          expect(id !== undefined).toBe(expected);
          if (id !== undefined && typeof input !== 'string') {
            expect(id.toHexString()).toBe((input as { $oid: string }).$oid.toLowerCase());
          }
          if (id === undefined) expect(() => parseObjectId(input, EJSON)).toThrow(ObjectIdParseError);
        }),
        FUZZ,
      );
    });

    it('should not change what is accepted without the option', () => {
      fc.assert(
        fc.property(extendedJsonInput, (input) => {
          expect(tryParseObjectId(input)).toBeUndefined();
        }),
        FUZZ,
      );
    });
  });
});
