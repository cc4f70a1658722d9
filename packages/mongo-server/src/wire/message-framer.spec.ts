import { jest } from '@jest/globals';
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

  // Counted in bytes copied, not timed: the work must grow with the frame, not with its square.
  it('copies a frame a bounded number of times however it is chunked, even after a 1-byte first chunk', () => {
    const big = frame(1_000_000, 7);
    const concat = jest.spyOn(Buffer, 'concat');
    try {
      const framer = new MessageFramer();
      const frames: Buffer[] = [];
      frames.push(...framer.push(big.subarray(0, 1)));
      for (let at = 1; at < big.length; at += 100) frames.push(...framer.push(big.subarray(at, at + 100)));
      // Buffer.equals: toEqual walks a megabyte element by element (seconds).
      expect(frames).toHaveLength(1);
      expect(frames[0]!.equals(big)).toBe(true);
      const copied = concat.mock.calls.reduce((sum, [list]) => sum + list.reduce((n, b) => n + b.length, 0), 0);
      expect(copied).toBeLessThanOrEqual(2 * big.length);
    } finally {
      concat.mockRestore();
    }
  });
});
