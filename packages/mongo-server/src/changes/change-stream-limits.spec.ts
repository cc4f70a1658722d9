/**
 * What a client cannot make the embedded server hold through change
 * streams: open streams are bounded, an unread stream holds no events, a
 * getMore's wait ends with its connection or its cursor. Embedded server only.
 */
import { type Db, type Document, MongoClient } from 'mongodb';

import { EmbeddedMongoServer } from '../embedded-mongo-server.js';
import { CHANGE_LOG_MAX_EVENTS } from './change-log.js';
import { MAX_OPEN_CHANGE_STREAMS } from './change-stream-cursors.js';

let server: EmbeddedMongoServer;
let client: MongoClient;
let db: Db;
const others: MongoClient[] = [];

beforeAll(async () => {
  server = await EmbeddedMongoServer.start();
  client = await new MongoClient(server.uri).connect();
  db = client.db('limits');
});
afterEach(async () => {
  await Promise.all(others.splice(0).map((other) => other.close(true)));
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

async function other(): Promise<Db> {
  const extra = await new MongoClient(server.uri).connect();
  others.push(extra);
  return extra.db('limits');
}

async function openStream(target: Db = db): Promise<bigint> {
  const reply = await target.command({ aggregate: 'c', pipeline: [{ $changeStream: {} }], cursor: {} });
  return BigInt(String((reply.cursor as Document).id));
}

const getMore = (target: Db, id: bigint, maxTimeMS: number) =>
  target.command({ getMore: id, collection: 'c', maxTimeMS } as Document, { useBigInt64: true });

describe('change stream limits', () => {
  it(`keeps at most ${MAX_OPEN_CHANGE_STREAMS} streams open, closing the one unused longest`, async () => {
    const oldest = await openStream();
    const second = await openStream();
    await getMore(db, second, 1);
    for (let i = 0; i < MAX_OPEN_CHANGE_STREAMS - 1; i++) await openStream();
    await expect(getMore(db, oldest, 1)).rejects.toMatchObject({ code: 43, codeName: 'CursorNotFound' });
    await expect(getMore(db, second, 1)).resolves.toMatchObject({ ok: 1 });
  });

  it(`forgets events past ${CHANGE_LOG_MAX_EVENTS}: a stream read too late gets ChangeStreamHistoryLost`, async () => {
    const id = await openStream();
    const docs = Array.from({ length: CHANGE_LOG_MAX_EVENTS + 1 }, (_, i) => ({ i }));
    await db.collection('c').insertMany(docs);
    await expect(getMore(db, id, 1)).rejects.toMatchObject({ code: 286, codeName: 'ChangeStreamHistoryLost' });
  });

  it('ends a waiting getMore when its connection closes, however long its maxTimeMS', async () => {
    const id = await openStream();
    const waiting = getMore(await other(), id, 2 ** 31 - 1).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(getMore(db, id, 1)).rejects.toMatchObject({ code: 143, codeName: 'CursorInUse' });
    await others.pop()!.close(true);
    await waiting;
    await expect(getMore(db, id, 1)).resolves.toMatchObject({ ok: 1 });
  });

  it('ends a waiting getMore with CursorKilled when killCursors closes its stream', async () => {
    const id = await openStream();
    const waiting = getMore(await other(), id, 2 ** 31 - 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await db.command({ killCursors: 'c', cursors: [id] });
    await expect(waiting).rejects.toMatchObject({ code: 237, codeName: 'CursorKilled' });
  });
});
