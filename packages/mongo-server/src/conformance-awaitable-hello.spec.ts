/**
 * The awaitable hello of MongoDB's streaming monitoring protocol: hello
 * reports a `topologyVersion`; sent back with `maxAwaitTimeMS`, hello waits
 * that long while nothing changed and answers at once when the client's
 * version is stale. The driver then monitors by streaming (`awaited`
 * heartbeats) instead of polling.
 */
import { type Document, Long, MongoClient, ObjectId, type ServerHeartbeatSucceededEvent } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();
const admin = () => fixture.client.db('admin');

/** The server's topologyVersion; the driver hands its int64 counter over as a number. */
async function currentVersion(): Promise<{ processId: ObjectId; counter: number }> {
  return (await admin().command({ hello: 1 })).topologyVersion as { processId: ObjectId; counter: number };
}

describe('awaitable hello', () => {
  it('should report a topologyVersion with an ObjectId processId and a counter, the same on every connection', async () => {
    const version = await currentVersion();
    expect(version.processId).toBeInstanceOf(ObjectId);
    expect(Number.isSafeInteger(version.counter) && version.counter >= 0).toBe(true);
    const other = await new MongoClient(fixture.mongo.uri).connect();
    try {
      const again = (await other.db('admin').command({ isMaster: 1 })).topologyVersion as Document;
      expect(again.processId).toEqual(version.processId);
    } finally {
      await other.close();
    }
  });

  it.each<[string, number, (version: Document) => Document]>([
    ['topologyVersion without maxAwaitTimeMS', 31368, (v) => ({ topologyVersion: v })],
    ['maxAwaitTimeMS without topologyVersion', 31368, () => ({ maxAwaitTimeMS: 10 })],
    ['a negative maxAwaitTimeMS', 31373, (v) => ({ topologyVersion: v, maxAwaitTimeMS: -1 })],
    ['a string maxAwaitTimeMS', 14, (v) => ({ topologyVersion: v, maxAwaitTimeMS: '10' })],
    [
      'a counter above the server’s',
      51764,
      (v) => ({ topologyVersion: { ...v, counter: Long.fromNumber(Number(v.counter) + 1) }, maxAwaitTimeMS: 10 }),
    ],
    [
      'a negative counter',
      31372,
      (v) => ({ topologyVersion: { ...v, counter: Long.fromNumber(-1) }, maxAwaitTimeMS: 10 }),
    ],
    ['a processId that is a string', 14, (v) => ({ topologyVersion: { ...v, processId: 'x' }, maxAwaitTimeMS: 10 })],
    ['no counter', 40414, (v) => ({ topologyVersion: { processId: v.processId }, maxAwaitTimeMS: 10 })],
    ['a topologyVersion that is a number', 14, () => ({ topologyVersion: 1, maxAwaitTimeMS: 10 })],
  ])('should refuse %s with code %d', async (_label, code, args) => {
    const version = await currentVersion();
    await expect(admin().command({ hello: 1, ...args(version) })).rejects.toMatchObject({ code });
  });

  it('should wait maxAwaitTimeMS when the client already knows the current topologyVersion', async () => {
    const topologyVersion = await currentVersion();
    const started = performance.now();
    const reply = await admin().command({ hello: 1, topologyVersion, maxAwaitTimeMS: 300 });
    expect(reply.ok).toBe(1);
    // A lower bound only: the wait happened (timers may fire a little early, never much).
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('should answer at once (not after a minute) a client whose topologyVersion is from another process', async () => {
    const stale = { processId: new ObjectId(), counter: Long.ZERO };
    const reply = await admin().command({ hello: 1, topologyVersion: stale, maxAwaitTimeMS: 60_000 });
    expect((reply.topologyVersion as Document).processId).toEqual((await currentVersion()).processId);
  });

  it('should let the driver monitor by streaming: awaited heartbeats', async () => {
    const client = new MongoClient(fixture.mongo.uri, { heartbeatFrequencyMS: 500 });
    const awaited = new Promise<ServerHeartbeatSucceededEvent>((resolve) =>
      client.on('serverHeartbeatSucceeded', (event) => {
        if (event.awaited) resolve(event);
      }),
    );
    try {
      await client.connect();
      expect((await awaited).reply.topologyVersion).toBeDefined();
    } finally {
      await client.close();
    }
  });
});
