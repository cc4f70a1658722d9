import type { Document } from 'bson';

import { BSON, BSONRegExp, Double, Long, ObjectId, Timestamp } from '../bson/bson-library.cjs';
import { withClusterTime } from '../commands/cluster-time.js';
import { CommandError } from '../commands/command-error.js';
import { decodeDocument, encodeDocument } from './bson-codec.js';
import { WireProtocolError } from './wire-protocol-error.js';

describe('decodeDocument', () => {
  it('should decode a regex JavaScript cannot compile as a BSONRegExp, and the others as RegExp, at any depth', () => {
    const bytes = BSON.serialize({
      bad: new BSONRegExp('(?i)a', 'i'),
      good: new BSONRegExp('^x', 'm'),
      nested: { list: [new BSONRegExp('['), /ok/] },
    });
    const doc = decodeDocument(bytes);
    expect(doc).toEqual({
      bad: new BSONRegExp('(?i)a', 'i'),
      good: /^x/m,
      nested: { list: [new BSONRegExp('['), /ok/] },
    });
  });

  it('should keep a field named "__proto__" an own field when decoding again', () => {
    const sent = {};
    Object.defineProperty(sent, '__proto__', { value: { bad: new BSONRegExp('(') }, enumerable: true });
    const doc = decodeDocument(BSON.serialize(sent));
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(doc, '__proto__')?.value).toEqual({ bad: new BSONRegExp('(') });
  });

  it('should refuse malformed BSON with a WireProtocolError naming the request', () => {
    const bytes = BSON.serialize({ a: 'text' });
    bytes[4] = 0x42; // unknown element type
    expect(() => decodeDocument(bytes, 7)).toThrow(
      expect.objectContaining({ name: 'WireProtocolError', requestId: 7 }),
    );
    expect(() => decodeDocument(bytes, 7)).toThrow(WireProtocolError);
  });

  it("should refuse a document nested deeper than 200 levels with mongod's Overflow error", () => {
    let value: unknown = 1;
    for (let i = 0; i < 201; i++) value = { a: value };
    expect(() => decodeDocument(BSON.serialize({ value }))).toThrow(
      new CommandError('Overflow', 'BSONObj exceeded maximum nested object depth: 200'),
    );
  });
});

describe('encodeDocument', () => {
  const time = (seconds: number, increment: number) => (BigInt(seconds) << 32n) | BigInt(increment);
  /** What bson writes for `doc` with its `ok` as the double mongod sends. */
  const expected = (doc: Document) => Buffer.from(BSON.serialize({ ...doc, ok: new Double(doc.ok as number) }));
  const find = () => ({
    cursor: { firstBatch: [{ _id: new ObjectId('6553f1030000000000000000'), n: 1 }], id: 0n, ns: 'db.items' },
    ok: 1,
  });

  it.each([
    ['a find', find()],
    ['an error', { ok: 0, errmsg: 'no such command', code: 59, codeName: 'CommandNotFound' }],
    ['ok alone', { ok: 1 }],
    ['ok not a number', { ok: new Double(1), n: new Long(5) }],
  ])('should encode %s stamped with the cluster time as bson encodes the whole reply', (_name, reply) => {
    const stamped = withClusterTime(reply, time(1_796_000_000, 3));
    const bytes = Buffer.from(encodeDocument(stamped));
    expect(bytes.equals(expected(stamped))).toBe(true);
    expect(BSON.deserialize(bytes, { promoteValues: false }).ok).toEqual(new Double(Number(reply.ok)));
  });

  it('should encode the time of each reply after the time moves, in the fields of the reply', () => {
    for (const [seconds, increment] of [
      [1_796_000_000, 1],
      [1_796_000_000, 2],
      [1_796_000_001, 1],
      [1_796_000_000, 2],
    ]) {
      const decoded = BSON.deserialize(encodeDocument(withClusterTime(find(), time(seconds!, increment!))));
      const ts = new Timestamp({ t: seconds!, i: increment! });
      expect(decoded.operationTime).toEqual(ts);
      expect(decoded.$clusterTime.clusterTime).toEqual(ts);
      expect(Object.keys(decoded)).toEqual(['cursor', 'ok', '$clusterTime', 'operationTime']);
    }
  });

  it('should keep a field named "__proto__" of a stamped reply a field', () => {
    const reply: Document = { ok: 1 };
    Object.defineProperty(reply, '__proto__', { value: { x: 1 }, enumerable: true, writable: true });
    const decoded = BSON.deserialize(encodeDocument(withClusterTime(reply, time(1_796_000_000, 4))));
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(decoded, '__proto__')?.value).toEqual({ x: 1 });
    expect(Object.keys(decoded)).toEqual(['ok', '__proto__', '$clusterTime', 'operationTime']);
  });

  it('should encode a reply that holds the stamped time elsewhere, or another time, as it is', () => {
    const stamped = withClusterTime(find(), time(1_796_000_000, 5));
    const reordered = { $clusterTime: stamped.$clusterTime, ok: 1, operationTime: stamped.operationTime };
    const other = {
      ...find(),
      $clusterTime: { clusterTime: new Timestamp({ t: 1, i: 1 }) },
      operationTime: stamped.operationTime,
    };
    for (const reply of [reordered, other]) {
      expect(Buffer.from(encodeDocument(reply)).equals(expected(reply))).toBe(true);
    }
  });
});
