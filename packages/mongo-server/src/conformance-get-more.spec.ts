/**
 * Conformance: what a getMore must match of the cursor it continues, as
 * mongod 7's getmore_cmd.cpp checks it (same session, same transaction, same
 * namespace; a failed check leaves the cursor open), its required
 * `collection`, `killAllSessions` closing the sessions' cursors,
 * `cursorTimeoutMillis` through get/setParameter, and serverStatus's
 * `metrics.cursor` counting open cursors. Every cursor the Node.js driver
 * opens is in a session. A real MongoDB via MONGO_URL passes it too.
 */
import { type ClientSession, type Collection, type Document, Long } from 'mongodb';

import { useDriverFixture, useSessions, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

const sessions = useSessions(fx);
const startSession = (): ClientSession => sessions.start();

/** A collection of five documents. */
async function five(name: string): Promise<Collection> {
  const collection = await fx.fresh(name);
  await collection.insertMany([1, 2, 3, 4, 5].map((_id) => ({ _id })) as never[]);
  return collection;
}

/** A cursor left open by a find of one document per batch, in `session`; its id. */
async function openCursor(collection: Collection, session: ClientSession, options: Document = {}): Promise<Long> {
  // promoteLongs off: the driver would turn an id that happens to fit in 53 bits (1 in 512) into a number,
  // which a getMore then sends as an int32 or a double, not the Int64 a cursor id must be.
  const reply = await fx.db.command(
    { find: collection.collectionName, batchSize: 1, ...options },
    { session, promoteLongs: false },
  );
  const id = (reply.cursor as Document).id as Long;
  expect(Long.isLong(id) && !id.isZero()).toBe(true);
  return id;
}

function getMore(id: Long, collection: string, session: ClientSession, extra: Document = {}): Promise<Document> {
  return fx.db.command({ getMore: id, collection, batchSize: 1, ...extra }, { session });
}

function uuid(session: ClientSession): string {
  const hex = Buffer.from((session.id!.id as { buffer: Uint8Array }).buffer).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function cursorMetrics(): Promise<Document> {
  const status = await fx.client.db('admin').command({ serverStatus: 1 });
  return (status.metrics as Document).cursor as Document;
}

describe('getMore: the cursor it continues', () => {
  it('refuses a getMore from another session (50738) naming both sessions, and leaves the cursor open', async () => {
    const collection = await five('get_more_sessions');
    const [owner, other] = [startSession(), startSession()];
    const id = await openCursor(collection, owner);
    const error = await rejection(getMore(id, collection.collectionName, other));
    expect(error.code).toBe(50738);
    expect(error.message).toMatch(
      new RegExp(
        `^Cannot run getMore on cursor ${id.toString()}, which was created in session ${uuid(owner)} - .* in session ${uuid(other)} - `,
      ),
    );
    const next = await getMore(id, collection.collectionName, owner);
    expect((next.cursor as Document).nextBatch).toEqual([{ _id: 2 }]);
  });

  it('refuses a getMore naming another collection (Unauthorized), and leaves the cursor open', async () => {
    const collection = await five('get_more_namespace');
    const session = startSession();
    const id = await openCursor(collection, session);
    const error = await rejection(getMore(id, 'get_more_elsewhere', session));
    expect(error.codeName).toBe('Unauthorized');
    expect(error.message).toBe(
      `Requested getMore on namespace '${fx.db.databaseName}.get_more_elsewhere', but cursor belongs to a different namespace ${fx.db.databaseName}.get_more_namespace`,
    );
    const next = await getMore(id, collection.collectionName, session);
    expect((next.cursor as Document).nextBatch).toEqual([{ _id: 2 }]);
  });

  it('answers CursorNotFound for an unknown cursor before refusing maxTimeMS', async () => {
    const session = startSession();
    const error = await rejection(getMore(Long.fromNumber(123_456_789), 'get_more_none', session, { maxTimeMS: 10 }));
    expect([error.codeName, error.message]).toEqual(['CursorNotFound', 'cursor id 123456789 not found']);
  });

  it('refuses maxTimeMS on a getMore of a cursor that is not awaitData', async () => {
    const collection = await five('get_more_max_time');
    const session = startSession();
    const id = await openCursor(collection, session);
    const error = await rejection(getMore(id, collection.collectionName, session, { maxTimeMS: 10 }));
    expect([error.codeName, error.message]).toEqual([
      'BadValue',
      'cannot set maxTimeMS on getMore command for a non-awaitData cursor',
    ]);
  });

  it.each<[string, Document, number, string]>([
    [
      'no collection',
      { collection: undefined },
      40414,
      "BSON field 'getMore.collection' is missing but a required field",
    ],
    [
      'a collection that is no string',
      { collection: 7 },
      14,
      "BSON field 'getMore.collection' is the wrong type 'int', expected type 'string'",
    ],
  ])('refuses a getMore with %s', async (_label, fields, code, message) => {
    const session = startSession();
    const command: Document = { getMore: Long.fromNumber(1), collection: 'c', ...fields };
    if (fields.collection === undefined) delete command.collection;
    const error = await rejection(fx.db.command(command, { session }));
    expect([error.code, error.message]).toEqual([code, message]);
  });
});

describe('getMore: its arguments', () => {
  // The answers an independent MongoDB-compatible server's integration suite asserts against MongoDB.
  const SAFE_INT64 = "expected types '[long, int, decimal, double']";

  it.each<[string, Document, number, string]>([
    [
      'a negative int32 batchSize',
      { batchSize: -1 },
      51024,
      "BSON field 'batchSize' value must be >= 0, actual value '-1'",
    ],
    [
      'a negative Int64 batchSize',
      { batchSize: Long.fromNumber(-1) },
      51024,
      "BSON field 'batchSize' value must be >= 0, actual value '-1'",
    ],
    [
      'a negative double batchSize',
      { batchSize: -1.5 },
      51024,
      "BSON field 'batchSize' value must be >= 0, actual value '-1'",
    ],
    [
      'a boolean batchSize',
      { batchSize: false },
      14,
      `BSON field 'getMore.batchSize' is the wrong type 'bool', ${SAFE_INT64}`,
    ],
    [
      'a string cursor id',
      { getMore: 'invalid' },
      14,
      "BSON field 'getMore.getMore' is the wrong type 'string', expected type 'long'",
    ],
    [
      'an int32 cursor id',
      { getMore: 1111 },
      14,
      "BSON field 'getMore.getMore' is the wrong type 'int', expected type 'long'",
    ],
    [
      'a document as collection',
      { collection: {} },
      14,
      "BSON field 'getMore.collection' is the wrong type 'object', expected type 'string'",
    ],
    ['an empty collection name', { collection: '' }, 73, 'Collection names cannot be empty'],
    ['cursor id 0', { getMore: Long.fromNumber(0) }, 43, 'cursor id 0 not found'],
  ])('refuses %s', async (_label, fields, code, message) => {
    const collection = await five('get_more_arguments');
    const session = startSession();
    const id = await openCursor(collection, session);
    const error = await rejection(
      fx.db.command({ getMore: id, collection: collection.collectionName, ...fields }, { session }),
    );
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it.each<[string, unknown, number[]]>([
    ['a fractional batchSize, truncated', 1.9, [2]],
    ['a batchSize of 0, the rest', 0, [2, 3, 4, 5]],
    ['no batchSize, the rest', undefined, [2, 3, 4, 5]],
  ])('takes %s', async (_label, batchSize, ids) => {
    const collection = await five('get_more_batches');
    const session = startSession();
    const id = await openCursor(collection, session);
    const command: Document = { getMore: id, collection: collection.collectionName };
    if (batchSize !== undefined) command.batchSize = batchSize;
    const reply = await fx.db.command(command, { session });
    expect(((reply.cursor as Document).nextBatch as Document[]).map((doc) => doc._id)).toEqual(ids);
  });
});

describe('closing cursors', () => {
  it('closes the cursors of sessions on killAllSessions', async () => {
    const collection = await five('get_more_killed');
    const session = startSession();
    const id = await openCursor(collection, session);
    await fx.client.db('admin').command({ killAllSessions: [] });
    const error = await rejection(getMore(id, collection.collectionName, session));
    expect(error.codeName).toBe('CursorNotFound');
  });

  it('counts open cursors in serverStatus metrics.cursor, noCursorTimeout ones apart', async () => {
    const collection = await five('get_more_metrics');
    const session = startSession();
    const before = await cursorMetrics();
    const id = await openCursor(collection, session, { noCursorTimeout: true });
    const during = await cursorMetrics();
    expect(Number((during.open as Document).total) - Number((before.open as Document).total)).toBe(1);
    expect(Number((during.open as Document).noTimeout) - Number((before.open as Document).noTimeout)).toBe(1);
    expect(Number(during.totalOpened) - Number(before.totalOpened)).toBe(1);
    await getMore(id, collection.collectionName, session, { batchSize: 10 });
    const after = await cursorMetrics();
    expect(Number((after.open as Document).total)).toBe(Number((before.open as Document).total));
    expect(Number(after.moreThanOneBatch) - Number(before.moreThanOneBatch)).toBe(1);
  });

  it('reads and sets cursorTimeoutMillis with getParameter and setParameter', async () => {
    const admin = fx.client.db('admin');
    const { cursorTimeoutMillis: original } = await admin.command({ getParameter: 1, cursorTimeoutMillis: 1 });
    try {
      const set = await admin.command({ setParameter: 1, cursorTimeoutMillis: 1234 });
      expect(Number(set.was)).toBe(Number(original));
      const read = await admin.command({ getParameter: 1, cursorTimeoutMillis: 1 });
      expect(Number(read.cursorTimeoutMillis)).toBe(1234);
    } finally {
      await admin.command({ setParameter: 1, cursorTimeoutMillis: original as number });
    }
  });

  it('refuses setParameter outside the admin database', async () => {
    const error = await rejection(fx.db.command({ setParameter: 1, cursorTimeoutMillis: 1000 }));
    expect([error.codeName, error.message]).toEqual([
      'Unauthorized',
      'setParameter may only be run against the admin database.',
    ]);
  });
});
