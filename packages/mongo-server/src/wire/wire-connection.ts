import type { Socket } from 'node:net';

import type { Document } from 'bson';

import type { ServerInfo } from '../commands/command-context.js';
import type { CommandOutcome, CommandRouter } from '../commands/command-router.js';
import { ErrorCode } from '../commands/command-error.js';
import { MessageFramer } from './message-framer.js';
import { encodeOpMsg, parseOpMsg } from './op-msg.js';
import { encodeOpReply, parseOpQuery } from './op-query.js';
import { OpCode } from './wire-constants.js';
import { WireProtocolError } from './wire-protocol-error.js';

const HANDSHAKE_COMMANDS = new Set(['isMaster', 'ismaster', 'hello']);

/**
 * One client connection: frames the byte stream, runs each request through
 * the router synchronously and writes the reply. A protocol violation gets
 * a ProtocolError reply (when the request id is known) and closes this
 * connection only. A reply held back by a `blockConnection` fail point
 * holds back the frames behind it too, so replies stay in request order.
 */
export class WireConnection {
  private readonly framer = new MessageFramer();
  /** Frames that arrived while a delayed reply was pending. */
  private readonly queued: Buffer[] = [];
  private delayTimer?: NodeJS.Timeout;

  constructor(
    private readonly socket: Socket,
    private readonly router: CommandRouter,
    private readonly info: ServerInfo,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.onData(data));
    // A reset by the peer is routine for a test server; just drop the socket.
    socket.on('error', () => socket.destroy());
    socket.once('close', () => clearTimeout(this.delayTimer));
  }

  /** Closes the connection immediately. */
  destroy(): void {
    clearTimeout(this.delayTimer);
    this.socket.destroy();
  }

  private onData(data: Buffer): void {
    try {
      for (const frame of this.framer.push(data)) {
        if (this.socket.destroyed) return;
        if (this.delayTimer) this.queued.push(frame);
        else this.handleFrame(frame);
      }
    } catch (error) {
      this.fail(error);
    }
  }

  /** Sends (or closes for) a command's outcome, after its `delayMS` if any. */
  private respond(outcome: CommandOutcome, encode: (reply: Document) => Buffer, expectsReply: boolean): void {
    const send = (): void => {
      if (outcome.closeConnection) this.socket.destroy();
      else if (expectsReply && outcome.reply) this.socket.write(encode(outcome.reply));
    };
    if (!outcome.delayMS) {
      send();
      return;
    }
    this.delayTimer = setTimeout(() => {
      this.delayTimer = undefined;
      if (this.socket.destroyed) return;
      send();
      this.drainQueued();
    }, outcome.delayMS);
  }

  private drainQueued(): void {
    try {
      while (!this.delayTimer && !this.socket.destroyed && this.queued.length > 0)
        this.handleFrame(this.queued.shift()!);
    } catch (error) {
      this.fail(error);
    }
  }

  private handleFrame(frame: Buffer): void {
    const opCode = frame.readInt32LE(12);
    if (opCode === OpCode.OP_MSG) {
      const request = parseOpMsg(frame);
      const outcome = this.router.execute(request.body, this.info);
      this.respond(outcome, (reply) => encodeOpMsg(request.requestId, reply), !request.moreToCome);
      return;
    }
    if (opCode === OpCode.OP_QUERY) {
      const request = parseOpQuery(frame);
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

  private fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const requestId = error instanceof WireProtocolError ? error.requestId : undefined;
    if (requestId !== undefined && !this.socket.destroyed) {
      const reply = { ok: 0, errmsg: message, code: ErrorCode.ProtocolError, codeName: 'ProtocolError' };
      this.socket.end(encodeOpMsg(requestId, reply));
      this.socket.destroySoon();
    } else {
      this.socket.destroy();
    }
  }
}
