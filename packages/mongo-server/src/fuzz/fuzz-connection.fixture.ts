import { connect, type Socket } from 'node:net';

import { BSON } from '../bson/bson-library.cjs';
import { MessageFramer } from '../wire/message-framer.js';
import { OpCode } from '../wire/wire-constants.js';
import { HANG_MS, type Reply } from './fuzz-oracle.fixture.js';

/** One client connection to the fuzzed server. */
export class FuzzConnection {
  private readonly framer = new MessageFramer();
  private readonly replies: Reply[] = [];
  private closed = false;
  /** Why a reply could not be read, if one could not. */
  private malformed?: unknown;
  private wake?: () => void;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (data: Buffer) => {
      try {
        for (const frame of this.framer.push(data)) this.replies.push(FuzzConnection.parse(frame));
      } catch (error) {
        this.malformed = error;
        socket.destroy();
      }
      this.wake?.();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  static open(port: number): Promise<FuzzConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new FuzzConnection(socket)));
      socket.once('error', reject);
    });
  }

  private static parse(frame: Buffer): Reply {
    const opCode = frame.readInt32LE(12);
    const start = opCode === OpCode.OP_REPLY ? 36 : 21;
    if (opCode === OpCode.OP_MSG && frame[20] !== 0) throw new Error(`reply section kind ${frame[20]}`);
    // bsonRegExp: a stored regex may be one JavaScript cannot compile.
    const body = BSON.deserialize(frame.subarray(start), { useBigInt64: true, bsonRegExp: true });
    return { opCode, responseTo: frame.readInt32LE(8), body };
  }

  send(bytes: Buffer): void {
    if (!this.closed) this.socket.write(bytes);
  }

  /** The next reply, or 'closed'; throws after {@link HANG_MS}. */
  async next(what: string): Promise<Reply | 'closed'> {
    const deadline = Date.now() + HANG_MS;
    while (this.replies.length === 0 && !this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no reply and no close within ${HANG_MS} ms to ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const reply = this.replies.shift();
    if (reply) return reply;
    if (this.malformed)
      throw new Error(`malformed reply to ${what}: ${String(this.malformed)}`, { cause: this.malformed });
    return 'closed';
  }

  /** Half-closes, then every reply still coming until the server closes (throws after {@link HANG_MS}). */
  async finish(what: string): Promise<Reply[]> {
    this.socket.end();
    const rest: Reply[] = [];
    for (let reply = await this.next(what); reply !== 'closed'; reply = await this.next(what)) rest.push(reply);
    return rest;
  }

  destroy(): void {
    this.socket.destroy();
  }
}
