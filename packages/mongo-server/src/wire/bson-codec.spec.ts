import { BSON, BSONRegExp } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { decodeDocument } from './bson-codec.js';
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
