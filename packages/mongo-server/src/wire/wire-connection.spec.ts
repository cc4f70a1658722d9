/**
 * Back-pressure (#15): a client that sends requests but never reads the
 * replies stalls its own connection instead of making the server buffer
 * every reply; everyone else keeps being served. Embedded server only: it
 * measures this process's memory, where the server runs.
 */
import { connect, createServer, type Socket } from 'node:net';

import { MongoClient } from 'mongodb';

import { ObjectId } from '../bson/bson-library.cjs';
import type { CommandOutcome, CommandRouter } from '../commands/command-router.js';
import { EmbeddedMongoServer } from '../embedded-mongo-server.js';
import { MessageFramer } from './message-framer.js';
import { encodeOpMsgRequest } from './op-msg.js';
import { WireConnection } from './wire-connection.js';

const MB = 1024 * 1024;
/** Documents of the `big` collection and the size of each: one find returns them all, ~4 MB. */
const BIG_DOCS = 4;
const BIG_DOC_BYTES = 1 * MB;
/** Pipelined finds: ~600 MB of replies if the server buffered them all. */
const PIPELINED_FINDS = 150;

let server: EmbeddedMongoServer;
let client: MongoClient;

beforeAll(async () => {
  server = await EmbeddedMongoServer.start();
  client = await new MongoClient(server.uri).connect();
  const docs = Array.from({ length: BIG_DOCS }, (_, i) => ({ _id: i, pad: 'x'.repeat(BIG_DOC_BYTES) }));
  await client.db('pressure').collection<{ _id: number; pad: string }>('big').insertMany(docs);
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

/** `count` pipelined finds of the whole `big` collection, request ids 1…count, as one buffer. */
function pipelinedFinds(count: number): Buffer {
  return Buffer.concat(
    Array.from({ length: count }, (_, i) =>
      encodeOpMsgRequest(i + 1, { find: 'big', filter: {}, batchSize: 1000, $db: 'pressure' }),
    ),
  );
}

/** Memory the process holds outside of freed heap: JS heap in use plus Buffers. */
function heldBytes(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 50 ms; whether it became true within `ms`. */
async function becomes(condition: () => boolean, ms: number): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < ms; await sleep(50)) if (condition()) return true;
  return condition();
}

describe('WireConnection back-pressure', () => {
  it('should hold about one reply, not all of them, for a client that pipelines big finds and never reads', async () => {
    const before = heldBytes();
    const stalled = await open();
    stalled.pause();
    try {
      stalled.write(pipelinedFinds(PIPELINED_FINDS));
      // Another client is answered meanwhile; by then the server has run what it will run.
      expect((await client.db('admin').command({ ping: 1 })).ok).toBe(1);
      await sleep(200);
      const grown = heldBytes() - before;
      // Unbounded, this is ~600 MB (PIPELINED_FINDS × 4 MB); bounded, one reply and socket buffers.
      expect(grown).toBeLessThan(150 * MB);
    } finally {
      stalled.destroy();
    }
  });

  it('should stop reading from a connection whose replies are not read, so its requests wait in the client', async () => {
    const stalled = await open();
    stalled.pause();
    try {
      // 32 MB of replies: more than the kernel's socket buffers on both ends can take
      // (Linux grows them to several MB on loopback), so one stays with the server.
      stalled.write(pipelinedFinds(8));
      // 64 MB of pings, far beyond what the kernel's socket buffers hold.
      const ping = encodeOpMsgRequest(2, { ping: 1, pad: 'p'.repeat(MB), $db: 'admin' });
      for (let i = 0; i < 64; i++) stalled.write(ping);
      expect((await client.db('admin').command({ ping: 1 })).ok).toBe(1);
      // A server that kept reading takes the 64 MB within about a second (a stall of the
      // sender's TCP persist timer included); the kernel's buffers hold a few MB at most.
      expect(await becomes(() => stalled.writableLength < 16 * MB, 2000)).toBe(false);
    } finally {
      stalled.destroy();
    }
  });

  it('should answer every pipelined request in order once the client reads again', async () => {
    const count = 20;
    const socket = await open();
    socket.pause();
    try {
      socket.write(pipelinedFinds(count));
      await sleep(200);
      const framer = new MessageFramer();
      const responseTo: number[] = [];
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${responseTo.length} of ${count} replies arrived`)),
          20_000,
        );
        socket.on('data', (data: Buffer) => {
          for (const frame of framer.push(data)) responseTo.push(frame.readInt32LE(8));
          if (responseTo.length === count) {
            clearTimeout(timer);
            resolve();
          }
        });
        socket.resume();
      });
      expect(responseTo).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    } finally {
      socket.destroy();
    }
  });
});

describe('WireConnection outcomes that come later', () => {
  /** Serves one connection whose router answers every command with `outcome`; resolves once the client sees it close. */
  async function closesAfter(outcome: () => CommandOutcome): Promise<void> {
    const router = { execute: outcome } as unknown as CommandRouter;
    const listener = createServer(
      (socket) => new WireConnection(socket, router, { host: '', port: 0, connectionId: 1, processId: new ObjectId() }),
    );
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as { port: number };
    try {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(encodeOpMsgRequest(1, { ping: 1, $db: 'admin' }));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the connection stayed open')), 2000);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  }

  // Thrown from a timer, this ended the whole process (an uncaught exception).
  it('should close the connection when encoding a delayed reply throws', async () => {
    const reply = {
      get broken(): never {
        throw new Error('unreadable');
      },
    };
    await closesAfter(() => ({ reply, delayMS: 10 }));
  });

  it('should close the connection when a command waiting for a lock fails unexpectedly', async () => {
    await closesAfter(() => ({ later: Promise.reject(new Error('lost')) }));
  });
});
