import { ObjectId } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { CursorRegistry } from './cursor-registry.js';

const MiB = 1024 * 1024;

/** A document of about `mebibytes` MiB: an ASCII string (or `char` repeated) under `s`. */
function sized(mebibytes: number, char = 'x'): { _id: ObjectId; s: string } {
  return { _id: new ObjectId(), s: char.repeat(Math.round(mebibytes * MiB) / Buffer.byteLength(char)) };
}

describe('CursorRegistry', () => {
  describe('open', () => {
    it('should give a first batch of one small document and close the cursor', () => {
      const doc = { _id: new ObjectId(), name: 'Product 1', price: 12.5, inStock: true, at: new Date(0), none: null };
      expect(new CursorRegistry().open('db.c', [doc], 1)).toEqual({ id: 0n, ns: 'db.c', batch: [doc] });
    });

    it.each([
      ['an ASCII string over 16 MiB', () => sized(16.1)],
      ['a nested document over 16 MiB', () => ({ _id: 1, nested: sized(16.1) })],
    ])('should refuse a first document holding %s with BSONObjectTooLarge', (_label, make) => {
      const attempt = () => new CursorRegistry().open('db.c', [make()], 1);
      expect(attempt).toThrow(CommandError);
      expect(attempt).toThrow(/^BSONObj size: \d+ \(0x[0-9A-F]+\) is invalid/);
    });

    it('should send a document of 12 MiB in two-byte characters (under 16 MiB, though three bytes a character would not be)', () => {
      const doc = sized(12, 'é');
      expect(new CursorRegistry().open('db.c', [doc], 1).batch).toEqual([doc]);
    });

    it.each([
      ['5 and 12 MiB', 1, [5, 12]],
      ['5 and 10 MiB', 2, [5, 10]],
      ['1 KiB and 15.9 MiB', 2, [1 / 1024, 15.9]],
      ['1 KiB and 16 MiB', 1, [1 / 1024, 16]],
    ])('should cut a first batch of documents of %s at 16 MiB, after %i document(s)', (_label, count, sizes) => {
      const docs = sizes.map((mebibytes) => sized(mebibytes));
      expect(new CursorRegistry().open('db.c', docs, 101).batch).toHaveLength(count);
    });
  });
});
