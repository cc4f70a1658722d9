/**
 * The embedded server's own time limit on every command (`maxCommandTimeMS`),
 * which MongoDB does not have: it runs inside the hosting process, where a
 * runaway query would otherwise hold every client and the app itself.
 */
import { MongoClient, MongoServerError } from 'mongodb';
import { EmbeddedMongoServer } from './embedded-mongo-server.js';

/** About 2 s of work on the embedded server, matching nothing. */
const SLOW_NOTHING = {
  $expr: {
    $lt: [{ $reduce: { input: { $range: [0, 2000] }, initialValue: 0, in: { $add: ['$$value', '$$this'] } } }, 0],
  },
};

describe('EmbeddedMongoServer maxCommandTimeMS', () => {
  let server: EmbeddedMongoServer;
  let client: MongoClient;

  beforeAll(async () => {
    server = await EmbeddedMongoServer.start({ maxCommandTimeMS: 50 });
    client = await new MongoClient(server.uri).connect();
    await client
      .db()
      .collection('slow')
      .insertMany(Array.from({ length: 100 }, (_, n) => ({ _id: n, n })) as never[]);
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('should stop a command without maxTimeMS at the server limit, saying how to raise it', async () => {
    const error = await client
      .db()
      .collection('slow')
      .find(SLOW_NOTHING)
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).codeName).toBe('MaxTimeMSExpired');
    expect((error as MongoServerError).message).toBe(
      'operation exceeded time limit: the embedded server stops any command after maxCommandTimeMS (50 ms). Raise it with EmbeddedMongoServer.start({ maxCommandTimeMS }) if the command is expected to be this slow',
    );
    expect(await client.db().collection('slow').countDocuments()).toBe(100);
  });

  it('should stop a $graphLookup walk over a long chain at the server limit', async () => {
    // Each link is a regex, which `$in` matches by pattern: every level tests the whole
    // chain, 3,000 levels of 3,000 documents (an equality would be found in the stage's hash table).
    const chain = client.db().collection('chain');
    await chain.insertMany(
      Array.from({ length: 3000 }, (_, n) => ({ _id: `n${n}`, next: new RegExp(`^n${n + 1}$`) })) as never[],
    );
    const walk = {
      $graphLookup: { from: 'chain', startWith: 'n0', connectFromField: 'next', connectToField: '_id', as: 'reached' },
    };
    const error = await client
      .db()
      .collection('slow')
      .aggregate([{ $limit: 1 }, walk])
      .toArray()
      .catch((e: unknown) => e);
    expect((error as MongoServerError).codeName).toBe('MaxTimeMSExpired');
    await chain.drop();
  });

  it('should let a shorter maxTimeMS speak in MongoDB words', async () => {
    const error = await client
      .db()
      .collection('slow')
      .find(SLOW_NOTHING)
      .maxTimeMS(10)
      .toArray()
      .catch((e: unknown) => e);
    expect((error as MongoServerError).message).toBe('operation exceeded time limit');
  });

  it.each([
    ['a string', 'soon', 'maxTimeMS must be a number'],
    ['a negative number', -1, '-1 value for maxTimeMS is out of range [0, 2147483647]'],
    ['a fraction', 1.5, 'maxTimeMS has non-integral value'],
  ])('should refuse %s as maxTimeMS with BadValue', async (_, maxTimeMS, message) => {
    const error = await client
      .db()
      .command({ count: 'slow', maxTimeMS })
      .catch((e: unknown) => e);
    expect((error as MongoServerError).codeName).toBe('BadValue');
    expect((error as MongoServerError).message).toBe(message);
  });

  it('should run without limit when maxCommandTimeMS is 0', async () => {
    const unlimited = await EmbeddedMongoServer.start({ maxCommandTimeMS: 0 });
    const other = await new MongoClient(unlimited.uri).connect();
    try {
      const slow = other.db().collection('slow');
      await slow.insertMany(Array.from({ length: 10 }, (_, n) => ({ _id: n, n })) as never[]);
      expect(await slow.find(SLOW_NOTHING).toArray()).toEqual([]);
    } finally {
      await other.close();
      await unlimited.stop();
    }
  });
});

/**
 * A wide filter, stage or projection takes long per document (a 200,000-field
 * `$project` took most of a second on each): the clock is read after each
 * such document, not after every 32 as for small ones. The server's clock
 * here moves a second at each read while `stepping`, so a command stops at
 * its third read past the start.
 */
describe('EmbeddedMongoServer maxCommandTimeMS on wide commands', () => {
  let server: EmbeddedMongoServer;
  let client: MongoClient;
  let now = 0;
  let stepping = false;
  const WIDE = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`f${i}`, 1]));
  const NARROW = { f0: 1, f1: 1 };

  beforeAll(async () => {
    server = await EmbeddedMongoServer.start({ maxCommandTimeMS: 2_500, clock: () => (now += stepping ? 1_000 : 0) });
    client = await new MongoClient(server.uri).connect();
    await client
      .db()
      .collection('wide')
      .insertMany(Array.from({ length: 5 }, (_, n) => ({ _id: n, n })) as never[]);
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  async function outcome(run: () => Promise<unknown>): Promise<string> {
    stepping = true;
    try {
      await run();
      return 'answered';
    } catch (error) {
      return (error as MongoServerError).codeName ?? String(error);
    } finally {
      stepping = false;
    }
  }

  it.each([
    ['a find filter', (filter: object) => client.db().collection('wide').find(filter).toArray()],
    ['a find projection', (projection: object) => client.db().collection('wide').find({}, { projection }).toArray()],
    [
      'an aggregation $project',
      (spec: object) =>
        client
          .db()
          .collection('wide')
          .aggregate([{ $project: spec }])
          .toArray(),
    ],
    [
      'an aggregation $addFields',
      (spec: object) =>
        client
          .db()
          .collection('wide')
          .aggregate([{ $addFields: spec }])
          .toArray(),
    ],
  ])('should read the clock after each document of %s of 2,000 fields', async (_, run) => {
    expect(await outcome(() => run(NARROW))).toBe('answered');
    expect(await outcome(() => run(WIDE))).toBe('MaxTimeMSExpired');
  });
});
