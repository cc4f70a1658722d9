/**
 * Malformed frames over a raw TCP socket: each closes only its own
 * connection; the server keeps serving everyone else. Embedded backend
 * only — a real mongod's exact reaction is not part of this contract.
 */
import { connect, type Socket } from 'node:net';

import { MongoClient } from 'mongodb';

import { BSON, Timestamp } from './bson/bson-library.cjs';
import { EmbeddedMongoServer } from './index.js';
import { MessageFramer } from './wire/message-framer.js';
import { encodeOpMsgRequest } from './wire/op-msg.js';

let server: EmbeddedMongoServer;
let client: MongoClient;

/** A ping's reply: ok, and the cluster time every reply of a replica-set member carries. */
const PING_REPLY = {
  ok: 1,
  $clusterTime: { clusterTime: expect.any(Timestamp), signature: expect.any(Object) },
  operationTime: expect.any(Timestamp),
};

beforeAll(async () => {
  server = await EmbeddedMongoServer.start();
  client = await new MongoClient(server.uri).connect();
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, server.host, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes `bytes` and resolves with everything received until the server closes the socket. */
async function sendAndAwaitClose(bytes: Buffer): Promise<Buffer> {
  const socket = await open();
  const received: Buffer[] = [];
  socket.on('data', (d: Buffer) => received.push(d));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not close the connection')), 2000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.write(bytes);
  });
  return Buffer.concat(received);
}

/** The next `count` frames the server sends on `socket` (fails after 2 s). */
function readFrames(socket: Socket, count: number): Promise<Buffer[]> {
  const framer = new MessageFramer();
  const frames: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${frames.length} of ${count} replies arrived`)), 2000);
    socket.on('data', (data: Buffer) => {
      frames.push(...framer.push(data));
      if (frames.length >= count) {
        clearTimeout(timer);
        resolve(frames);
      }
    });
  });
}

function header(length: number, opCode: number, requestId = 7): Buffer {
  const head = Buffer.alloc(16);
  head.writeInt32LE(length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(0, 8);
  head.writeInt32LE(opCode, 12);
  return head;
}

function opMsgWithBody(body: Buffer): Buffer {
  const head = header(16 + 4 + 1 + body.length, 2013);
  return Buffer.concat([head, Buffer.alloc(4), Buffer.from([0]), body]);
}

const badBson = Buffer.from(BSON.serialize({ ping: 1, $db: 'admin' }));
badBson.writeInt32LE(badBson.length + 50, 0);

describe('malformed frames', () => {
  it.each([
    ['messageLength above 48,000,000', header(48_000_001, 2013)],
    ['messageLength below the header size', header(8, 2013)],
    ['negative messageLength', header(-1, 2013)],
    ['unknown opcode', Buffer.concat([header(20, 9999), Buffer.alloc(4)])],
    ['legacy OP_INSERT opcode', Buffer.concat([header(20, 2002), Buffer.alloc(4)])],
    ['BSON length overrunning the message', opMsgWithBody(badBson)],
    ['garbage inside the BSON body', opMsgWithBody(Buffer.from([12, 0, 0, 0, 0x42, 0x41, 0, 1, 2, 3, 4, 0]))],
    ['OP_MSG section kind 7', Buffer.concat([header(16 + 4 + 1, 2013), Buffer.alloc(4), Buffer.from([7])])],
    ['OP_MSG without a body section', Buffer.concat([header(16 + 4, 2013), Buffer.alloc(4)])],
  ])('%s closes that connection only', async (_label, frame) => {
    await sendAndAwaitClose(frame);
    expect((await client.db('admin').command({ ping: 1 })).ok).toBe(1);
  });

  it('answers an oversized frame with a ProtocolError reply before closing', async () => {
    const reply = await sendAndAwaitClose(header(48_000_001, 2013, 42));
    expect(reply.readInt32LE(8)).toBe(42);
    const body = BSON.deserialize(reply.subarray(21));
    expect(body).toMatchObject({ ok: 0, code: 17, codeName: 'ProtocolError' });
    expect(body.errmsg).toContain('48000000');
  });

  it('answers a malformed OP_QUERY with an OP_REPLY, which is what its client reads, before closing', async () => {
    const ns = Buffer.from('admin.$cmd\0');
    const body = Buffer.concat([Buffer.alloc(4), ns, Buffer.alloc(8), badBson]);
    const reply = await sendAndAwaitClose(Buffer.concat([header(16 + body.length, 2004, 43), body]));
    expect([reply.readInt32LE(8), reply.readInt32LE(12)]).toEqual([43, 1]);
    expect(BSON.deserialize(reply.subarray(36))).toMatchObject({ ok: 0, code: 17, codeName: 'ProtocolError' });
  });

  it('answers a command nested too deep with Overflow and goes on serving that connection', async () => {
    let deep: object = {};
    for (let i = 0; i < 300; i++) deep = { a: deep };
    const socket = await open();
    socket.write(encodeOpMsgRequest(8, { ping: 1, deep, $db: 'admin' }));
    socket.write(encodeOpMsgRequest(9, { ping: 1, $db: 'admin' }));
    const [first, second] = await readFrames(socket, 2);
    socket.destroy();
    expect([first!.readInt32LE(8), BSON.deserialize(first!.subarray(21))]).toEqual([
      8,
      { ok: 0, errmsg: 'BSONObj exceeded maximum nested object depth: 200', code: 15, codeName: 'Overflow' },
    ]);
    expect([second!.readInt32LE(8), BSON.deserialize(second!.subarray(21))]).toEqual([9, PING_REPLY]);
  });

  it('serves a well-formed OP_MSG sent in one-byte chunks', async () => {
    const socket = await open();
    const frame = encodeOpMsgRequest(99, { ping: 1, $db: 'admin' });
    const reply = new Promise<Buffer>((resolve) => socket.once('data', resolve));
    for (const byte of frame) socket.write(Buffer.from([byte]));
    const bytes = await reply;
    expect(bytes.readInt32LE(8)).toBe(99);
    expect(BSON.deserialize(bytes.subarray(21))).toEqual(PING_REPLY);
    socket.destroy();
  });

  it('sends no reply for moreToCome requests', async () => {
    const socket = await open();
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    socket.write(encodeOpMsgRequest(5, { insert: 'fire', documents: [{ a: 1 }], $db: 'wire' }, 2));
    socket.write(encodeOpMsgRequest(6, { ping: 1, $db: 'admin' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.length).toBeGreaterThan(0);
    expect(Buffer.concat(received).readInt32LE(8)).toBe(6);
    socket.destroy();
    expect(await client.db('wire').collection('fire').countDocuments()).toBe(1);
  });
});
