import 'reflect-metadata';
import type { INestApplication, LoggerService } from '@nestjs/common';
import type { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import request from 'supertest';
import { CATALOG_PLATFORMS, startCatalogOnOwnServer } from './catalog-test-app.js';

/** The 503 of GET /health, key by key in the order the app writes them. */
const DOWN_BODY = JSON.stringify({
  message: 'database unavailable, try again',
  error: 'Service Unavailable',
  statusCode: 503,
  dependencies: { database: 'down' },
});
const UP_BODY = JSON.stringify({ status: 'ok', dependencies: { database: 'up' } });
const DOWN_LOG = 'warn MongoDB is down: requests that need it answer 503 until it is back';
const BACK_LOG = /^log MongoDB is back after \d+\.\d s: requests are served again$/;

/** Polls `check` every 100 ms until it is true, for at most 15 s. */
async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 15_000) throw new Error(`not within 15 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * GET /health names each dependency and its state, and the app logs each
 * change of the database's state once. Takes the database away, so it runs on
 * an embedded server of its own (also when MONGO_URL is set).
 */
describe.each(CATALOG_PLATFORMS)('health and database state on %s', (platform) => {
  let server: EmbeddedMongoServer;
  let app: INestApplication | undefined;
  let url: string;
  /** What the app logged with context 'Database', as `level message`. */
  const logged: string[] = [];
  const record =
    (level: string) =>
    (message: unknown, context?: unknown): void => {
      if (context === 'Database') logged.push(`${level} ${String(message)}`);
    };
  const logger: LoggerService = {
    log: record('log'),
    warn: record('warn'),
    error: record('error'),
    debug: () => undefined,
    verbose: () => undefined,
    fatal: record('fatal'),
  };
  const health = () => request(url).get('/health');

  beforeAll(async () => {
    // A health check while the database is down may wait for one server selection: 500 ms
    // instead of the app's 2 s (SERVER_SELECTION_TIMEOUT_MS), which would only make the test wait.
    ({ server, app, url } = await startCatalogOnOwnServer(platform, {
      dbName: 'health',
      logger,
      mongoose: { serverSelectionTimeoutMS: 500 },
    }));
  });
  afterAll(async () => {
    await app?.close();
    await server?.stop();
  });

  it('should answer 200 with every dependency up', async () => {
    const res = await health().expect(200);
    expect(res.text).toBe(UP_BODY);
    expect(logged).toEqual([]);
  });

  it('should answer 503 naming the database down, and log its loss and its return once each', async () => {
    await server.close();
    let res = await health();
    expect([res.status, res.text]).toEqual([503, DOWN_BODY]);
    // Mongoose hears of the loss from the driver's monitor; every check until then is a 503 too.
    await until('the loss is logged', async () => {
      res = await health();
      expect([res.status, res.text]).toEqual([503, DOWN_BODY]);
      return logged.length > 0;
    });
    for (let i = 0; i < 5; i++) expect((await health()).text).toBe(DOWN_BODY);
    expect(logged).toEqual([DOWN_LOG]);

    await server.listen();
    await until('healthy again', async () => (await health()).status === 200);
    await until('the return is logged', () => logged.length > 1);
    for (let i = 0; i < 5; i++) expect((await health()).text).toBe(UP_BODY);
    // Mongoose emits both `connected` and `reconnected` on the return: one line.
    expect(logged).toEqual([DOWN_LOG, expect.stringMatching(BACK_LOG)]);
  });

  it('should log a second outage again, once', async () => {
    logged.splice(0);
    await server.close();
    await until('the loss is logged', async () => (await health()).status === 503 && logged.length > 0);
    await server.listen();
    await until('the return is logged', async () => (await health()).status === 200 && logged.length > 1);
    expect(logged).toEqual([DOWN_LOG, expect.stringMatching(BACK_LOG)]);
  });

  it('should not take its own shutdown for an outage', async () => {
    logged.splice(0);
    await app!.close();
    app = undefined;
    expect(logged).toEqual([]);
  });
});
