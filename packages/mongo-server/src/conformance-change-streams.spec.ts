/**
 * Conformance: change streams (`collection.watch()`, `db.watch()`,
 * mongoose's `Model.watch()`, and the `$changeStream` aggregate and awaitData
 * getMore under them), driven only through the driver. Change streams need a
 * replica set: against a standalone MONGO_URL the suite reports itself
 * skipped, never passed (the embedded server is always a one-member replica set).
 */
import { once } from 'node:events';

import {
  type ChangeStream,
  type ChangeStreamDocument,
  type Collection,
  type Document,
  MongoClient,
  Timestamp,
} from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture } from './conformance.fixture.js';
import { startTestMongo } from './start-test-mongo.js';

const fx = useDriverFixture({ transactions: true });

// Probed once up front so that `describe.skip` can be chosen.
const probe = await startTestMongo({ transactions: true });
const probeClient = await new MongoClient(probe.uri).connect();
const replicaSet = typeof (await probeClient.db('admin').command({ hello: 1 })).setName === 'string';
await probeClient.close();
await probe.stop();

/** Streams opened by a test, closed after it. */
const streams: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(streams.splice(0).map((stream) => stream.close()));
});

/** Opens `stream` (the driver sends the aggregate lazily) so that later writes are seen. */
async function opened<T extends Document, C extends Document>(stream: ChangeStream<T, C>): Promise<ChangeStream<T, C>> {
  streams.push(stream);
  expect(await stream.tryNext()).toBeNull();
  return stream;
}

/** A stream to read from its resume point on (closed after the test). */
function resumed<T extends Document, C extends Document>(stream: ChangeStream<T, C>): ChangeStream<T, C> {
  streams.push(stream);
  return stream;
}

/** The next `n` events of `stream`. */
async function take<C extends Document>(stream: ChangeStream<Row, C>, n: number): Promise<C[]> {
  const events: C[] = [];
  while (events.length < n) events.push(await stream.next());
  return events;
}

/** The documents of these tests: numbered or named. */
interface Row {
  _id: number | string;
  name?: string;
  n?: number;
  tags?: string[];
  nested?: Document;
  gone?: boolean;
}

const token = { _data: expect.any(String) as unknown };

(replicaSet ? describe : describe.skip)('change streams (replica set only)', () => {
  let c: Collection<Row>;
  beforeEach(async () => {
    c = (await fx.fresh('change_streams')) as unknown as Collection<Row>;
  });

  describe('collection.watch()', () => {
    it('reports insert, update, replace and delete with their fields', async () => {
      const stream = await opened(c.watch([], { maxAwaitTimeMS: 50 }));
      await c.insertOne({ _id: 1, name: 'a', tags: ['x', 'y', 'w'], nested: { y: 1 }, gone: true });
      await c.updateOne({ _id: 1 }, { $set: { name: 'b', 'nested.x': 2 }, $unset: { gone: '' }, $push: { tags: 'z' } });
      await c.updateOne({ _id: 1 }, { $pop: { tags: 1 } });
      await c.updateOne({ _id: 1 }, { $pop: { tags: 1 } });
      await c.replaceOne({ _id: 1 }, { name: 'c' });
      await c.deleteOne({ _id: 1 });
      const [insert, update, pop, , replace, remove] = await take(stream, 6);
      const ns = { db: fx.db.databaseName, coll: 'change_streams' };
      const common = { _id: token, clusterTime: expect.any(Timestamp), wallTime: expect.any(Date), ns };
      expect(insert).toEqual({
        ...common,
        operationType: 'insert',
        fullDocument: { _id: 1, name: 'a', tags: ['x', 'y', 'w'], nested: { y: 1 }, gone: true },
        documentKey: { _id: 1 },
      });
      expect(update).toEqual({
        ...common,
        operationType: 'update',
        documentKey: { _id: 1 },
        updateDescription: {
          updatedFields: { name: 'b', 'nested.x': 2, 'tags.3': 'z' },
          removedFields: ['gone'],
          truncatedArrays: [],
        },
      });
      expect(pop).toMatchObject({
        operationType: 'update',
        updateDescription: { updatedFields: {}, removedFields: [], truncatedArrays: [{ field: 'tags', newSize: 3 }] },
      });
      expect(replace).toEqual({
        ...common,
        operationType: 'replace',
        fullDocument: { _id: 1, name: 'c' },
        documentKey: { _id: 1 },
      });
      expect(remove).toEqual({ ...common, operationType: 'delete', documentKey: { _id: 1 } });
      const times = [insert, update, replace, remove].map((event) => (event as { clusterTime: Timestamp }).clusterTime);
      for (let i = 1; i < times.length; i++) expect(times[i]!.greaterThan(times[i - 1]!)).toBe(true);
    });

    it("adds the current document to updates with fullDocument: 'updateLookup'", async () => {
      await c.insertOne({ _id: 1, n: 1 });
      const stream = await opened(c.watch([], { fullDocument: 'updateLookup', maxAwaitTimeMS: 50 }));
      await c.updateOne({ _id: 1 }, { $inc: { n: 1 } });
      const [update] = await take(stream, 1);
      expect(update).toMatchObject({
        operationType: 'update',
        fullDocument: { _id: 1, n: 2 },
        updateDescription: { updatedFields: { n: 2 } },
      });
    });

    it('applies $match and $project stages to the events', async () => {
      const stream = await opened(
        c.watch([{ $match: { operationType: 'delete' } }, { $project: { operationType: 1, documentKey: 1 } }], {
          maxAwaitTimeMS: 50,
        }),
      );
      await c.insertMany([{ _id: 1 }, { _id: 2 }]);
      await c.deleteOne({ _id: 2 });
      const [remove] = await take(stream, 1);
      expect(remove).toEqual({ _id: token, operationType: 'delete', documentKey: { _id: 2 } });
    });

    it('reports a drop, then invalidate, and closes', async () => {
      await c.insertOne({ _id: 1 });
      const stream = await opened(c.watch([], { maxAwaitTimeMS: 50 }));
      await c.drop();
      const [drop, invalidate] = await take(stream, 2);
      expect(drop).toMatchObject({ operationType: 'drop', ns: { db: fx.db.databaseName, coll: 'change_streams' } });
      expect(invalidate).toEqual({
        _id: token,
        operationType: 'invalidate',
        clusterTime: expect.any(Timestamp),
        wallTime: expect.any(Date),
      });
      expect(stream.closed).toBe(true);
    });

    it('reports a rename with its new namespace', async () => {
      await fx.db.dropCollection('change_streams_renamed').catch(() => undefined);
      await c.insertOne({ _id: 1 });
      const stream = await opened(c.watch([], { maxAwaitTimeMS: 50 }));
      await c.rename('change_streams_renamed');
      const [rename, invalidate] = await take(stream, 2);
      expect(rename).toMatchObject({
        operationType: 'rename',
        ns: { db: fx.db.databaseName, coll: 'change_streams' },
        to: { db: fx.db.databaseName, coll: 'change_streams_renamed' },
      });
      expect(invalidate).toMatchObject({ operationType: 'invalidate' });
      await fx.db.dropCollection('change_streams_renamed');
    });
  });

  describe('db.watch()', () => {
    it("reports every collection's changes, with each namespace", async () => {
      const other = (await fx.fresh('change_streams_other')) as unknown as Collection<Row>;
      const stream = await opened(fx.db.watch([], { maxAwaitTimeMS: 50 }));
      await c.insertOne({ _id: 1 });
      await other.insertOne({ _id: 2 });
      const events = await take(stream, 2);
      expect(events.map((event) => [(event as { ns: Document }).ns.coll, event.operationType])).toEqual([
        ['change_streams', 'insert'],
        ['change_streams_other', 'insert'],
      ]);
    });
  });

  describe('client.watch()', () => {
    it('reports changes in every database', async () => {
      const stream = await opened(
        fx.client.watch([{ $match: { 'ns.db': fx.db.databaseName } }], { maxAwaitTimeMS: 50 }),
      );
      await c.insertOne({ _id: 1 });
      const [insert] = await take(stream, 1);
      expect(insert).toMatchObject({
        operationType: 'insert',
        ns: { db: fx.db.databaseName, coll: 'change_streams' },
        documentKey: { _id: 1 },
      });
    });
  });

  describe('resuming', () => {
    it('resumeAfter and startAfter a token continue after that event, startAtOperationTime at it', async () => {
      const first = await opened(c.watch([], { maxAwaitTimeMS: 50 }));
      await c.insertOne({ _id: 1 });
      const [one] = await take(first, 1);
      await first.close();
      // Written while no stream is open: the resumed stream still sees them.
      await c.insertMany([{ _id: 2 }, { _id: 3 }]);
      const ids = async (stream: ChangeStream<Row, ChangeStreamDocument<Row>>, n: number) =>
        (await take(stream, n)).map((event) => (event as { documentKey: Document }).documentKey._id as number);
      expect(await ids(resumed(c.watch([], { resumeAfter: one!._id, maxAwaitTimeMS: 50 })), 2)).toEqual([2, 3]);
      expect(await ids(resumed(c.watch([], { startAfter: one!._id, maxAwaitTimeMS: 50 })), 2)).toEqual([2, 3]);
      const at = (one as { clusterTime: Timestamp }).clusterTime;
      expect(await ids(resumed(c.watch([], { startAtOperationTime: at, maxAwaitTimeMS: 50 })), 3)).toEqual([1, 2, 3]);
    });

    it('resumes from the postBatchResumeToken of an empty batch', async () => {
      const first = await opened(c.watch([], { maxAwaitTimeMS: 50 }));
      const quiet = first.resumeToken;
      expect(quiet).toEqual(token);
      await first.close();
      await c.insertOne({ _id: 7 });
      const [event] = await take(resumed(c.watch([], { resumeAfter: quiet!, maxAwaitTimeMS: 50 })), 1);
      expect(event).toMatchObject({ operationType: 'insert', documentKey: { _id: 7 } });
    });

    it.each<[string, Document, Document]>([
      ['_data that is not a string', { resumeAfter: { _data: 5 } }, { code: 40647 }],
      ['_data that is not hex', { resumeAfter: { _data: 'not hex!' } }, { code: 9, codeName: 'FailedToParse' }],
      [
        'a time older than the history kept',
        { startAtOperationTime: new Timestamp({ t: 1, i: 1 }) },
        { code: 286, codeName: 'ChangeStreamHistoryLost', errorLabels: ['NonResumableChangeStreamError'] },
      ],
      [
        'two resume options',
        {
          // A high-water-mark token as mongod 7 writes it (cluster time 1:1).
          resumeAfter: { _data: '8200000001000000012B0429296E1404' },
          startAtOperationTime: new Timestamp({ t: 1, i: 1 }),
        },
        { code: 40674 },
      ],
    ])('refuses %s', async (_, spec, error) => {
      await expect(
        fx.db.command({ aggregate: c.collectionName, pipeline: [{ $changeStream: spec }], cursor: {} }),
      ).rejects.toMatchObject(error);
    });
  });

  describe('the $changeStream pipeline', () => {
    const run = (pipeline: Document[]) => fx.db.command({ aggregate: c.collectionName, pipeline, cursor: {} });

    it.each<[string, Document[], Document]>([
      ['$changeStream not first', [{ $match: {} }, { $changeStream: {} }], { code: 40602 }],
      [
        'a stage a change stream does not allow',
        [{ $changeStream: {} }, { $group: { _id: null } }],
        { code: 20, codeName: 'IllegalOperation' },
      ],
      ['an unknown $changeStream option', [{ $changeStream: { nope: 1 } }], { code: 40415 }],
    ])('refuses %s', async (_, pipeline, error) => {
      await expect(run(pipeline)).rejects.toMatchObject(error);
    });

    it('fails the stream when a stage changes the resume token (_id)', async () => {
      const stream = await opened(c.watch([{ $project: { _id: 0 } }], { maxAwaitTimeMS: 50 }));
      await c.insertOne({ _id: 1 });
      // Labelled so that the driver does not resume it (the drivers' change-streams spec).
      await expect(stream.next()).rejects.toMatchObject({
        code: 280,
        codeName: 'ChangeStreamFatalError',
        errorLabels: ['NonResumableChangeStreamError'],
      });
    });
  });

  describe('awaitData getMore', () => {
    it('opens a tailable cursor with a postBatchResumeToken, and waits in getMore for the next event', async () => {
      const opened = await fx.db.command({
        aggregate: c.collectionName,
        pipeline: [{ $changeStream: {} }],
        cursor: {},
      });
      const cursor = opened.cursor as Document;
      expect(cursor).toMatchObject({ firstBatch: [], postBatchResumeToken: token });
      expect(cursor.id).not.toEqual(0);
      const quiet = await fx.db.command({ getMore: cursor.id, collection: c.collectionName, maxTimeMS: 100 });
      expect(quiet.cursor).toMatchObject({ nextBatch: [], postBatchResumeToken: token });
      // Started before the insert; answers with it rather than with an empty batch.
      const waiting = fx.db.command({ getMore: cursor.id, collection: c.collectionName, maxTimeMS: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      await c.insertOne({ _id: 1 });
      const answer = await waiting;
      expect((answer.cursor as Document).nextBatch).toMatchObject([
        { operationType: 'insert', documentKey: { _id: 1 } },
      ]);
      await fx.db.command({ killCursors: c.collectionName, cursors: [cursor.id] });
    });
  });

  describe('transactions', () => {
    it("shows a transaction's writes only once it commits, in order, with lsid and txnNumber", async () => {
      await c.insertOne({ _id: 1, n: 0 });
      const stream = await opened(c.watch([], { maxAwaitTimeMS: 50 }));
      const session = fx.client.startSession();
      try {
        session.startTransaction();
        await c.insertOne({ _id: 2 }, { session });
        await c.updateOne({ _id: 1 }, { $set: { n: 1 } }, { session });
        await c.deleteOne({ _id: 2 }, { session });
        expect(await stream.tryNext()).toBeNull();
        await session.commitTransaction();
        const events = await take(stream, 3);
        expect(events.map((event) => event.operationType)).toEqual(['insert', 'update', 'delete']);
        for (const event of events) {
          expect(event).toMatchObject({ lsid: { id: session.id!.id }, txnNumber: expect.anything() as unknown });
        }
        const times = events.map((event) => (event as { clusterTime: Timestamp }).clusterTime);
        expect(times[1]).toEqual(times[0]);
        expect(times[2]).toEqual(times[0]);
      } finally {
        await session.endSession();
      }
    });

    it('never shows an aborted transaction', async () => {
      const stream = await opened(c.watch([], { maxAwaitTimeMS: 50 }));
      const session = fx.client.startSession();
      try {
        session.startTransaction();
        await c.insertOne({ _id: 'aborted' }, { session });
        await session.abortTransaction();
      } finally {
        await session.endSession();
      }
      await c.insertOne({ _id: 'after' });
      const [event] = await take(stream, 1);
      expect(event).toMatchObject({ operationType: 'insert', documentKey: { _id: 'after' } });
    });
  });

  describe('mongoose Model.watch()', () => {
    it("emits 'change' for documents saved through the model", async () => {
      const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
      try {
        const Item = conn.model('Item', new mongoose.Schema({ name: String }), 'change_streams');
        const stream = Item.watch([], { maxAwaitTimeMS: 50 });
        const changes: Document[] = [];
        stream.on('change', (change: Document) => changes.push(change));
        await once(stream, 'resumeTokenChanged');
        const saved = await Item.create({ name: 'widget' });
        while (changes.length === 0) await once(stream, 'change');
        expect(changes[0]).toMatchObject({
          operationType: 'insert',
          documentKey: { _id: saved._id },
          fullDocument: { name: 'widget' },
        });
        await stream.close();
      } finally {
        await conn.close();
      }
    });
  });
});
