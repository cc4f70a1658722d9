import { BSON } from '../bson/bson-library.cjs';
import { namedIdTwice, noteDuplicateId, noteDuplicateIdsInBody } from './duplicate-ids.js';

/** `{ <name>: "x", … }` as BSON, each field a short string, in the order given (names may repeat). */
function stringsDoc(names: string[]): Buffer {
  const elements = names.map((name) =>
    Buffer.concat([Buffer.from([0x02]), Buffer.from(`${name}\0`), Buffer.from([2, 0, 0, 0]), Buffer.from('x\0')]),
  );
  const body = Buffer.concat([...elements, Buffer.from([0])]);
  const size = Buffer.alloc(4);
  size.writeInt32LE(body.length + 4);
  return Buffer.concat([size, body]);
}

describe('duplicate _id fields in inserted documents', () => {
  it.each<[string, Buffer, boolean]>([
    ['two _id fields', stringsDoc(['_id', 'a', '_id']), true],
    ['one _id field', stringsDoc(['_id', 'a']), false],
    ['_id and _idx', stringsDoc(['_id', '_idx']), false],
    [
      '_id inside embedded documents and arrays',
      Buffer.from(BSON.serialize({ _id: 1, a: { _id: 2 }, b: [{ _id: 3 }] })),
      false,
    ],
  ])('should tell %s', (_label, bytes, twice) => {
    const doc = {};
    noteDuplicateId(bytes, doc);
    expect(namedIdTwice(doc)).toBe(twice);
  });

  it('should stop, never loop, on an embedded document whose length is too small', () => {
    const bytes = Buffer.from(BSON.serialize({ a: { b: 1 }, _id: 1 }));
    bytes.writeInt32LE(-8, 7); // the length of `a`'s document, after the type byte and "a\0"
    const doc = {};
    noteDuplicateId(bytes, doc);
    expect(namedIdTwice(doc)).toBe(false);
  });

  it("should mark the documents of an insert's body that name _id twice, by their place in the array", () => {
    const docs = [stringsDoc(['_id']), stringsDoc(['_id', '_id'])];
    // { insert: 'c', documents: [<docs>] } built by hand: bson cannot write a document naming a field twice.
    const array = Buffer.concat([
      ...docs.map((doc, i) => Buffer.concat([Buffer.from([0x03]), Buffer.from(`${i}\0`), doc])),
      Buffer.from([0]),
    ]);
    const arraySize = Buffer.alloc(4);
    arraySize.writeInt32LE(array.length + 4);
    const insert = Buffer.concat([
      Buffer.from([0x02]),
      Buffer.from('insert\0'),
      Buffer.from([2, 0, 0, 0]),
      Buffer.from('c\0'),
    ]);
    const body = Buffer.concat([
      insert,
      Buffer.from([0x04]),
      Buffer.from('documents\0'),
      arraySize,
      array,
      Buffer.from([0]),
    ]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(body.length + 4);
    const decoded = { insert: 'c', documents: [{ _id: 'x' }, { _id: 'x' }] };
    noteDuplicateIdsInBody(Buffer.concat([size, body]), decoded);
    expect(decoded.documents.map(namedIdTwice)).toEqual([false, true]);
  });
});
