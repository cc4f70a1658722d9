/**
 * MongoDB's nesting limit for stored documents (180 levels, the document
 * itself being the first): an insert or an update that would store a deeper
 * one is refused with Overflow, so no stored document can break later reads
 * (an `$inc` on a 5,000-part path once made every aggregation over the
 * collection overflow the call stack). Runs against MONGO_URL too.
 */
import { MongoServerError } from 'mongodb';
import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();
const embedded = !process.env.MONGO_URL;

/** A document `levels` deep, counting itself: `nested(1)` is `{ a: 1 }`, `nested(2)` is `{ a: { a: 1 } }`. */
function nested(levels: number): Record<string, unknown> {
  let doc: Record<string, unknown> = { a: 1 };
  for (let level = 1; level < levels; level++) doc = { a: doc };
  return doc;
}

/** A dotted path of `parts` parts. */
const path = (parts: number) => Array.from({ length: parts }, () => 'a').join('.');

async function rejection(write: Promise<unknown>): Promise<MongoServerError> {
  const error = await write.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

/** Every document of `deep` is still readable by find and by an aggregation (which copies each one). */
async function expectReadable(count: number): Promise<void> {
  const deep = fixture.db.collection('deep');
  expect(await deep.find({}).toArray()).toHaveLength(count);
  expect(await deep.aggregate([{ $project: { a: 1 } }]).toArray()).toHaveLength(count);
  expect(await deep.countDocuments()).toBe(count);
}

describe('nesting depth', () => {
  beforeEach(async () => {
    await fixture.fresh('deep');
  });

  it('should insert a document 180 levels deep, and 100, and read them back', async () => {
    const deep = fixture.db.collection('deep');
    await deep.insertOne({ _id: 1, ...nested(180) } as never);
    await deep.insertOne({ _id: 2, ...nested(100) } as never);
    await expectReadable(2);
  });

  it('should refuse to insert a document 181 levels deep with Overflow', async () => {
    const error = await rejection(fixture.db.collection('deep').insertOne({ _id: 1, ...nested(181) } as never));
    expect(error.code).toBe(15);
    expect(error.message).toBe('cannot insert document because it exceeds 180 levels of nesting');
    await expectReadable(0);
  });

  it('should refuse to insert a document 200 levels deep', async () => {
    const error = await rejection(fixture.db.collection('deep').insertOne({ _id: 1, ...nested(200) } as never));
    // mongod may already refuse the whole message (the command's own nesting passes 200 levels).
    if (embedded) expect(error.code).toBe(15);
    await expectReadable(0);
  });

  it('should set a 180-part path but refuse a 181-part one with Overflow', async () => {
    const deep = fixture.db.collection('deep');
    await deep.insertOne({ _id: 1 } as never);
    await deep.updateOne({ _id: 1 } as never, { $set: { [path(180)]: 1 } });
    await deep.insertOne({ _id: 2 } as never);
    const error = await rejection(deep.updateOne({ _id: 2 } as never, { $set: { [path(181)]: 1 } }));
    expect(error.code).toBe(15);
    expect(error.message).toBe('Document exceeds maximum nesting depth of 180');
    expect(await deep.findOne({ _id: 2 } as never)).toEqual({ _id: 2 });
    await expectReadable(2);
  });

  it('should refuse an $inc on a 5,000-part path, and find({}) still works', async () => {
    const deep = fixture.db.collection('deep');
    await deep.insertOne({ _id: 1, n: 0 } as never);
    const error = await rejection(deep.updateOne({}, { $inc: { [path(5000)]: 1 } }));
    expect(error.code).toBe(15);
    expect(await deep.find({}).toArray()).toEqual([{ _id: 1, n: 0 }]);
    await expectReadable(1);
  });

  it('should refuse an upsert and a findAndModify that would nest too deep', async () => {
    const deep = fixture.db.collection('deep');
    const upsert = await rejection(deep.updateOne({ _id: 1 } as never, { $set: { [path(200)]: 1 } }, { upsert: true }));
    expect(upsert.code).toBe(15);
    await deep.insertOne({ _id: 2 } as never);
    const modify = await rejection(deep.findOneAndUpdate({ _id: 2 } as never, { $set: { [path(200)]: 1 } }));
    expect(modify.code).toBe(15);
    await expectReadable(1);
  });
});
