import { HEADER_SIZE, MAX_MESSAGE_SIZE } from './wire-constants.js';
import { WireProtocolError } from './wire-protocol-error.js';

/**
 * Splits a TCP byte stream into whole wire-protocol frames using the
 * leading int32 messageLength, validating it before buffering anything.
 */
export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  /** Adds received bytes and returns every frame now complete (throws WireProtocolError on a bad length). */
  push(data: Buffer): Buffer[] {
    if (this.buffered === 0 && data.length >= HEADER_SIZE && data.readInt32LE(0) === data.length) {
      // The usual read: exactly one whole request, nothing buffered before it.
      if (data.length <= MAX_MESSAGE_SIZE) return [data];
    }
    this.chunks.push(data);
    this.buffered += data.length;
    const frames: Buffer[] = [];
    while (this.buffered >= 4) {
      const head = this.peek(Math.min(this.buffered, HEADER_SIZE));
      const length = head.readInt32LE(0);
      if (length < HEADER_SIZE || length > MAX_MESSAGE_SIZE) {
        const requestId = head.length >= 8 ? head.readInt32LE(4) : undefined;
        throw new WireProtocolError(
          `recv(): message msgLen ${length} is invalid. Min ${HEADER_SIZE} Max: ${MAX_MESSAGE_SIZE}`,
          requestId,
        );
      }
      if (this.buffered < length) break;
      frames.push(this.take(length));
    }
    return frames;
  }

  /**
   * The first `n` bytes. When the first chunk is shorter, only the leading
   * chunks that hold them are merged, once: concatenating every buffered chunk
   * on each push made a frame whose first chunk was tiny cost quadratic time.
   */
  private peek(n: number): Buffer {
    if (this.chunks[0]!.length < n) {
      let size = 0;
      let count = 0;
      while (size < n) size += this.chunks[count++]!.length;
      this.chunks.splice(0, count, Buffer.concat(this.chunks.slice(0, count), size));
    }
    return this.chunks[0]!.subarray(0, n);
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const frame = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return frame;
  }
}
