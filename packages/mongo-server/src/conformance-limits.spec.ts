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
});
