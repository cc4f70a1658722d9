/**
 * Conformance: TTL indexes (`expireAfterSeconds`). The expiry test runs on
 * the embedded server with a short monitor interval (mongod's monitor
 * passes once a minute, so it is skipped against MONGO_URL); the index
 * rules run on both.
 */
import { MongoClient, MongoServerError } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';
import { EmbeddedMongoServer } from './embedded-mongo-server.js';

const fx = useDriverFixture();
const embedded = !process.env.MONGO_URL;

describe('TTL indexes', () => {
  (embedded ? it : it.skip)('should remove documents once their date is expireAfterSeconds old', async () => {
    const server = await EmbeddedMongoServer.start({ ttlMonitorSleepSecs: 0.02 });
    const client = await new MongoClient(server.uri).connect();
    try {
      const sessions = client.db('ttl').collection('sessions');
      await sessions.createIndex({ lastSeen: 1 }, { expireAfterSeconds: 3600 });
      const now = Date.now();
      await sessions.insertMany([
        { _id: 'old', lastSeen: new Date(now - 7_200_000) },
        { _id: 'old-in-array', lastSeen: [new Date(now), new Date(now - 7_200_000)] },
        { _id: 'fresh', lastSeen: new Date(now) },
        { _id: 'no-date', lastSeen: 'yesterday' },
        { _id: 'missing' },
      ] as never[]);
      const ids = async () => (await sessions.find().toArray()).map((doc) => doc._id as unknown as string);
      for (let attempt = 0; attempt < 200 && (await ids()).length > 3; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await ids()).toEqual(['fresh', 'no-date', 'missing']);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it.each([
    ['a compound TTL index', { a: 1, b: 1 }, 1],
    ['a negative expireAfterSeconds', { a: 1 }, -1],
  ])('should refuse %s (CannotCreateIndex)', async (_label, key, expireAfterSeconds) => {
    const c = await fx.fresh('ttl-rules');
    const error = await c.createIndex(key, { expireAfterSeconds }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(67);
  });
});
