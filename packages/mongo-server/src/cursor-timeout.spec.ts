/**
 * Idle cursors close as mongod closes them, on the embedded server's
 * injected clock (the test moves time instead of waiting for it): a cursor
 * opened outside a session after `cursorTimeoutMillis` unless
 * `noCursorTimeout`; a cursor opened in a session — every cursor of the
 * Node.js driver — only when its session ends or stays unused for 30 minutes.
 * Session-less commands go over a raw socket, since the driver always sends
 * an `lsid`.
 */
import { connect, type Socket } from 'node:net';

import type { Document } from 'bson';
import { MongoClient, MongoServerError } from 'mongodb';

import { BSON } from './bson/bson-library.cjs';
import { EmbeddedMongoServer } from './index.js';
import { MessageFramer } from './wire/message-framer.js';
import { encodeOpMsgRequest } from './wire/op-msg.js';

const MINUTE = 60_000;
let now = Date.UTC(2026, 11, 6);
let server: EmbeddedMongoServer;
let client: MongoClient;

beforeAll(async () => {
  server = await EmbeddedMongoServer.start({ clock: () => now, cursorTimeoutMillis: 10 * MINUTE });
  client = await new MongoClient(server.uri).connect();
  await client
    .db('idle')
    .collection<{ _id: number }>('docs')
    .insertMany(Array.from({ length: 10 }, (_, _id) => ({ _id })));
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

/** A connection that sends commands without a session, one at a time. */
class RawConnection {
  private readonly framer = new MessageFramer();
  private nextId = 1;
  private waiting?: (frame: Buffer) => void;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (data: Buffer) => {
      for (const frame of this.framer.push(data)) this.waiting?.(frame);
    });
  }

  static open(): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.port, server.host, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  command(body: Document): Promise<Document> {
    return new Promise((resolve) => {
      this.waiting = (frame) => resolve(BSON.deserialize(frame.subarray(21), { useBigInt64: true }));
      this.socket.write(encodeOpMsgRequest(this.nextId++, { ...body, $db: 'idle' }));
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

async function withRaw<T>(run: (raw: RawConnection) => Promise<T>): Promise<T> {
  const raw = await RawConnection.open();
  try {
    return await run(raw);
  } finally {
    raw.close();
  }
}

/** The id of a cursor a session-less find leaves open. */
async function rawCursor(raw: RawConnection, extra: Document = {}): Promise<bigint> {
  const reply = await raw.command({ find: 'docs', batchSize: 1, ...extra });
  return (reply.cursor as Document).id as bigint;
}

const rawGetMore = (raw: RawConnection, id: bigint) => raw.command({ getMore: id, collection: 'docs', batchSize: 1 });

async function cursorMetrics(): Promise<Document> {
  return ((await client.db('admin').command({ serverStatus: 1 })).metrics as Document).cursor as Document;
}

describe('cursors opened outside a session', () => {
  it('should close one idle for cursorTimeoutMillis, count it, and answer its getMore CursorNotFound', () =>
    withRaw(async (raw) => {
      const before = await cursorMetrics();
      const id = await rawCursor(raw);
      now += 10 * MINUTE - 1;
      expect((await rawGetMore(raw, id)).ok).toBe(1);
      now += 10 * MINUTE;
      const reply = await rawGetMore(raw, id);
      expect([reply.ok, reply.codeName, reply.errmsg]).toEqual([0, 'CursorNotFound', `cursor id ${id} not found`]);
      expect(Number((await cursorMetrics()).timedOut) - Number(before.timedOut)).toBe(1);
    }));

  it('should keep one opened with noCursorTimeout', () =>
    withRaw(async (raw) => {
      const id = await rawCursor(raw, { noCursorTimeout: true });
      now += 24 * 60 * MINUTE;
      expect((await rawGetMore(raw, id)).ok).toBe(1);
      await raw.command({ killCursors: 'docs', cursors: [id] });
    }));

  it('should follow setParameter cursorTimeoutMillis', () =>
    withRaw(async (raw) => {
      const admin = client.db('admin');
      await admin.command({ setParameter: 1, cursorTimeoutMillis: 1_000 });
      try {
        const id = await rawCursor(raw);
        now += 1_000;
        expect((await rawGetMore(raw, id)).codeName).toBe('CursorNotFound');
      } finally {
        await admin.command({ setParameter: 1, cursorTimeoutMillis: 10 * MINUTE });
      }
    }));
});

describe('setParameter', () => {
  it('should refuse a parameter the embedded server lacks, naming it, rather than ignore it', async () => {
    const error = (await client
      .db('admin')
      .command({ setParameter: 1, notablescan: true })
      .catch((e: unknown) => e)) as MongoServerError;
    expect([error.codeName, error.message]).toEqual([
      'CommandNotSupported',
      "setParameter 'notablescan' (only cursorTimeoutMillis and internalQueryMaxAllowedDensifyDocs are settable) is not supported by the embedded server: use a real MongoDB (MONGO_URL) for it",
    ]);
  });
});

describe('cursors opened in a session', () => {
  it('should keep a driver cursor idle past cursorTimeoutMillis, and close it 30 minutes after its session was last used', async () => {
    const cursor = client.db('idle').collection('docs').find({}, { batchSize: 2 });
    expect(await cursor.next()).toEqual({ _id: 0 });
    now += 25 * MINUTE;
    expect(await cursor.toArray()).toHaveLength(9);
    const again = client.db('idle').collection('docs').find({}, { batchSize: 2 });
    await again.next();
    await again.next();
    now += 30 * MINUTE;
    const error = await again.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).codeName).toBe('CursorNotFound');
    await again.close();
  });

  it('should close its cursors when the session ends (at once; mongod within its 5-minute session refresh)', async () => {
    const session = client.startSession();
    const cursor = client.db('idle').collection('docs').find({}, { batchSize: 1, session });
    await cursor.next();
    await client.db('admin').command({ endSessions: [session.id] });
    const error = await cursor.next().catch((e: unknown) => e);
    expect((error as MongoServerError).codeName).toBe('CursorNotFound');
    await cursor.close();
    await session.endSession();
  });
});
