/**
 * How the embedded server makes a write outside transactions wait for a
 * transaction's lock (#15), beyond what conformance-transaction-locks.spec.ts
 * checks against any MongoDB: a waiting command has changed nothing yet, it
 * holds back what its connection sends after it, and it is dropped when its
 * connection or the server closes. Embedded server only.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { type ClientSession, type Collection, MongoClient } from 'mongodb';

import { EmbeddedMongoServer } from './index.js';
import { MessageFramer } from './wire/message-framer.js';
import { encodeOpMsgRequest } from './wire/op-msg.js';

interface Counter {
  _id: string;
  n: number;
}

let server: EmbeddedMongoServer;
let client: MongoClient;
let session: ClientSession;
let counters: Collection<Counter>;

beforeAll(async () => {
  server = await EmbeddedMongoServer.start();
  client = await new MongoClient(server.uri).connect();
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});
beforeEach(async () => {
  counters = client.db('locks').collection<Counter>('counters');
  await counters.deleteMany({});
  await counters.insertMany(['a', 'b', 'c'].map((_id) => ({ _id, n: 0 })));
  session = client.startSession();
  session.startTransaction();
  // The transaction holds the middle document.
  await counters.updateOne({ _id: 'b' }, { $inc: { n: 10 } }, { session });
});
afterEach(async () => {
  await session.endSession();
});

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, server.host, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The `responseTo` of each reply `socket` receives, as they come. */
function replies(socket: Socket): number[] {
  const framer = new MessageFramer();
  const responseTo: number[] = [];
  socket.on('data', (data: Buffer) => {
    for (const frame of framer.push(data)) responseTo.push(frame.readInt32LE(8));
  });
  return responseTo;
}

/** An `update` of every counter by +1, as the driver would send it. */
const incrementAll = (requestId: number) =>
  encodeOpMsgRequest(requestId, {
    update: 'counters',
    updates: [{ q: {}, u: { $inc: { n: 1 } }, multi: true }],
    $db: 'locks',
  });

const values = async () => (await counters.find().sort({ _id: 1 }).toArray()).map((doc) => doc.n);

describe('a write waiting for a transaction', () => {
  it('should change no document before the locked one is free, then all of them', async () => {
    const many = counters.updateMany({}, { $inc: { n: 1 } });
    await sleep(200);
    expect(await values()).toEqual([0, 0, 0]);
    await session.commitTransaction();
    expect((await many).modifiedCount).toBe(3);
    expect(await values()).toEqual([1, 11, 1]);
  });

  it('should hold back what its connection sends after it, and answer both in order', async () => {
    const socket = await open();
    try {
      const seen = replies(socket);
      socket.write(Buffer.concat([incrementAll(1), encodeOpMsgRequest(2, { ping: 1, $db: 'admin' })]));
      await sleep(200);
      expect(seen).toEqual([]);
      await session.commitTransaction();
      for (let i = 0; i < 100 && seen.length < 2; i++) await sleep(20);
      expect(seen).toEqual([1, 2]);
      expect(await values()).toEqual([1, 11, 1]);
    } finally {
      socket.destroy();
    }
  });

  it('should be dropped, not applied, when its client disconnects', async () => {
    const socket = await open();
    socket.write(incrementAll(1));
    await sleep(100);
    socket.destroy();
    await sleep(100);
    await session.commitTransaction();
    await sleep(100);
    expect(await values()).toEqual([0, 10, 0]);
  });

  it('should be dropped, not applied, when the server closes (the transaction is aborted)', async () => {
    const socket = await open();
    socket.on('error', () => undefined);
    socket.write(incrementAll(1));
    await sleep(100);
    await server.restart();
    await sleep(100);
    expect(await values()).toEqual([0, 0, 0]);
    socket.destroy();
  });
});
