import { BSON, Long, ObjectId } from 'bson';

import { encodeOpMsg, parseOpMsg } from './op-msg.js';
import { OpMsgFlags } from './wire-constants.js';

/** An OP_MSG frame: the body section, then one document sequence named `identifier`. */
function frameWithSequence(body: object, identifier: string, docs: object[]): Buffer {
  const bodyBytes = Buffer.from(BSON.serialize(body));
  const name = Buffer.from(`${identifier}\0`, 'utf8');
  const docBytes = docs.map((doc) => Buffer.from(BSON.serialize(doc)));
  const sequenceSize = 4 + name.length + docBytes.reduce((n, d) => n + d.length, 0);
  const sequence = Buffer.alloc(1 + 4);
  sequence.writeUInt8(1, 0);
  sequence.writeInt32LE(sequenceSize, 1);
  const payload = Buffer.concat([Buffer.from([0]), bodyBytes, sequence, name, ...docBytes]);
  const header = Buffer.alloc(20);
  header.writeInt32LE(20 + payload.length, 0);
  header.writeInt32LE(7, 4); // requestID
  header.writeInt32LE(0, 8); // responseTo
  header.writeInt32LE(2013, 12); // OP_MSG
  header.writeUInt32LE(0, 16); // flags
  return Buffer.concat([header, payload]);
}

describe('parseOpMsg', () => {
  it('should merge a document sequence into the command body', () => {
    const { body } = parseOpMsg(frameWithSequence({ insert: 'things', $db: 'test' }, 'documents', [{ a: 1 }]));
    expect(body).toEqual({ insert: 'things', $db: 'test', documents: [{ a: 1 }] });
  });

  it('should keep a sequence named "__proto__" an own field, never the command\'s prototype', () => {
    const { body } = parseOpMsg(frameWithSequence({ ping: 1, $db: 'admin' }, '__proto__', [{ isAdmin: true }]));
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect((body as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).toEqual([{ isAdmin: true }]);
  });
});

describe('encodeOpMsg', () => {
  /** The body section of a reply frame, after the header, flags and section kind. */
  const bodyOf = (frame: Buffer) => frame.subarray(21);

  describe('when the body is a cursor reply', () => {
    const doc = { _id: new ObjectId('65a1b2c3d4e5f60718293a4b'), name: 'Product 1', price: 12.5, tags: ['a', 'b'] };
    it.each([
      ['a first batch of one document', { cursor: { firstBatch: [doc], id: 0n, ns: 'shop.products' }, ok: 1 }],
      ['an empty first batch', { cursor: { firstBatch: [], id: 0n, ns: 'shop.products' }, ok: 1 }],
      [
        'a next batch',
        { cursor: { nextBatch: [doc, { _id: 2, nested: { a: [{ b: null }] } }], id: 123n, ns: 'db.c' }, ok: 1 },
      ],
      ['the largest cursor id', { cursor: { firstBatch: [doc], id: 2n ** 63n - 1n, ns: 'db.c' }, ok: 1 }],
      ['a negative cursor id', { cursor: { firstBatch: [doc], id: -5n, ns: 'db.c' }, ok: 1 }],
      ['a non-ASCII namespace', { cursor: { firstBatch: [doc], id: 0n, ns: 'données.café\u{1F600}' }, ok: 1 }],
      ['an undefined batch element', { cursor: { firstBatch: [undefined, doc], id: 0n, ns: 'db.c' }, ok: 1 }],
    ])('should give the bytes BSON.serialize gives for %s', (_label, body) => {
      const frame = encodeOpMsg(9, body, OpMsgFlags.moreToCome);
      expect(Buffer.from(bodyOf(frame)).equals(Buffer.from(BSON.serialize(body)))).toBe(true);
      expect(frame.readInt32LE(0)).toBe(frame.length);
      expect(frame.readInt32LE(8)).toBe(9);
      expect(frame.readInt32LE(12)).toBe(2013);
      expect(frame.readUInt32LE(16)).toBe(OpMsgFlags.moreToCome);
    });
  });

  describe('when the body is any other reply', () => {
    it.each([
      ['ok as a double', { cursor: { firstBatch: [], id: 0n, ns: 'db.c' }, ok: 1.5 }],
      ['a Long cursor id', { cursor: { firstBatch: [], id: Long.fromNumber(7), ns: 'db.c' }, ok: 1 }],
      [
        'a further cursor field',
        { cursor: { firstBatch: [], id: 0n, ns: 'db.c', postBatchResumeToken: { _data: 'x' } }, ok: 1 },
      ],
      ['a further reply field', { cursor: { firstBatch: [], id: 0n, ns: 'db.c' }, ok: 1, note: 'x' }],
      ['fields in another order', { ok: 1, cursor: { id: 0n, firstBatch: [], ns: 'db.c' } }],
      ['a plain ok', { ok: 1 }],
      ['an error', { ok: 0, errmsg: 'no', code: 2, codeName: 'BadValue' }],
    ])('should encode %s as BSON.serialize does', (_label, body) => {
      expect(Buffer.from(bodyOf(encodeOpMsg(1, body))).equals(Buffer.from(BSON.serialize(body)))).toBe(true);
    });
  });
});
