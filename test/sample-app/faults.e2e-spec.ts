import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { EventEmitter } from 'node:events';
import { runInThisContext } from 'node:vm';
import type { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import request from 'supertest';
import { CATALOG_PLATFORMS, startCatalogOnOwnServer } from './catalog-test-app.js';

/**
 * The app's server selection timeout in this spec. Every 503 waits for one server
 * selection to give up, so the app's own 2 s (SERVER_SELECTION_TIMEOUT_MS) would
 * only make the test wait; the fail-fast bound below scales with it.
 */
const SERVER_SELECTION_TIMEOUT_MS = 500;
const UNAVAILABLE = { statusCode: 503, message: 'database unavailable, try again', error: 'Service Unavailable' };
/** A request waits for server selection at most once; anything much longer would be a hang. */
const FAIL_FAST_MS = SERVER_SELECTION_TIMEOUT_MS + 1500;
/** Client-side limit of one request: far beyond FAIL_FAST_MS, so that a hang shows as status 0, not as a stuck test. */
const HANG_MS = 3 * FAIL_FAST_MS;
/** The outage lasts until every loop has had a 503 for an order sent after the cut, at most this long. */
const OUTAGE_MS = 3 * FAIL_FAST_MS;
const RECOVERY_MS = 10_000;
/** Concurrent clients, each sending its next order as soon as the previous one is answered. */
const LOOPS = 4;
const NOW = new Date('2026-12-02T12:00:00Z');
const ORDER_NUMBER = /^ORD-2026-(\d{6})$/;

interface Outcome {
  loop: number;
  started: number;
  ended: number;
  status: number;
  body: unknown;
  number?: number;
}

/**
 * Kills the database in the middle of a continuous stream of orders and brings
 * it back. This needs a server the test controls, so it always runs on the
 * embedded one, which it starts itself — also when MONGO_URL is set.
 */
describe.each(CATALOG_PLATFORMS)('catalog when the database dies under a stream of orders on %s', (platform) => {
  let server: EmbeddedMongoServer;
  let app: INestApplication;
  let url: string;
  let productId: string;
  const http = () => request(url);

  beforeAll(async () => {
    ({ server, app, url, productId } = await startCatalogOnOwnServer(platform, {
      dbName: 'faults',
      clock: () => NOW,
      mongoose: { serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS },
    }));
  });
  afterAll(async () => {
    await app?.close();
    await server?.stop();
  });

  it('should answer 503 fast during the outage, recover on its own, and neither lose nor repeat an answered order number', async () => {
    // Jest's sandbox has its own `process`, which never hears of an unhandled rejection:
    // the spy goes on Node's real one (the global of the main context).
    const realProcess = runInThisContext('process') as NodeJS.Process;
    const unhandled = jest.fn();
    realProcess.on('unhandledRejection', unhandled);
    try {
      const outcomes: Outcome[] = [];
      /** Emits 'outcome' after each answer: what the waits below wake up on. */
      const answers = new EventEmitter();
      let stop = false;
      const stream = Array.from({ length: LOOPS }, async (_, loop) => {
        while (!stop) {
          const started = performance.now();
          const res = await http()
            .post('/orders')
            .send({ items: [{ productId, quantity: 1 }] })
            .timeout(HANG_MS)
            .then(
              (r) => ({ status: r.status, body: r.body as unknown }),
              (error: Error) => ({ status: 0, body: error.message }), // a hang (timeout) or a dropped connection
            );
          const match =
            res.status === 201 ? ORDER_NUMBER.exec(String((res.body as { number?: unknown }).number)) : null;
          outcomes.push({
            loop,
            started,
            ended: performance.now(),
            ...res,
            number: match ? Number(match[1]) : undefined,
          });
          answers.emit('outcome');
        }
      });
      const created = () => outcomes.filter((o) => o.status === 201).length;
      /** Resolves once `done()` holds, checked after each answer. */
      const waitFor = (what: string, done: () => boolean, ms: number) =>
        new Promise<void>((resolve, reject) => {
          const finish = (error?: Error) => {
            clearTimeout(timer);
            answers.off('outcome', check);
            if (error) reject(error);
            else resolve();
          };
          const check = () => {
            if (done()) finish();
          };
          const timer = setTimeout(() => finish(new Error(`${what}: not within ${ms} ms`)), ms);
          answers.on('outcome', check);
          check();
        });

      await waitFor('20 orders before the outage', () => created() >= 20, 10_000);
      const cut = performance.now();
      await server.close(); // keeps the data; listen() later serves it again on the same port
      // Down until every loop was refused an order it sent after the cut (what the checks below need).
      const refusedAfterCut = (loop: number) =>
        outcomes.some((o) => o.loop === loop && o.started >= cut && o.status === 503);
      await waitFor(
        'a 503 for an order sent during the outage, on every loop',
        () => Array.from({ length: LOOPS }, (_, loop) => loop).every(refusedAfterCut),
        OUTAGE_MS,
      );
      const back = performance.now();
      await server.listen();
      const recovered = () => outcomes.some((o) => o.status === 201 && o.started >= back);
      await waitFor('the first order after the outage', recovered, RECOVERY_MS);
      const recoveredAfter =
        Math.min(...outcomes.filter((o) => o.status === 201 && o.started >= back).map((o) => o.ended)) - back;
      const answeredBeforeRecovery = created();
      await waitFor('20 more orders', () => created() >= answeredBeforeRecovery + 20, 10_000);
      stop = true;
      await Promise.all(stream);

      // Every answer is a 201 or exactly the 503 body: no 500 (not even for a raw EPIPE socket
      // error the driver lets through for a request in flight at the cut), no other status, no hang.
      const refused = outcomes.filter((o) => o.status !== 201);
      expect(refused.map((o) => [o.status, o.body])).toEqual(refused.map(() => [503, UNAVAILABLE]));

      const before = outcomes.filter((o) => o.ended < cut);
      const inFlight = outcomes.filter((o) => o.started < cut && o.ended >= cut);
      const later = outcomes.filter((o) => o.started >= cut);
      // Sent while the database was gone: each one is the 503, unless the database came back before
      // its server selection gave up (then it may succeed, as a client would wish).
      const duringOutage = later.filter((o) => o.started < back);
      expect(before.every((o) => o.status === 201)).toBe(true);
      expect(duringOutage.length).toBeGreaterThanOrEqual(LOOPS);
      expect(duringOutage.filter((o) => o.status !== 503 && o.ended < back)).toEqual([]);
      expect(duringOutage.filter((o) => o.status === 503).length).toBeGreaterThanOrEqual(LOOPS);
      // Nothing waits longer than one server selection, in flight at the cut or not: fail fast, no hang.
      const slow = outcomes.filter((o) => o.ended - o.started >= FAIL_FAST_MS);
      expect(slow.map((o) => [o.status, Math.round(o.ended - o.started)])).toEqual([]);
      expect(recoveredAfter).toBeLessThan(RECOVERY_MS);

      // What the database holds afterwards.
      const connection = app.get<Connection>(getConnectionToken());
      const stored = (await connection.db!.collection('orders').find().toArray()).map((o) =>
        Number(ORDER_NUMBER.exec(String(o.number))?.[1]),
      );
      const counter = await connection.db!.collection('counters').findOne({ _id: 'orders:2026' as never });
      const taken = Number(counter?.seq);
      const answered = outcomes.filter((o) => o.status === 201).map((o) => o.number!);

      expect(new Set(stored).size).toBe(stored.length); // distinct
      expect(new Set(answered).size).toBe(answered.length); // no number answered twice
      const storedSet = new Set(stored);
      expect(answered.filter((n) => !storedSet.has(n))).toEqual([]); // every 201's order is stored
      // No number beyond the counter, every number below it either stored or a gap.
      expect(Math.max(...stored)).toBeLessThanOrEqual(taken);
      const gaps = Array.from({ length: taken }, (_, i) => i + 1).filter((n) => !storedSet.has(n));
      // A gap is a number taken by a request cut off between the counter and the insert: at most
      // one per request in flight at the cut and refused (later ones fail at their first query).
      expect(gaps.length).toBeLessThanOrEqual(inFlight.filter((o) => o.status !== 201).length);
      // Numbering continues after the outage: every number answered to a request sent after the cut
      // is above every number taken before it, gaps included — no repeat, and no gap after the outage.
      const numbers = (list: Outcome[]) => list.filter((o) => o.status === 201).map((o) => o.number!);
      const firstAfter = Math.min(...numbers(later));
      expect(firstAfter).toBeGreaterThan(Math.max(...numbers(outcomes.filter((o) => o.started < cut))));
      expect(gaps.filter((n) => n > firstAfter)).toEqual([]);
      // A gap was taken after every order that had been answered before the first request cut off was sent.
      const lastSafe = Math.max(
        ...numbers(before.filter((o) => o.ended < Math.min(...inFlight.map((i) => i.started)))),
      );
      expect(gaps.filter((n) => n <= lastSafe)).toEqual([]);
      // Stored orders that were answered with 503 (the insert reached the server, its reply did not).
      const orphans = stored.filter((n) => !answered.includes(n));

      console.info(
        `${platform}: ${outcomes.length} orders sent, ${answered.length} × 201, ` +
          `${outcomes.length - answered.length} × 503; ` +
          `${duringOutage.length} sent during the outage, ${inFlight.length} in flight at the cut; ` +
          `recovered ${Math.round(recoveredAfter)} ms after the restart; counter ${taken}, ` +
          `${gaps.length} gap(s) [${gaps.join(', ')}], ${orphans.length} stored order(s) answered with 503 [${orphans.join(', ')}]`,
      );

      // The app is still serving (it never exited), and nothing was left unhandled.
      await http()
        .get('/health')
        .expect(200, { status: 'ok', dependencies: { database: 'up' } });
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      realProcess.off('unhandledRejection', unhandled);
    }
  }, 40_000);
});
