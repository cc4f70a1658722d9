import fc from 'fast-check';

import { ObjectId } from './bson-library.cjs';
import { compareObjectIdWords, objectIdHex } from './object-id-words.js';

/** Byte order, the reference: what MongoDB sorts ObjectIds by. */
function compareBytes(a: ObjectId, b: ObjectId): number {
  return Math.sign(Buffer.compare(a.id, b.id));
}

const twelveBytes = fc.uint8Array({ minLength: 12, maxLength: 12 });

describe('object-id-words', () => {
  describe('compareObjectIdWords', () => {
    it.each([
      ['000000000000000000000000', '000000000000000000000001', -1],
      ['000000000000000000000001', '000000000000000000000000', 1],
      ['ffffff000000000000000000', '000000ffffffffffffffffff', 1],
      ['000000000000ff0000000000', '000000000000fe0000ffffff', 1],
      ['507f1f77bcf86cd799439011', '507f1f77bcf86cd799439011', 0],
      ['7fffffffffffffffffffffff', '800000000000000000000000', -1],
    ])('should order %s against %s as %i, as their bytes', (a, b, expected) => {
      expect(compareObjectIdWords(new ObjectId(a), new ObjectId(b))).toBe(expected);
      expect(compareBytes(new ObjectId(a), new ObjectId(b))).toBe(expected);
    });

    it('should order any two ids as their bytes do', () => {
      fc.assert(
        fc.property(twelveBytes, twelveBytes, fc.nat(11), (x, y, shared) => {
          // Ids that share a prefix, so that the later words decide too.
          y.set(x.subarray(0, shared));
          const a = new ObjectId(x);
          const b = new ObjectId(y);
          expect(compareObjectIdWords(a, b)).toBe(compareBytes(a, b));
          expect(compareObjectIdWords(a, new ObjectId(x))).toBe(0);
        }),
        { numRuns: 2000 },
      );
    });

    it.each([
      ['the first has no words', { id: Buffer.alloc(12) }, new ObjectId()],
      ['the second has no words', new ObjectId(), { id: Buffer.alloc(12) }],
      ['a word is not a number', Object.assign(new ObjectId(), { i2: '1' }), new ObjectId()],
    ])('should leave the comparison to the bytes when %s', (_, a, b) => {
      expect(compareObjectIdWords(a, b)).toBeUndefined();
    });
  });

  describe('objectIdHex', () => {
    it('should give toHexString() of any id', () => {
      fc.assert(
        fc.property(twelveBytes, (bytes) => {
          const id = new ObjectId(bytes);
          expect(objectIdHex(id)).toBe(id.toHexString());
        }),
        { numRuns: 2000 },
      );
    });
  });
});
