/**
 * Conformance: the cluster time a replica-set member gossips and the causal
 * consistency built on it (the drivers' causal-consistency spec and its
 * prose tests). Every reply carries `$clusterTime` (unsigned without
 * authentication: a zero hash, key 0) and `operationTime`; a write moves
 * the time, and a causally consistent session sends the last operationTime
 * back as `readConcern.afterClusterTime`. `readConcern` is checked as
 * mongod's ReadConcernArgs parses it, with its codes and messages. Runs
 * against a real replica set via MONGO_URL too.
 */
import { Binary, type Document, Long, MongoClient, Timestamp } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture({ transactions: true });
const collection = () => fx.db.collection<{ _id: number; x?: number }>('cluster_time');

beforeEach(async () => {
  await fx.fresh('cluster_time');
});

/** A Timestamp `seconds` away from the wall clock. */
function secondsFromNow(seconds: number): Timestamp {
  return new Timestamp({ t: Math.floor(Date.now() / 1000) + seconds, i: 1 });
}

/** A cluster time as a member without authentication gossips it. */
function unsigned(clusterTime: Timestamp): { clusterTime: Timestamp; signature: { hash: Binary; keyId: Long } } {
  return { clusterTime, signature: { hash: new Binary(new Uint8Array(20), 0), keyId: Long.fromNumber(0) } };
}

describe('the cluster time in replies', () => {
  it.each<[string, Document]>([
    ['ping', { ping: 1 }],
    ['find', { find: 'cluster_time', filter: {} }],
    ['an insert', { insert: 'cluster_time', documents: [{ _id: 1 }] }],
    ['hello', { hello: 1 }],
  ])('comes with %s: $clusterTime, unsigned, and operationTime', async (_label, command) => {
    const reply = await fx.db.command(command);
    expect(reply.operationTime).toBeInstanceOf(Timestamp);
    // The driver reads the Long keyId as a number.
    expect(reply.$clusterTime).toEqual({
      clusterTime: expect.any(Timestamp),
      signature: { hash: new Binary(new Uint8Array(20), 0), keyId: 0 },
    });
    // The operation's time is never past the cluster time the reply gossips.
    expect((reply.operationTime as Timestamp).compare(reply.$clusterTime.clusterTime)).toBeLessThanOrEqual(0);
  });

  it('comes with an error reply too', async () => {
    const error = await rejection(fx.db.command({ find: 'cluster_time', filter: { $bad: 1 } }));
    expect(error.code).toBe(2);
    expect(error.errorResponse.operationTime).toBeInstanceOf(Timestamp);
    expect(error.errorResponse.$clusterTime).toBeDefined();
  });

  it('moves with each write: a write answers a later operationTime than the reply before it', async () => {
    const before = (await fx.db.command({ ping: 1 })).operationTime as Timestamp;
    const first = (await fx.db.command({ insert: 'cluster_time', documents: [{ _id: 1 }] })).operationTime as Timestamp;
    const second = (
      await fx.db.command({ update: 'cluster_time', updates: [{ q: { _id: 1 }, u: { $set: { x: 1 } } }] })
    ).operationTime as Timestamp;
    const read = (await fx.db.command({ find: 'cluster_time', filter: {} })).operationTime as Timestamp;
    expect(first.compare(before)).toBe(1);
    expect(second.compare(first)).toBe(1);
    // A read answers the time of the latest write it may see, or a later one.
    expect(read.compare(second)).toBeGreaterThanOrEqual(0);
  });

  it('moves with a committed transaction', async () => {
    const before = (await fx.db.command({ ping: 1 })).operationTime as Timestamp;
    const session = fx.client.startSession();
    try {
      await session.withTransaction(async () => {
        await collection().insertOne({ _id: 1 }, { session });
      });
      expect(session.operationTime?.compare(before)).toBe(1);
    } finally {
      await session.endSession();
    }
  });
});

// On mongod a change of the catalog writes an oplog entry, which moves the cluster time as a document's write does.
describe('the cluster time and changes of the catalog', () => {
  beforeEach(async () => {
    await fx.fresh('cluster_time_catalog');
  });
  const operationTime = async (command: Document) => (await fx.db.command(command)).operationTime as Timestamp;

  it.each<[string, Document[], Document]>([
    ['create', [], { create: 'cluster_time_catalog' }],
    [
      'createIndexes',
      [{ create: 'cluster_time_catalog' }],
      { createIndexes: 'cluster_time_catalog', indexes: [{ key: { x: 1 }, name: 'x_1' }] },
    ],
    [
      'createIndexes that creates its collection',
      [],
      { createIndexes: 'cluster_time_catalog', indexes: [{ key: { x: 1 }, name: 'x_1' }] },
    ],
    [
      'dropIndexes',
      [{ createIndexes: 'cluster_time_catalog', indexes: [{ key: { x: 1 }, name: 'x_1' }] }],
      { dropIndexes: 'cluster_time_catalog', index: 'x_1' },
    ],
    [
      'collMod',
      [{ create: 'cluster_time_catalog' }],
      { collMod: 'cluster_time_catalog', validator: { x: { $type: 'number' } } },
    ],
  ])('moves with %s', async (_label, setup, command) => {
    for (const step of setup) await fx.db.command(step);
    const before = await operationTime({ ping: 1 });
    expect((await operationTime(command)).compare(before)).toBe(1);
  });

  it('moves with a committed transaction that only created a collection', async () => {
    const before = await operationTime({ ping: 1 });
    const session = fx.client.startSession();
    try {
      await session.withTransaction(async () => {
        await fx.db.createCollection('cluster_time_catalog', { session });
      });
      expect(session.operationTime?.compare(before)).toBe(1);
    } finally {
      await session.endSession();
    }
  });

  it("is the time of hello's lastWrite and of replSetGetStatus' optimes: the latest write's, or a later one", async () => {
    let written = new Timestamp({ t: 0, i: 0 });
    // Several writes in a row, so that the latest one's increment is past 1 within its second.
    for (let i = 0; i < 5; i++) {
      written = await operationTime({ insert: 'cluster_time_catalog', documents: [{ _id: i }] });
    }
    const hello = await fx.db.command({ hello: 1 });
    const status = await fx.client.db('admin').command({ replSetGetStatus: 1 });
    for (const opTime of [
      hello.lastWrite.opTime,
      hello.lastWrite.majorityOpTime,
      status.optimes.appliedOpTime,
      status.optimes.lastCommittedOpTime,
      status.members[0].optime,
    ] as { ts: Timestamp }[]) {
      expect(opTime.ts).toBeInstanceOf(Timestamp);
      expect(opTime.ts.compare(written)).toBeGreaterThanOrEqual(0);
      // Never past the time the reply itself gossips.
      expect(opTime.ts.compare(status.$clusterTime.clusterTime)).toBeLessThanOrEqual(0);
    }
    expect(hello.lastWrite.lastWriteDate).toBeInstanceOf(Date);
  });
});

describe('a causally consistent session', () => {
  let client: MongoClient;
  const started: Document[] = [];
  beforeAll(async () => {
    client = await new MongoClient(fx.mongo.uri, { monitorCommands: true }).connect();
    client.on('commandStarted', (event) => started.push(event.command));
  });
  afterAll(async () => {
    await client.close();
  });
  beforeEach(() => {
    started.length = 0;
  });

  it("sends the write's operationTime as afterClusterTime with the read after it", async () => {
    const session = client.startSession({ causalConsistency: true });
    try {
      const coll = client.db(fx.db.databaseName).collection<{ _id: number }>('cluster_time');
      await coll.insertOne({ _id: 1 }, { session });
      const written = session.operationTime;
      expect(written).toBeInstanceOf(Timestamp);
      expect(await coll.findOne({ _id: 1 }, { session })).toEqual({ _id: 1 });
      const find = started.find((command) => command.find === 'cluster_time');
      expect(find?.readConcern).toEqual({ afterClusterTime: written });
    } finally {
      await session.endSession();
    }
  });

  it('reads after a cluster time it gossips and the server has not reached (a client of a restarted server)', async () => {
    const session = client.startSession({ causalConsistency: true });
    try {
      const ahead = secondsFromNow(5);
      session.advanceClusterTime(unsigned(ahead));
      session.advanceOperationTime(ahead);
      const coll = client.db(fx.db.databaseName).collection<{ _id: number }>('cluster_time');
      await expect(coll.find({}, { session }).toArray()).resolves.toEqual([]);
      const reply = await client.db(fx.db.databaseName).command({ ping: 1 });
      expect((reply.$clusterTime.clusterTime as Timestamp).compare(ahead)).toBeGreaterThanOrEqual(0);
    } finally {
      await session.endSession();
    }
  });

  it('gives $$CLUSTER_TIME as the time the command began with, a gossiped one included: one value for the whole command', async () => {
    await collection().insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    const session = client.startSession();
    try {
      const ahead = secondsFromNow(30);
      session.advanceClusterTime(unsigned(ahead));
      const reply = await client.db(fx.db.databaseName).command(
        {
          aggregate: 'cluster_time',
          pipeline: [{ $sort: { _id: 1 } }, { $project: { t: '$$CLUSTER_TIME' } }],
          cursor: {},
        },
        { session },
      );
      const times = (reply.cursor.firstBatch as { t: Timestamp }[]).map((doc) => doc.t);
      expect(times).toHaveLength(3);
      for (const time of times) {
        expect(time).toBeInstanceOf(Timestamp);
        expect(time.compare(ahead)).toBeGreaterThanOrEqual(0);
        expect(time.compare(reply.$clusterTime.clusterTime)).toBeLessThanOrEqual(0);
        expect(time.equals(times[0]!)).toBe(true);
      }
    } finally {
      await session.endSession();
    }
  });

  it('is refused a gossiped cluster time more than a year past the wall clock (ClusterTimeFailsRateLimiter)', async () => {
    const session = client.startSession();
    try {
      const far = secondsFromNow(2 * 365 * 24 * 60 * 60);
      session.advanceClusterTime(unsigned(far));
      const error = await rejection(client.db(fx.db.databaseName).command({ ping: 1 }, { session }));
      expect([error.code, error.codeName]).toEqual([209, 'ClusterTimeFailsRateLimiter']);
      expect(error.message).toContain("is too far from this node's wall clock time");
    } finally {
      await session.endSession();
    }
  });
});

describe('readConcern, checked as mongod parses it', () => {
  const find = (readConcern: unknown) => fx.db.command({ find: 'cluster_time', filter: {}, readConcern });

  it.each<[string, () => unknown, number, string]>([
    ['not a document', () => 'local', 9, 'readConcern field should be an object'],
    ['a level of another type', () => ({ level: 1 }), 14, "BSON field 'readConcern.level' is the wrong type 'int'"],
    ['an unknown level', () => ({ level: 'strong' }), 2, "Enumeration value 'strong' for field 'readConcern.level'"],
    [
      'afterClusterTime of another type',
      () => ({ afterClusterTime: 1 }),
      14,
      "BSON field 'readConcern.afterClusterTime' is the wrong type 'int', expected type 'timestamp'",
    ],
    [
      'afterClusterTime Timestamp(0, 0)',
      () => ({ afterClusterTime: new Timestamp({ t: 0, i: 0 }) }),
      72,
      'afterClusterTime cannot be a null timestamp',
    ],
    [
      "afterClusterTime with level 'available'",
      () => ({ level: 'available', afterClusterTime: secondsFromNow(-60) }),
      72,
      'afterClusterTime field can be set only if level is equal to majority, local, or snapshot',
    ],
    [
      "afterClusterTime with level 'linearizable'",
      () => ({ level: 'linearizable', afterClusterTime: secondsFromNow(-60) }),
      72,
      'afterClusterTime field can be set only if level is equal to majority, local, or snapshot',
    ],
    [
      'atClusterTime without level snapshot',
      () => ({ level: 'majority', atClusterTime: secondsFromNow(-60) }),
      72,
      'atClusterTime field can be set only if level is equal to snapshot',
    ],
    [
      'both afterClusterTime and atClusterTime',
      () => ({ level: 'snapshot', afterClusterTime: secondsFromNow(-60), atClusterTime: secondsFromNow(-60) }),
      72,
      'Specifying a timestamp for readConcern snapshot in a causally consistent session is not allowed',
    ],
    // ReadConcernIdl is a strict struct, read in the command's order.
    [
      'an unknown field',
      () => ({ level: 'local', strong: true }),
      40415,
      "BSON field 'readConcern.strong' is an unknown field",
    ],
    [
      'an unknown field before a bad level',
      () => ({ wait: 1, level: 'strong' }),
      40415,
      "BSON field 'readConcern.wait' is an unknown field",
    ],
    [
      'a bad level before an unknown field',
      () => ({ level: 'strong', wait: 1 }),
      2,
      "Enumeration value 'strong' for field 'readConcern.level'",
    ],
    [
      'an unknown provenance',
      () => ({ level: 'local', provenance: 'mine' }),
      2,
      "Enumeration value 'mine' for field 'readConcern.provenance'",
    ],
    [
      'both afterClusterTime and afterOpTime',
      () => ({ afterClusterTime: secondsFromNow(-60), afterOpTime: { ts: secondsFromNow(-60), t: 1 } }),
      72,
      'Can not specify both afterClusterTime and afterOpTime',
    ],
    [
      'afterClusterTime past the cluster time',
      () => ({ afterClusterTime: secondsFromNow(3600) }),
      72,
      'readConcern afterClusterTime value must not be greater than the current clusterTime. Requested clusterTime: Timestamp(',
    ],
  ])('refuses %s', async (_label, readConcern, code, message) => {
    const error = await rejection(find(readConcern()));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it("accepts the fields of mongod's struct: a provenance of its enumeration", async () => {
    await collection().insertOne({ _id: 1 });
    const reply = await find({ level: 'majority', provenance: 'clientSupplied' });
    expect(reply.cursor.firstBatch).toEqual([{ _id: 1 }]);
  });

  it("is refused on a transaction's command after its first (InvalidOptions), and aborts the transaction", async () => {
    const session = fx.client.startSession();
    try {
      session.startTransaction();
      await collection().insertOne({ _id: 1 }, { session });
      const error = await rejection(
        fx.db.command({ find: 'cluster_time', filter: {}, readConcern: { level: 'local' } }, { session }),
      );
      expect([error.code, error.message]).toEqual([
        72,
        'Only the first command in a transaction may specify a readConcern',
      ]);
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
    expect(await collection().countDocuments()).toBe(0);
  });

  it.each<[string, (latest: Timestamp) => Document]>([
    ['the latest operationTime', (latest) => ({ afterClusterTime: latest })],
    ["an earlier time, with level 'majority'", () => ({ level: 'majority', afterClusterTime: secondsFromNow(-60) })],
    ['an afterClusterTime of 0 seconds', () => ({ afterClusterTime: new Timestamp({ t: 0, i: 1 }) })],
    ["level 'available'", () => ({ level: 'available' })],
  ])('reads after %s', async (_label, readConcern) => {
    await collection().insertOne({ _id: 1 });
    const latest = (await fx.db.command({ ping: 1 })).operationTime as Timestamp;
    const reply = await fx.db.command({ find: 'cluster_time', filter: {}, readConcern: readConcern(latest) });
    expect(reply.cursor.firstBatch).toEqual([{ _id: 1 }]);
  });
});
