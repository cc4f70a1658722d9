import { MongoClient, type Document } from 'mongodb';
import { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import type { OrderNumbering } from '../../sample-app/catalog-options.interface.js';
import { startCatalogProcess, type CatalogProcess } from './catalog-process.js';

/**
 * Recovery, proven: four catalog processes share one database and one order
 * counter while the database goes through the outages a real deployment
 * sees, cycle after cycle. After each outage every process must serve orders
 * again within RECOVERY_MS, and at the end no order number may be repeated —
 * nor, with gap-free numbering, missing.
 *
 * `npm test` runs RECOVERY_CYCLES=1 (each outage once); `npm run test:recovery`
 * runs 10 cycles for both numbering modes. The database is always an embedded
 * server the test owns (it must be able to kill it), also when MONGO_URL is set,
 * so the `failCommand` fail point its outages use is always there: no
 * `supportsFailPoints()` probe, and no skip.
 */
const CYCLES = Number(process.env.RECOVERY_CYCLES ?? 1);
const MODES = (process.env.RECOVERY_MODES ?? 'gap-free').split(',') as OrderNumbering[];
const INSTANCES = 4;
/** Clients per process, each sending its next order as soon as the previous one is answered. */
const LOOPS = 2;
/** From the database being whole again to a 201 from every process. */
const RECOVERY_MS = 10_000;
/** Client-side limit of one request; beyond it the request counts as hung (status 0). */
const HANG_MS = 20_000;
const ORDER_NUMBER = /^ORD-\d{4}-(\d{6})$/;
const UNAVAILABLE = { statusCode: 503, message: 'database unavailable, try again', error: 'Service Unavailable' };
/**
 * A gap-free order that found the counter busy for ORDER_TRANSACTION_BUDGET_MS
 * (sample-app/orders/orders.service.ts). Written out rather than imported: the
 * import would load the app's modules into this test's process, seconds of CPU.
 */
const BUSY = { statusCode: 503, message: 'too many orders at once, try again', error: 'Service Unavailable' };

/**
 * Whether `outcome` is the 503 with exactly `body`'s fields. Not toEqual: the
 * bodies come from fetch, whose objects belong to another realm than Jest's.
 */
function isAnswer(outcome: Outcome, body: Record<string, unknown>): boolean {
  const got = outcome.body as Record<string, unknown> | null;
  if (outcome.status !== 503 || got === null || typeof got !== 'object') return false;
  const keys = Object.keys(body);
  return Object.keys(got).length === keys.length && keys.every((key) => got[key] === body[key]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many of `items` have each key. */
function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

interface Outcome {
  instance: number;
  started: number;
  ended: number;
  status: number;
  body: unknown;
  number?: number;
}

/** One kind of outage: does its damage and resolves when the database is whole again. */
type Outage = (server: EmbeddedMongoServer, admin: (command: Document) => Promise<unknown>) => Promise<void>;

const OUTAGES: Record<string, Outage> = {
  /** Every counter update held for 3 s at the server (a stalled primary), then released. */
  'blocked connections': async (_server, admin) => {
    await admin(failPoint(['findAndModify'], 3000));
    await sleep(3500);
    await admin({ configureFailPoint: 'failCommand', mode: 'off' });
  },
  /** Counter updates held, then the server dies with their replies still pending, and comes back on its port. */
  'close with replies pending': async (server, admin) => {
    await admin(failPoint(['findAndModify'], 10_000));
    await sleep(800);
    await server.close();
    await sleep(1500);
    await server.listen();
  },
  /** Every connection dropped at once, the server back at once. */
  'restart on the same port': async (server) => {
    await server.restart();
  },
  /** Every reply 300 ms late for 2 s. */
  'slow replies': async (_server, admin) => {
    await admin(failPoint(['find', 'findAndModify', 'insert', 'commitTransaction', 'abortTransaction'], 300));
    await sleep(2000);
    await admin({ configureFailPoint: 'failCommand', mode: 'off' });
  },
};

function failPoint(commands: string[], blockTimeMS: number): Document {
  return {
    configureFailPoint: 'failCommand',
    mode: 'alwaysOn',
    data: { failCommands: commands, blockConnection: true, blockTimeMS },
  };
}

describe.each(MODES)('four catalog processes through repeated database outages (%s order numbers)', (mode) => {
  let server: EmbeddedMongoServer;
  let apps: CatalogProcess[] = [];
  const mongoUrl = () => `mongodb://${server.host}:${server.port}/recovery?directConnection=true`;

  /** Each command on a client of its own: the test's own connections must not outlive an outage. */
  async function admin(command: Document): Promise<Document> {
    const client = new MongoClient(mongoUrl(), { serverSelectionTimeoutMS: 5000 });
    try {
      return await client.db('admin').command(command);
    } finally {
      await client.close();
    }
  }

  beforeAll(async () => {
    server = await EmbeddedMongoServer.start();
    apps = await Promise.all(
      Array.from({ length: INSTANCES }, () => startCatalogProcess({ MONGO_URL: mongoUrl(), ORDER_NUMBERS: mode })),
    );
  }, 120_000);
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await server?.stop();
  });

  it(
    `should serve again after every outage, ${CYCLES} cycle(s), and never repeat${mode === 'gap-free' ? ' or skip' : ''} an order number`,
    async () => {
      const post = async (instance: number, path: string, body: unknown) => {
        const res = await fetch(apps[instance].url + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(HANG_MS),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const category = await post(0, '/categories', { name: 'Kitchen' });
      const product = await post(0, '/products', { name: 'Pan', price: 20, categoryId: category.body.id });
      expect(product.status).toBe(201);

      const outcomes: Outcome[] = [];
      let stop = false;
      const loops = apps.flatMap((_, instance) =>
        Array.from({ length: LOOPS }, async () => {
          while (!stop) {
            const started = performance.now();
            const res = await post(instance, '/orders', { items: [{ productId: product.body.id, quantity: 1 }] }).catch(
              (error: Error) => ({ status: 0, body: error.message as unknown }), // hung, or the connection dropped
            );
            const match =
              res.status === 201 ? ORDER_NUMBER.exec(String((res.body as { number?: unknown }).number)) : null;
            outcomes.push({
              instance,
              started,
              ended: performance.now(),
              ...res,
              number: match ? Number(match[1]) : undefined,
            });
            if (res.status !== 201) await sleep(50); // a client backs off a little after an error
          }
        }),
      );

      /** Waits until every instance answered a 201 to an order sent after `since`; returns each one's delay. */
      const everyInstanceServes = async (since: number, what: string) => {
        const until = since + RECOVERY_MS;
        const firstServed = () =>
          apps.map((_, instance) => {
            const served = outcomes.filter((o) => o.instance === instance && o.status === 201 && o.started >= since);
            return served.length ? Math.min(...served.map((o) => o.ended)) - since : undefined;
          });
        while (firstServed().some((ms) => ms === undefined)) {
          if (performance.now() > until) {
            const stuck = firstServed().flatMap((ms, instance) => (ms === undefined ? [instance] : []));
            const last = stuck.map((i) => outcomes.filter((o) => o.instance === i).at(-1));
            throw new Error(
              `after "${what}", instance(s) ${stuck.join(', ')} did not serve within ${RECOVERY_MS} ms; ` +
                `last answers ${JSON.stringify(last)}\n${stuck.map((i) => apps[i].output().slice(-3000)).join('\n')}`,
            );
          }
          await sleep(20);
        }
        return firstServed() as number[];
      };

      const recoveries: string[] = [];
      const timeline: { what: string; at: number }[] = [];
      try {
        await everyInstanceServes(performance.now(), 'start');
        for (let cycle = 1; cycle <= CYCLES; cycle++) {
          for (const [what, outage] of Object.entries(OUTAGES)) {
            timeline.push({ what: `${what} #${cycle}`, at: performance.now() });
            await outage(server, admin);
            timeline.push({ what: `after ${what} #${cycle}`, at: performance.now() });
            const delays = await everyInstanceServes(performance.now(), `${what}, cycle ${cycle}`);
            recoveries.push(`${what} #${cycle}: ${Math.round(Math.max(...delays))} ms`);
          }
        }
      } finally {
        stop = true;
        await Promise.all(loops);
      }

      // Every answer is a 201 or one of the app's 503s: no 500, no other status, no request left hanging.
      const refused = outcomes.filter((o) => o.status !== 201);
      const busy = refused.filter((o) => isAnswer(o, BUSY));
      const unexpected = refused.filter((o) => !isAnswer(o, UNAVAILABLE) && !isAnswer(o, BUSY));
      // When each one was sent, against which outage: what a failure needs to be understood.
      const during = (o: Outcome) => timeline.filter((event) => event.at <= o.started).at(-1)?.what ?? 'start';
      if (unexpected.length > 0) {
        console.error(
          unexpected
            .map(
              (o) =>
                `instance ${o.instance}, sent during/after "${during(o)}", ${Math.round(o.ended - o.started)} ms: ${o.status} ${JSON.stringify(o.body)}`,
            )
            .join('\n'),
        );
      }
      expect(unexpected.map((o) => [o.status, o.body])).toEqual([]);

      const client = new MongoClient(mongoUrl());
      try {
        const db = client.db();
        const stored = (await db.collection('orders').find().toArray()).map((o) =>
          Number(ORDER_NUMBER.exec(String(o.number))?.[1]),
        );
        const counters = await db.collection('counters').find().toArray();
        const taken = counters.reduce((sum, counter) => sum + Number(counter.seq), 0);
        const answered = outcomes.flatMap((o) => (o.number === undefined ? [] : [o.number]));
        const storedSet = new Set(stored);
        const gaps = Array.from({ length: taken }, (_, i) => i + 1).filter((n) => !storedSet.has(n));

        expect(new Set(stored).size).toBe(stored.length); // no number stored twice
        expect(new Set(answered).size).toBe(answered.length); // no number answered twice
        expect(answered.filter((n) => !storedSet.has(n))).toEqual([]); // every 201's order is stored
        expect(Math.max(...stored)).toBeLessThanOrEqual(taken);
        if (mode === 'gap-free') expect(gaps).toEqual([]);
        console.info(
          `${mode}: ${outcomes.length} orders sent to ${INSTANCES} processes, ${answered.length} × 201, ` +
            `${refused.length} × 503 (${busy.length} busy) sent during/after ${JSON.stringify(countBy(refused, during))}; ` +
            `counter ${taken}, ${gaps.length} gap(s); ` +
            `every process serving again after: ${recoveries.join('; ')}`,
        );
      } finally {
        await client.close();
      }
    },
    120_000 + CYCLES * 60_000,
  );
});
