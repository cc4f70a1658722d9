import type { Socket } from 'node:net';

import type { Document } from 'bson';

import type { ServerInfo } from '../commands/command-context.js';
import type { CommandRouter } from '../commands/command-router.js';
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
 * connection only.
 */
export class WireConnection {
  private readonly framer = new MessageFramer();

  constructor(
    private readonly socket: Socket,
    private readonly router: CommandRouter,
    private readonly info: ServerInfo,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.onData(data));
    // A reset by the peer is routine for a test server; just drop the socket.
    socket.on('error', () => socket.destroy());
  }

  /** Closes the connection immediately. */
  destroy(): void {
    this.socket.destroy();
  }

  private onData(data: Buffer): void {
    try {
      for (const frame of this.framer.push(data)) {
        if (this.socket.destroyed) return;
        this.handleFrame(frame);
      }
    } catch (error) {
      this.fail(error);
    }
  }

  private handleFrame(frame: Buffer): void {
    const opCode = frame.readInt32LE(12);
    if (opCode === OpCode.OP_MSG) {
      const request = parseOpMsg(frame);
      const reply = this.router.run(request.body, this.info);
      if (!request.moreToCome) this.socket.write(encodeOpMsg(request.requestId, reply));
      return;
    }
    if (opCode === OpCode.OP_QUERY) {
      const request = parseOpQuery(frame);
      const query = (request.query.$query as Document | undefined) ?? request.query;
      const name = Object.keys(query)[0] ?? '';
      const reply =
        request.collection.endsWith('.$cmd') && HANDSHAKE_COMMANDS.has(name)
          ? this.router.run({ ...query, $db: 'admin' }, this.info)
          : {
              ok: 0,
              errmsg: `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`,
              code: ErrorCode.UnsupportedOpQueryCommand,
              codeName: 'UnsupportedOpQueryCommand',
            };
      this.socket.write(encodeOpReply(request.requestId, reply));
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
