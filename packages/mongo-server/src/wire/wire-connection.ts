import type { Socket } from 'node:net';

import type { Document } from 'bson';

import { helloAwaitTimeMS } from '../commands/awaitable-hello.js';
import type { ServerInfo } from '../commands/command-context.js';
import type { CommandOutcome, CommandRouter } from '../commands/command-router.js';
import { CommandError, ErrorCode } from '../commands/command-error.js';
import { MessageFramer } from './message-framer.js';
import { encodeOpMsg, parseOpMsg } from './op-msg.js';
import { encodeOpReply, parseOpQuery } from './op-query.js';
import { HEADER_SIZE, OpCode, OpMsgFlags } from './wire-constants.js';
import { WireProtocolError } from './wire-protocol-error.js';

const HANDSHAKE_COMMANDS = new Set(['isMaster', 'ismaster', 'hello']);

/**
 * Least time between two replies of an exhaust stream: a client asking for
 * `maxAwaitTimeMS: 0` would otherwise get an endless burst of replies.
 */
const MIN_STREAM_INTERVAL_MS = 100;

/** A hello of the streaming monitoring protocol: it carries the `topologyVersion` the client last saw. */
function isAwaitableHello(body: Document): boolean {
  return HANDSHAKE_COMMANDS.has(Object.keys(body)[0] ?? '') && body.topologyVersion !== undefined;
}

/**
 * One client connection: frames the byte stream, runs each request through
 * the router synchronously and writes the reply. A protocol violation gets
 * a ProtocolError reply (when the request id is known) and closes this
 * connection only.
 *
 * Back-pressure: while a reply waits (held back by a `blockConnection` fail
 * point, or unsent because the client does not read and the socket's write
 * buffer is above its high-water mark), no further request runs and the
 * socket stops reading. Without that, a client that pipelines big finds and
 * never reads made the server buffer every reply (150 finds of 10 MB took
 * 1.6 GB); now such a client stalls only itself, holding about one reply, and
 * its further requests wait in the kernel's and the client's buffers. Replies
 * stay in request order.
 *
 * Streaming monitoring: an awaitable hello (with the `topologyVersion` the
 * client last saw and `maxAwaitTimeMS`) is answered after its wait; sent with
 * `exhaustAllowed`, its replies carry `moreToCome` and keep coming, one per
 * `maxAwaitTimeMS`, until the connection closes — MongoDB's streaming
 * protocol, which the driver uses whenever hello reports a `topologyVersion`.
 * Without it the driver polls with a hello on the monitoring connection after
 * every pool error, and mongodb 7.8 can wait for ever for `drain` on a socket
 * closed during that write: the server then stays Unknown to that client.
 */
export class WireConnection {
  private readonly framer = new MessageFramer();
  /**
   * Frames read but not yet run. Reading pauses as soon as one must wait, so
   * this holds at most what a few reads brought in, not what the client sent.
   */
  private pending: Buffer[] = [];
  private delayTimer?: NodeJS.Timeout;
  /** The outcome of a command still running (a write waiting for a transaction's lock). */
  private later?: Promise<CommandOutcome>;

  constructor(
    private readonly socket: Socket,
    private readonly router: CommandRouter,
    private readonly info: ServerInfo,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.onData(data));
    socket.on('drain', () => this.runPending());
    // A reset by the peer is routine for a test server; just drop the socket.
    socket.on('error', () => socket.destroy());
    socket.once('close', () => {
      this.info.closed = true;
      this.info.onClose?.();
      clearTimeout(this.delayTimer);
      this.pending = [];
    });
  }

  /** Closes the connection immediately. */
  destroy(): void {
    this.info.closed = true;
    clearTimeout(this.delayTimer);
    this.socket.destroy();
  }

  private onData(data: Buffer): void {
    try {
      for (const frame of this.framer.push(data)) this.pending.push(frame);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.runPending();
  }

  /** A reply is held back or the client is not reading what was sent: run nothing more until it is. */
  private get waiting(): boolean {
    return this.delayTimer !== undefined || this.later !== undefined || this.socket.writableNeedDrain;
  }

  /** Runs pending frames in order until none is left or one must wait; reads only while nothing waits. */
  private runPending(): void {
    while (!this.waiting && !this.socket.destroyed && this.pending.length > 0) {
      const frame = this.pending.shift()!;
      try {
        this.handleFrame(frame);
      } catch (error) {
        this.fail(error, frame.readInt32LE(12));
        return;
      }
    }
    if (this.socket.destroyed) return;
    if (this.waiting) this.socket.pause();
    else if (this.socket.isPaused()) this.socket.resume();
  }

  /** Sends (or closes for) a command's outcome, after its `delayMS` if any. */
  private respond(outcome: CommandOutcome, encode: (reply: Document) => Buffer, expectsReply: boolean): void {
    if (outcome.later) {
      this.later = outcome.later;
      void outcome.later.then(
        (next) => {
          this.later = undefined;
          if (this.socket.destroyed) return;
          this.guarded(() => this.respond(next, encode, expectsReply));
          this.runPending();
        },
        (error: unknown) => {
          this.later = undefined;
          this.fail(error);
        },
      );
      return;
    }
    if (!outcome.delayMS) {
      this.send(outcome, encode, expectsReply);
      return;
    }
    this.delayTimer = setTimeout(() => {
      this.delayTimer = undefined;
      if (this.socket.destroyed) return;
      this.guarded(() => this.send(outcome, encode, expectsReply));
      this.runPending();
    }, outcome.delayMS);
  }

  private send(outcome: CommandOutcome, encode: (reply: Document) => Buffer, expectsReply: boolean): void {
    if (outcome.closeConnection) this.socket.destroy();
    else if (expectsReply && outcome.reply) this.socket.write(encode(outcome.reply));
  }

  /**
   * Runs `fn` outside the frame loop (a timer, a promise): what it throws
   * closes this connection, where it would otherwise be uncaught and end the
   * whole process.
   */
  private guarded(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * Parses a frame; when its command is refused while parsing (nested too deep), answers
   * that error as mongod does and returns undefined: the frame itself was sound.
   */
  private parse<T>(frame: Buffer, parser: (frame: Buffer) => T, encode: (reply: Document) => Buffer): T | undefined {
    try {
      return parser(frame);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      const moreToCome =
        frame.readInt32LE(12) === OpCode.OP_MSG && (frame.readUInt32LE(HEADER_SIZE) & OpMsgFlags.moreToCome) !== 0;
      this.respond({ reply: error.toReply() }, encode, !moreToCome);
      return undefined;
    }
  }

  private handleFrame(frame: Buffer): void {
    const opCode = frame.readInt32LE(12);
    const requestId = frame.readInt32LE(4);
    if (opCode === OpCode.OP_MSG) {
      const request = this.parse(frame, parseOpMsg, (reply) => encodeOpMsg(requestId, reply));
      if (!request) return;
      const exhaustAllowed = (request.flags & OpMsgFlags.exhaustAllowed) !== 0;
      this.runOpMsg(request.body, request.requestId, !request.moreToCome, exhaustAllowed);
      return;
    }
    if (opCode === OpCode.OP_QUERY) {
      const request = this.parse(frame, parseOpQuery, (reply) => encodeOpReply(requestId, reply));
      if (!request) return;
      const query = (request.query.$query as Document | undefined) ?? request.query;
      const name = Object.keys(query)[0] ?? '';
      const outcome: CommandOutcome =
        request.collection.endsWith('.$cmd') && HANDSHAKE_COMMANDS.has(name)
          ? this.router.execute({ ...query, $db: 'admin' }, this.info)
          : {
              reply: {
                ok: 0,
                errmsg: `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`,
                code: ErrorCode.UnsupportedOpQueryCommand,
                codeName: 'UnsupportedOpQueryCommand',
              },
            };
      this.respond(outcome, (reply) => encodeOpReply(request.requestId, reply), true);
      return;
    }
    throw new WireProtocolError(`opcode ${opCode} is not supported; send OP_MSG (2013)`, frame.readInt32LE(4));
  }

  /** Runs an OP_MSG command, after the wait of an awaitable hello (its arguments' errors are the router's to answer). */
  private runOpMsg(body: Document, responseTo: number, expectsReply: boolean, exhaustAllowed: boolean): void {
    let wait = 0;
    if (isAwaitableHello(body)) {
      try {
        wait = helloAwaitTimeMS(body, this.info);
      } catch {
        // The router answers the same error.
      }
    }
    if (wait === 0) {
      this.answerOpMsg(body, responseTo, expectsReply, exhaustAllowed);
      return;
    }
    this.delayTimer = setTimeout(() => {
      this.delayTimer = undefined;
      if (this.socket.destroyed) return;
      this.guarded(() => this.answerOpMsg(body, responseTo, expectsReply, exhaustAllowed));
      this.runPending();
    }, wait);
  }

  /**
   * Runs the command and answers it. An awaitable hello sent with
   * `exhaustAllowed` is answered with `moreToCome` and run again, as the
   * next request of the stream, with the `topologyVersion` just sent.
   */
  private answerOpMsg(body: Document, responseTo: number, expectsReply: boolean, exhaustAllowed: boolean): void {
    const outcome = this.router.execute(body, this.info);
    const reply = outcome.reply;
    const streams =
      exhaustAllowed && expectsReply && isAwaitableHello(body) && reply?.ok === 1 && !outcome.delayMS && !outcome.later;
    if (!streams) {
      this.respond(outcome, (answer) => encodeOpMsg(responseTo, answer), expectsReply);
      return;
    }
    const frame = encodeOpMsg(responseTo, reply, OpMsgFlags.moreToCome);
    this.socket.write(frame);
    // mongod answers each reply of a stream to the one before it.
    this.continueStream({ ...body, topologyVersion: reply.topologyVersion as unknown }, frame.readInt32LE(4));
  }

  /** Sends the next reply of an exhaust stream after its wait; a client that does not read misses turns instead of filling memory. */
  private continueStream(next: Document, previousId: number): void {
    const wait = Math.max(MIN_STREAM_INTERVAL_MS, helloAwaitTimeMS(next, this.info));
    this.delayTimer = setTimeout(() => {
      this.delayTimer = undefined;
      if (this.socket.destroyed) return;
      if (this.socket.writableNeedDrain) this.continueStream(next, previousId);
      else this.guarded(() => this.answerOpMsg(next, previousId, true, true));
      this.runPending();
    }, wait);
  }

  /** Closes the connection for a frame it cannot serve, answering ProtocolError first when the frame's id is known. */
  private fail(error: unknown, opCode: number = OpCode.OP_MSG): void {
    const message = error instanceof Error ? error.message : String(error);
    const requestId = error instanceof WireProtocolError ? error.requestId : undefined;
    if (requestId !== undefined && !this.socket.destroyed) {
      const reply = { ok: 0, errmsg: message, code: ErrorCode.ProtocolError, codeName: 'ProtocolError' };
      // A client that sent OP_QUERY reads an OP_REPLY.
      const encode = opCode === OpCode.OP_QUERY ? encodeOpReply : encodeOpMsg;
      this.socket.end(encode(requestId, reply));
      this.socket.destroySoon();
    } else {
      this.socket.destroy();
    }
  }
}
