import { jest } from '@jest/globals';
import fc from 'fast-check';

import { ObjectId } from './bson-library.cjs';
import { encodeIndexValue } from './index-key-encoder.js';

describe('encodeIndexValue', () => {
  describe('ObjectId keys (read from bson’s words, not toHexString())', () => {
    it.each([
      '000000000000000000000000',
      'ffffffffffffffffffffffff',
      '0123456789abcdeffedcba98',
      '507f1f77bcf86cd799439011',
      '00000001000000ff00ff0000',
      'f00000000000000000000001',
    ])('should key %s as "o" and its lowercase hex', (hex) => {
      expect(encodeIndexValue(new ObjectId(hex))).toBe(`o${hex}`);
      expect(encodeIndexValue(new ObjectId(hex.toUpperCase()))).toBe(`o${hex}`);
    });

    it('should key every 12 bytes as toHexString() does', () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 12, maxLength: 12 }), (bytes) => {
          const id = new ObjectId(bytes);
          expect(encodeIndexValue(id)).toBe(`o${id.toHexString()}`);
        }),
        { numRuns: 2000 },
      );
    });

    it('should read the installed bson’s words instead of calling toHexString() (its rope is slow to hash)', () => {
      const toHexString = jest.spyOn(ObjectId.prototype, 'toHexString');
      try {
        expect(encodeIndexValue(new ObjectId('507f1f77bcf86cd799439011'))).toBe('o507f1f77bcf86cd799439011');
        expect(toHexString).not.toHaveBeenCalled();
      } finally {
        toHexString.mockRestore();
      }
    });

    it('should key the same id alike inside arrays and documents', () => {
      const hex = '507f1f77bcf86cd799439011';
      expect(encodeIndexValue([new ObjectId(hex), { a: new ObjectId(hex) }])).toBe(`[o${hex},{"a":o${hex}}]`);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['without words', {}, '507f1f77bcf86cd799439011'],
      ['with words that are not numbers', { i0: '1', i1: 2, i2: 3, i3: 4 }, 'aaaaaaaaaaaaaaaaaaaaaaaa'],
    ])('should fall back to toHexString() for an ObjectId %s', (_, words, hex) => {
      expect(encodeIndexValue({ _bsontype: 'ObjectId', ...words, toHexString: () => hex })).toBe(`o${hex}`);
    });
  });
});
