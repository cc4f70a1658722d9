import { BSON, Double } from '../bson/bson-library.cjs';
import { encodeOpMsg, parseOpMsg } from './op-msg.js';

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
  const body = (bytes: number) => ({
    values: Array.from({ length: bytes / 100_000 }, () => 'x'.repeat(100_000)),
    ok: 1,
  });
  const decoded = (frame: Buffer) => BSON.deserialize(frame.subarray(21));

  it.each([
    ['just over 16 MiB + 16 KiB, which bson still serializes', 16_900_000],
    ['over 17 MB, which bson refuses to serialize', 20_000_000],
  ])('should answer BSONObjectTooLarge for a reply %s', (_, bytes) => {
    const reply = decoded(encodeOpMsg(7, body(bytes)));
    expect(reply).toMatchObject({ ok: 0, code: 10334, codeName: 'BSONObjectTooLarge' });
    // The size of the reply as sent, its `ok` a double.
    const size = BSON.calculateObjectSize({ ...body(bytes), ok: new Double(1) });
    expect(reply.errmsg).toBe(
      `BSONObj size: ${size} (0x${size.toString(16).toUpperCase()}) is invalid. Size must be between 0 and 16793600(16MB): the reply is too large to send`,
    );
  });

  it.each([
    ['a success', { ok: 1 }],
    ['a success with fields', { n: 1, ok: 1 }],
    ['a failure', { ok: 0, errmsg: 'failed', code: 2, codeName: 'BadValue' }],
  ])('should send the ok of %s as a double, as mongod does', (_, reply) => {
    const sent = BSON.deserialize(encodeOpMsg(7, reply).subarray(21), { promoteValues: false });
    expect(sent.ok).toBeInstanceOf(Double);
    expect(sent.ok.value).toBe(reply.ok);
  });

  it('should send a reply of 16 MiB whole', () => {
    expect(decoded(encodeOpMsg(7, body(16_700_000))).values).toHaveLength(167);
  });

  it.each([
    ['at the top', { 'a\0b': 1, ok: 1 }, 'a\\0b'],
    ['in a batch document', { cursor: { firstBatch: [{ _id: 1, nested: { 'x\0': 1 } }] }, ok: 1 }, 'x\\0'],
  ])('should answer an error for a reply with a field name holding a NUL byte %s, not throw', (_, reply, shown) => {
    const decodedReply = decoded(encodeOpMsg(7, reply));
    expect(decodedReply).toMatchObject({ ok: 0, code: 2, codeName: 'BadValue' });
    expect(decodedReply.errmsg).toContain(`key ${shown} must not contain null bytes`);
    expect(decodedReply.errmsg).toContain('MONGO_URL');
  });
});
