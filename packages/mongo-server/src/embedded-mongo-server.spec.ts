import { createHook } from 'node:async_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

import { MongoClient } from 'mongodb';

import { EmbeddedMongoServer } from './embedded-mongo-server.js';

/** The kinds of resources that keep a process (a Jest worker) alive: timers, sockets, listeners. */
const KEEPS_ALIVE = new Set(['Timeout', 'TCPWRAP', 'TCPSERVERWRAP']);

/** Records the timers and sockets created from now on, and forgets each once it is closed. */
function watchResources(): { aliveOnceSettled(): Promise<string[]> } {
  const live = new Map<number, { type: string; resource: { hasRef?(): boolean } }>();
  const hook = createHook({
    init(asyncId, type, _triggerAsyncId, resource: { hasRef?(): boolean }) {
      if (KEEPS_ALIVE.has(type)) live.set(asyncId, { type, resource });
    },
    destroy(asyncId) {
      live.delete(asyncId);
    },
  }).enable();
  const alive = (): string[] => [...live.values()].filter((e) => e.resource.hasRef?.() ?? true).map((e) => e.type);
  return {
    // A closed socket or listener is gone a turn of the event loop later. Counted in
    // turns, not milliseconds, so a slow machine waits longer instead of failing.
    async aliveOnceSettled() {
      for (let turn = 0; turn < 50 && alive().length > 0; turn++) await nextTurn();
      hook.disable();
      return alive();
    },
  };
}

// Users run their own Jest suites on this server: whatever stop() leaves behind keeps
// their test workers alive ("A worker process has failed to exit gracefully").
describe('EmbeddedMongoServer.stop()', () => {
  it('leaves nothing alive once its clients have closed', async () => {
    const watch = watchResources();
    const server = await EmbeddedMongoServer.start();
    const client = await new MongoClient(server.uri).connect();
    const orders = client.db('stop_spec').collection('orders');
    const stream = orders.watch([], { maxAwaitTimeMS: 5000 });
    // A getMore now waits on the server for the next change.
    const next = stream.tryNext();
    await orders.insertOne({ n: 1 });
    await next;
    await stream.close();
    await client.close();
    await server.stop();

    expect(await watch.aliveOnceSettled()).toEqual([]);
  });

  it('closes the connections of clients still connected', async () => {
    const watch = watchResources();
    const server = await EmbeddedMongoServer.start();
    const client = await new MongoClient(server.uri).connect();
    await client.db('stop_spec').command({ ping: 1 });
    expect(server.connectionCount).toBeGreaterThan(0);

    await server.stop();
    expect(server.connectionCount).toBe(0);
    await client.close();

    expect(await watch.aliveOnceSettled()).toEqual([]);
  });

  it('leaves nothing alive after close() and a second listen()', async () => {
    const watch = watchResources();
    const server = await EmbeddedMongoServer.start();
    await server.restart();
    await server.stop();

    expect(await watch.aliveOnceSettled()).toEqual([]);
  });
});
