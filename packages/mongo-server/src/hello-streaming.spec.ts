/**
 * Streaming monitoring on the wire: an awaitable hello sent with
 * `exhaustAllowed` gets a stream of `moreToCome` replies. Embedded server
 * only (raw frames); conformance-awaitable-hello.spec.ts checks the driver's
 * side, and the sample app's recovery suite what it is for.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Document } from 'bson';

import { BSON } from './bson/bson-library.cjs';
import { EmbeddedMongoServer } from './index.js';
import { MessageFramer } from './wire/message-framer.js';
import { encodeOpMsgRequest } from './wire/op-msg.js';
import { OpMsgFlags } from './wire/wire-constants.js';

let server: EmbeddedMongoServer;

beforeAll(async () => {
  server = await EmbeddedMongoServer.start();
});
afterAll(() => server?.stop());

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, server.host, () => resolve(socket));
    socket.once('error', reject);
  });
}

interface Reply {
  requestId: number;
  responseTo: number;
  flags: number;
  body: Document;
}

/** The next `count` replies on `socket`. */
function readReplies(socket: Socket, count: number): Promise<Reply[]> {
  const framer = new MessageFramer();
  const replies: Reply[] = [];
  return new Promise((resolve) => {
    socket.on('data', (data: Buffer) => {
      for (const frame of framer.push(data)) {
        replies.push({
          requestId: frame.readInt32LE(4),
          responseTo: frame.readInt32LE(8),
          flags: frame.readUInt32LE(16),
          body: BSON.deserialize(frame.subarray(21)),
        });
      }
      if (replies.length >= count) resolve(replies.slice(0, count));
    });
  });
}

async function topologyVersion(socket: Socket): Promise<Document> {
  const reply = readReplies(socket, 1);
  socket.write(encodeOpMsgRequest(1, { hello: 1, $db: 'admin' }));
  const [{ body }] = (await reply) as [Reply];
  socket.removeAllListeners('data');
  return body.topologyVersion as Document;
}

describe('exhaust hello', () => {
  it('should stream moreToCome replies, each answering the one before, until the client closes', async () => {
    const socket = await open();
    const version = await topologyVersion(socket);
    const replies = readReplies(socket, 3);
    const hello = { hello: 1, topologyVersion: version, maxAwaitTimeMS: 150, $db: 'admin' };
    socket.write(encodeOpMsgRequest(77, hello, OpMsgFlags.exhaustAllowed));
    const [first, second, third] = (await replies) as [Reply, Reply, Reply];
    expect([first.responseTo, second.responseTo, third.responseTo]).toEqual([77, first.requestId, second.requestId]);
    for (const reply of [first, second, third]) {
      expect(reply.flags & OpMsgFlags.moreToCome).toBe(OpMsgFlags.moreToCome);
      expect(reply.body).toMatchObject({ ok: 1, isWritablePrimary: true, topologyVersion: version });
    }
    socket.destroy();
    while (server.connectionCount > 0) await sleep(10);
  });

  it('should answer an awaitable hello without exhaustAllowed once, without moreToCome', async () => {
    const socket = await open();
    const version = await topologyVersion(socket);
    const replies: Buffer[] = [];
    socket.on('data', (data: Buffer) => replies.push(data));
    socket.write(encodeOpMsgRequest(78, { hello: 1, topologyVersion: version, maxAwaitTimeMS: 50, $db: 'admin' }));
    await sleep(400);
    socket.destroy();
    const frames = new MessageFramer().push(Buffer.concat(replies));
    expect(frames.map((frame) => [frame.readInt32LE(8), frame.readUInt32LE(16)])).toEqual([[78, 0]]);
  });
});
