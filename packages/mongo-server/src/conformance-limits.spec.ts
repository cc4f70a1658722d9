/**
 * MongoDB's per-command limits, which also keep one command from taking the
 * hosting process down: written from mongod's messages; runs against
 * MONGO_URL too.
 */
import { MongoServerError } from 'mongodb';
import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();

describe('limits', () => {
  it('should refuse a $range past 100 MiB with ExceededMemoryLimit, and keep serving', async () => {
    const things = await fixture.fresh('things');
    await things.insertOne({ n: 1 });
    const error = await things
      .aggregate([{ $project: { n: { $size: { $range: [0, 3e8] } } } }])
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).codeName).toBe('ExceededMemoryLimit');
    expect((error as MongoServerError).message).toMatch(/^\$range would use too much memory \(\d+ bytes\)/);
    // A range within the limit still works.
    expect(
      await things.aggregate([{ $project: { _id: 0, n: { $size: { $range: [0, 1000, 3] } } } }]).toArray(),
    ).toEqual([{ n: 334 }]);
  });

  describe('16 MiB documents', () => {
    const LIMIT = 16 * 1024 * 1024;
    // A string field that brings the document just past (or to) the limit; 30 bytes of overhead cover _id and keys.
    const filler = (bytes: number) => 'x'.repeat(bytes);

    // (The driver itself refuses to send an insert over the limit, so the server's own check is met by updates.)
    it('should not store one that is inserted, and keep the collection readable', async () => {
      const things = await fixture.fresh('big');
      await expect(things.insertOne({ _id: 1, s: filler(LIMIT) } as never)).rejects.toThrow(/too large|larger than/i);
      expect(await things.countDocuments()).toBe(0);
    });

    it('should refuse an update that would make one, keeping the document as it was', async () => {
      const things = await fixture.fresh('big');
      await things.insertOne({ _id: 1, s: filler(LIMIT / 2) } as never);
      const growth = { $set: { t: filler(LIMIT / 2) } };
      const viaUpdate = await things.updateOne({ _id: 1 } as never, growth).catch((e: unknown) => e);
      expect(viaUpdate).toBeInstanceOf(MongoServerError);
      expect((viaUpdate as MongoServerError).code).toBe(10334); // BSONObjectTooLarge
      expect((viaUpdate as MongoServerError).message).toBe('Resulting document after update is larger than 16777216');
      const viaFindAndModify = await things.findOneAndUpdate({ _id: 1 } as never, growth).catch((e: unknown) => e);
      expect((viaFindAndModify as MongoServerError).code).toBe(10334);
      const [doc] = await things.find({}).toArray();
      expect(Object.keys(doc!)).toEqual(['_id', 's']);
    });
  });

  describe('nesting', () => {
    /** `levels` documents nested below the command's top level. */
    const nested = (levels: number): object => {
      let value: object = {};
      for (let i = 1; i < levels; i++) value = { a: value };
      return value;
    };

    // mongod validates the BSON of a request before any command sees it (the embedded server's
    // recursive code overflowed the call stack on thousands of levels and answered InternalError).
    it('should refuse a command nested deeper than 200 levels with Overflow, and keep serving', async () => {
      expect((await fixture.db.command({ ping: 1, deep: nested(200) })).ok).toBe(1);
      for (const levels of [201, 5000]) {
        const error = await fixture.db.command({ ping: 1, deep: nested(levels) }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(MongoServerError);
        expect({ ...(error as MongoServerError) }).toMatchObject({ code: 15, codeName: 'Overflow' });
        expect((error as MongoServerError).message).toBe('BSONObj exceeded maximum nested object depth: 200');
      }
      expect((await fixture.db.command({ ping: 1 })).ok).toBe(1);
    });
  });
});
