/**
 * `maxTimeMS`: a command that works longer than it allows answers
 * MaxTimeMSExpired, whichever command it is, and the server goes on
 * serving. Runs against MONGO_URL too (with a heavier workload: mongod is
 * far faster than the embedded server).
 */
import { type Document, MongoServerError } from 'mongodb';
import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();
const embedded = !process.env.MONGO_URL;

/** A filter matching nothing that costs seconds to evaluate over the collection (about 2 s on the embedded server). */
const [DOCS, RANGE] = embedded ? [100, 2000] : [1000, 100_000];
const SLOW_SUM = { $reduce: { input: { $range: [0, RANGE] }, initialValue: 0, in: { $add: ['$$value', '$$this'] } } };
const SLOW_NOTHING = { $expr: { $lt: [SLOW_SUM, 0] } };
/** Far below the workload's time, far above a fast command's. */
const MAX_TIME_MS = 50;

async function expectTimedOut(command: Promise<unknown>): Promise<void> {
  const error = await command.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MongoServerError);
  expect((error as MongoServerError).code).toBe(50);
  expect((error as MongoServerError).codeName).toBe('MaxTimeMSExpired');
  expect((error as MongoServerError).message).toBe('operation exceeded time limit');
}

describe('maxTimeMS', () => {
  beforeAll(async () => {
    const slow = await fixture.fresh('slow');
    await slow.insertMany(Array.from({ length: DOCS }, (_, n) => ({ _id: n, n })) as never[]);
  });

  const run = (command: Document) => fixture.db.command({ ...command, maxTimeMS: MAX_TIME_MS });

  it.each<[string, () => Promise<unknown>]>([
    ['find', () => fixture.db.collection('slow').find(SLOW_NOTHING).maxTimeMS(MAX_TIME_MS).toArray()],
    [
      'aggregate',
      () =>
        fixture.db
          .collection('slow')
          .aggregate([{ $project: { s: SLOW_SUM } }], { maxTimeMS: MAX_TIME_MS })
          .toArray(),
    ],
    ['count', () => run({ count: 'slow', query: SLOW_NOTHING })],
    ['distinct', () => run({ distinct: 'slow', key: 'n', query: SLOW_NOTHING })],
    ['findAndModify', () => run({ findAndModify: 'slow', query: SLOW_NOTHING, update: { $set: { x: 1 } } })],
    ['update', () => run({ update: 'slow', updates: [{ q: SLOW_NOTHING, u: { $set: { x: 1 } }, multi: true }] })],
    ['delete', () => run({ delete: 'slow', deletes: [{ q: SLOW_NOTHING, limit: 0 }] })],
  ])('should stop %s past its maxTimeMS with MaxTimeMSExpired, and keep serving', async (_, command) => {
    await expectTimedOut(command());
    expect(await fixture.db.collection('slow').countDocuments({ n: { $lt: 3 } }, { maxTimeMS: 10_000 })).toBe(3);
  });

  it('should let a command within its maxTimeMS answer', async () => {
    const docs = await fixture.db.collection('slow').find({ n: 1 }).maxTimeMS(10_000).toArray();
    expect(docs).toEqual([{ _id: 1, n: 1 }]);
  });

  it('should refuse maxTimeMS on getMore of a cursor that is not tailable awaitData', async () => {
    // promoteLongs off: an id that fits in 53 bits would come back as a number, and a cursor id must be an Int64.
    const opened = await fixture.db.command({ find: 'slow', filter: {}, batchSize: 2 }, { promoteLongs: false });
    const id = (opened.cursor as { id: unknown }).id;
    const error = await fixture.db
      .command({ getMore: id, collection: 'slow', maxTimeMS: 1000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).codeName).toBe('BadValue');
    expect((error as MongoServerError).message).toBe(
      'cannot set maxTimeMS on getMore command for a non-awaitData cursor',
    );
    await fixture.db.command({ killCursors: 'slow', cursors: [id] });
  });

  it('should page a cursor whose find had a maxTimeMS through getMore', async () => {
    const docs = await fixture.db.collection('slow').find({}).batchSize(10).maxTimeMS(10_000).toArray();
    expect(docs).toHaveLength(DOCS);
  });
});
