import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import request from 'supertest';
import { CATALOG_PLATFORMS, startCatalogOnOwnServer } from './catalog-test-app.js';

/**
 * The app's server selection timeout in this spec. Every 503 waits for one server
 * selection to give up, so the app's own 2 s (SERVER_SELECTION_TIMEOUT_MS) would
 * only make the test wait; the fail-fast bounds below scale with it.
 */
const SERVER_SELECTION_TIMEOUT_MS = 500;
const UNAVAILABLE = { statusCode: 503, message: 'database unavailable, try again', error: 'Service Unavailable' };
/** GET /health adds which dependency is down. */
const HEALTH_DOWN = { ...UNAVAILABLE, dependencies: { database: 'down' } };
// A request may wait for server selection once; anything much longer would be a hang.
const FAIL_FAST_MS = SERVER_SELECTION_TIMEOUT_MS + 1500;

/**
 * Stops and restarts the database under a running app. This needs a server the
 * test controls, so it always runs on the embedded one (also when MONGO_URL is set).
 */
describe.each(CATALOG_PLATFORMS)('catalog during a database outage on %s', (platform) => {
  let server: EmbeddedMongoServer;
  let app: INestApplication;
  let url: string;
  let productId: string;
  const http = () => request(url);
  const order = () =>
    http()
      .post('/orders')
      .send({ items: [{ productId, quantity: 1 }] });

  async function timed(run: () => Promise<request.Response>): Promise<{ res: request.Response; ms: number }> {
    const started = performance.now();
    const res = await run();
    return { res, ms: performance.now() - started };
  }

  /** Polls until the app answers healthy again (the driver reconnects on its own). */
  async function waitUntilHealthy(): Promise<number> {
    const started = performance.now();
    for (;;) {
      const res = await http().get('/health');
      if (res.status === 200) return performance.now() - started;
      if (performance.now() - started > 15_000) throw new Error(`still ${res.status} after 15 s: ${res.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    ({ server, app, url, productId } = await startCatalogOnOwnServer(platform, {
      dbName: 'outage',
      mongoose: { monitorCommands: true, serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS },
      clock: () => new Date('2026-12-02T12:00:00Z'),
    }));
  });
  afterAll(async () => {
    await app?.close();
    await server?.stop();
  });

  it('should be healthy while the database answers', async () => {
    await http()
      .get('/health')
      .expect(200, { status: 'ok', dependencies: { database: 'up' } });
    expect((await order().expect(201)).body.number).toBe('ORD-2026-000001');
  });

  it('should answer 503 quickly while the database is down, and recover when it is back', async () => {
    await server.close();
    const checks: [string, () => Promise<request.Response>, object][] = [
      ['GET /health', () => http().get('/health'), HEALTH_DOWN],
      ['GET /products/:id', () => http().get(`/products/${productId}`), UNAVAILABLE],
      ['GET /products', () => http().get('/products'), UNAVAILABLE],
      ['POST /categories', () => http().post('/categories').send({ name: 'Garden' }), UNAVAILABLE],
      ['POST /orders', order, UNAVAILABLE],
    ];
    for (const [label, run, body] of checks) {
      const { res, ms } = await timed(run);
      expect([label, res.status, res.body]).toEqual([label, 503, body]);
      expect(ms).toBeLessThan(FAIL_FAST_MS);
    }
    // Validation still answers without the database.
    await http().get('/products/not-an-id').expect(400);

    await server.listen();
    expect(await waitUntilHealthy()).toBeLessThan(10_000);
    await http().get(`/products/${productId}`).expect(200);
    // The rejected order took no number: numbering continues without a gap or a repeat.
    expect((await order().expect(201)).body.number).toBe('ORD-2026-000002');
  });

  it('should answer 503 when the database goes away between the product check and the order number', async () => {
    const connection = app.get<Connection>(getConnectionToken());
    const client = connection.getClient();
    // Close the server the moment the product lookup has succeeded, so that the
    // failure hits SequenceService (SequenceUnavailableError) rather than the find.
    const cut = (event: { commandName: string; reply?: unknown }) => {
      if (event.commandName === 'find') {
        client.off('commandSucceeded', cut);
        void server.close();
      }
    };
    client.on('commandSucceeded', cut);
    const { res, ms } = await timed(order);
    client.off('commandSucceeded', cut);
    expect([res.status, res.body]).toEqual([503, UNAVAILABLE]);
    expect(ms).toBeLessThan(2 * FAIL_FAST_MS); // the driver retries a retryable write once

    await server.listen();
    await waitUntilHealthy();
    const numbers = [(await order().expect(201)).body.number, (await order().expect(201)).body.number];
    // The counter update never reached the server, so no number was lost; none is ever repeated.
    expect(numbers).toEqual(['ORD-2026-000003', 'ORD-2026-000004']);
  });
});
