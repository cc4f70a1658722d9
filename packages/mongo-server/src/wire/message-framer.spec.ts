import { MessageFramer } from './message-framer.js';
import { WireProtocolError } from './wire-protocol-error.js';

function frame(length: number, fill = 0): Buffer {
  const buf = Buffer.alloc(length, fill);
  buf.writeInt32LE(length, 0);
  return buf;
}

describe('MessageFramer', () => {
  it('returns frames split across and packed within chunks', () => {
    const framer = new MessageFramer();
    const a = frame(20, 1);
    const b = frame(30, 2);
    const stream = Buffer.concat([a, b]);
    expect(framer.push(stream.subarray(0, 3))).toEqual([]);
    expect(framer.push(stream.subarray(3, 25))).toEqual([a]);
    expect(framer.push(stream.subarray(25))).toEqual([b]);
    expect(framer.push(Buffer.concat([a, a]))).toEqual([a, a]);
  });

  it.each([
    ['too short', 15],
    ['too long', 48_000_001],
    ['negative', -5],
  ])('rejects a %s messageLength before buffering the body', (_label, length) => {
    const framer = new MessageFramer();
    const head = Buffer.alloc(16);
    head.writeInt32LE(length, 0);
    expect(() => framer.push(head)).toThrow(WireProtocolError);
  });

  it('accepts exactly 48,000,000 bytes', () => {
    const framer = new MessageFramer();
    const head = Buffer.alloc(16);
    head.writeInt32LE(48_000_000, 0);
    expect(framer.push(head)).toEqual([]);
  });
});
