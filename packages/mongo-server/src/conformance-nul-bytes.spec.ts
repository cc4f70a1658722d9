/**
 * Conformance: NUL bytes and other characters MongoDB refuses in names.
 * BSON ends a field name at a NUL byte, so a string value holding one must
 * never become a field, collection or database name: mongod refuses it
 * with an error, and the connection and the data stay as they were. The
 * embedded server closed the connection on a reply carrying such a name
 * (`$setField`, `$lookup`'s `as`, `$count`), stored documents no read could
 * send back (a pipeline update, `$out`, `$merge`), and created namespaces
 * through `$out` and `renameCollection` that no command could name. Through
 * the driver only; against a real MongoDB (MONGO_URL) the `$setField` cases
 * check only that the connection and the collection survive.
 */
import { MongoServerError } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** A document `$setField` builds with a field name holding a NUL byte. */
const NUL_FIELD = { $setField: { field: 'x\0', input: '$$ROOT', value: 1 } };

/** What a real MongoDB does here is not pinned down: it may answer, but only with a server error if it fails. */
async function failsOnEmbedded(run: () => Promise<unknown>): Promise<void> {
  const outcome = await run().then(
    () => undefined,
    (error: unknown) => error,
  );
  if (fx.mongo.backend === 'embedded') {
    expect(outcome).toBeInstanceOf(MongoServerError);
    expect(outcome).toMatchObject({ code: 2, message: expect.stringMatching(/NUL byte|null bytes/) });
  } else if (outcome !== undefined) {
    expect(outcome).toBeInstanceOf(MongoServerError);
  }
}

describe('database names', () => {
  // mongod 7 refuses a NUL byte and a length past 63 as it reads `$db`, and the other characters in the
  // namespace of a command that names a collection (as create answers; see conformance-basic-diagnostic).
  it.each([
    ['a b', "Invalid namespace specified 'a b.c'"],
    ['a/b', "Invalid namespace specified 'a/b.c'"],
    ['a\\b', "Invalid namespace specified 'a\\b.c'"],
    ['a"b', `Invalid namespace specified 'a"b.c'`],
    ['a\0b', "Invalid database name: 'a\0b'"],
    ['x'.repeat(64), 'db name must be at most 63 characters, found: 64'],
  ])('should refuse %j with InvalidNamespace', async (name, message) => {
    const error = await rejection(fx.client.db(name).collection('c').insertOne({ a: 1 }));
    expect(error).toMatchObject({ code: 73, message });
  });

  it('should accept a name of 63 characters', async () => {
    const db = fx.client.db('d'.repeat(63));
    await db.collection('c').insertOne({ a: 1 });
    expect(await db.collection('c').countDocuments()).toBe(1);
    await db.dropDatabase();
  });
});

describe('collection names made from values', () => {
  beforeAll(async () => {
    const c = await fx.fresh('nul_source');
    await c.insertOne({ _id: 1, a: 1 } as never);
  });
  const source = () => fx.db.collection('nul_source');

  it.each<[string, () => object]>([
    ['$out', () => ({ $out: 'out\0x' })],
    ['$out to { db, coll }', () => ({ $out: { db: fx.db.databaseName, coll: 'out\0x' } })],
    ['$merge', () => ({ $merge: { into: 'merge\0x' } })],
  ])('should refuse a %s target holding a NUL byte', async (_label, stage) => {
    expect(await rejection(source().aggregate([stage()]).toArray())).toMatchObject({ code: 73 });
    const names = (await fx.db.listCollections().toArray()).map((info) => info.name);
    expect(names.filter((name) => name.includes('\0'))).toEqual([]);
  });

  it('should refuse renameCollection to a name holding a NUL byte', async () => {
    const db = fx.db.databaseName;
    const error = await rejection(
      fx.client.db('admin').command({ renameCollection: `${db}.nul_source`, to: `${db}.renamed\0` }),
    );
    expect(error).toMatchObject({ code: 73 });
    expect(await source().countDocuments()).toBe(1);
  });
});

describe('field names made from values', () => {
  beforeEach(async () => {
    const c = await fx.fresh('nul_fields');
    await c.insertOne({ _id: 1, a: 1 } as never);
  });
  const fields = () => fx.db.collection<{ _id: number }>('nul_fields');

  it("should refuse $rename's target holding a NUL byte", async () => {
    const error = await rejection(fields().updateOne({ _id: 1 }, { $rename: { a: 'b\0' } }));
    // A write error: its code (BadValue) without a codeName.
    expect(error).toMatchObject({
      code: 2,
      message: "The 'to' field for $rename cannot contain an embedded null byte",
    });
    expect(await fields().findOne({ _id: 1 })).toEqual({ _id: 1, a: 1 });
  });

  it('should answer an aggregate building such a field with an error, the connection kept', async () => {
    await failsOnEmbedded(() =>
      fields()
        .aggregate([{ $replaceWith: NUL_FIELD }])
        .toArray(),
    );
    expect(await fields().countDocuments()).toBe(1);
  });

  it.each<[string, () => Promise<unknown>]>([
    ['a pipeline update', () => fields().updateOne({ _id: 1 }, [{ $replaceWith: NUL_FIELD }])],
    ['a pipeline upsert', () => fields().updateOne({ _id: 2 }, [{ $replaceWith: NUL_FIELD }], { upsert: true })],
    ['findOneAndUpdate', () => fields().findOneAndUpdate({ _id: 1 }, [{ $replaceWith: NUL_FIELD }])],
    [
      '$out',
      () =>
        fields()
          .aggregate([{ $replaceWith: NUL_FIELD }, { $out: 'nul_out' }])
          .toArray(),
    ],
    [
      '$merge',
      () =>
        fields()
          .aggregate([{ $replaceWith: NUL_FIELD }, { $merge: { into: 'nul_merge' } }])
          .toArray(),
    ],
  ])('should store nothing unreadable through %s', async (_label, write) => {
    await failsOnEmbedded(write);
    for (const name of ['nul_fields', 'nul_out', 'nul_merge']) {
      await expect(fx.db.collection(name).find().toArray()).resolves.toBeInstanceOf(Array);
    }
    if (fx.mongo.backend === 'embedded') expect(await fields().find().toArray()).toEqual([{ _id: 1, a: 1 }]);
  });
});
