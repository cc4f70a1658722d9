/**
 * The seeded catalog a route fuzz spec runs against, with the request helper
 * and the assertions every fuzzed answer must pass, and the run settings all
 * the route fuzz specs share.
 */
import { STATUS_CODES } from 'node:http';
import { Types } from 'mongoose';
import type { Response } from 'supertest';
import { FUZZ } from '../../../src/core/object-id-arbitraries.fixture.js';
import type { CatalogPlatform } from '../../../sample-app/catalog-options.interface.js';
import { ERROR_MESSAGE_LIMITS } from '../../../sample-app/common/filters/bounded-error-message.js';
import { startCatalog, type CatalogTestApp } from '../catalog-test-app.js';
import { sentBody } from './request-text.js';

/**
 * An HTTP round trip costs about a thousand pipe calls: HTTP properties run half
 * of FUZZ_RUNS, capped so that `npm run fuzz` (FUZZ_RUNS=20000) stays within a
 * few minutes on 2 cores. Without FUZZ_RUNS (`npm test`) they run 50 times, a
 * third of what half the pipe fuzzers' 300 would give: the route fuzz specs
 * were a fifth of the suite's CPU time, and `npm run fuzz` is the deep run.
 */
export const HTTP_RUNS = process.env.FUZZ_RUNS ? Math.max(1, Math.min(Math.round(FUZZ.numRuns / 2), 1500)) : 50;
export const RUNS = { seed: FUZZ.seed, numRuns: HTTP_RUNS };
/** Hostile inputs (#15) cost up to 100 KB a request: a third of the runs (17 by default, 500 in `npm run fuzz`). */
export const HOSTILE_RUNS = { seed: FUZZ.seed, numRuns: Math.max(1, Math.round(HTTP_RUNS / 3)) };
/** A request answering later than this counts as a hang. */
const HANG_MS = 5000;
/**
 * Most CPU one request may cost the test process, which runs the app, the
 * embedded server and the client (garbage collection included). In
 * `npm run fuzz` on 2 cores the costliest request took about 100 ms, a
 * hostile 100 KB body about 65 ms (#15): a generous bound, not a benchmark.
 */
export const CPU_BOUND_MS = 250;
/** Jest timeout of one property: generous per run, at least the default. */
export const PROPERTY_TIMEOUT_MS = 30_000 + HTTP_RUNS * 60;

/** Fixed "now": order numbers are ORD-2026-…, whatever the machine's date. */
const NOW = new Date('2026-12-02T12:00:00Z');
const ORDER_COUNTER = 'orders:2026';
const WRITES = ['insert', 'update', 'delete', 'findAndModify'];

export type Method = 'get' | 'post' | 'patch' | 'delete';

export interface Exchange {
  res: Response;
  /** Commands the app sent for this request alone. */
  names: string[];
  /** CPU time (user + system) the process spent from sending the request to reading the answer. */
  cpuMs: number;
}

/** Response fields that hold ids (or, for `message`, may echo one); `items` holds objects that do. */
const ID_FIELDS = /^(id|ids|hex|nextCursor|message|items)$|Ids?$/;

/** A catalog seeded with a category, products and an order, and what the test knows about it. */
export class FuzzCatalog {
  /** Lowercase ids the test created (seeded, or answered with 201 to a fuzzed body). */
  readonly known = new Set<string>();
  readonly createdProducts = new Set<string>();
  /** Makes names unique where a 409 (slug taken) would hide the answer under test. */
  unique = 0;
  /** The request that cost the most CPU so far (`npm run fuzz` prints it). */
  costliest = { cpuMs: 0, request: '' };

  private constructor(
    readonly catalog: CatalogTestApp,
    readonly categoryId: string,
    /** Seeded products that no property changes: GET/by-slug oracles rely on them. */
    readonly stable: { id: string; slug: string }[],
    /** The product PATCH properties may change. */
    readonly patchTarget: string,
    readonly orderId: string,
  ) {
    for (const id of [categoryId, ...stable.map((p) => p.id), patchTarget, orderId]) this.known.add(id);
    for (const id of [...stable.map((p) => p.id), patchTarget]) this.createdProducts.add(id);
  }

  /** Starts the catalog at a fixed "now" on `platform` and seeds it (closing it again if seeding fails). */
  static async start(platform: CatalogPlatform): Promise<FuzzCatalog> {
    const catalog = await startCatalog(platform, { clock: () => NOW });
    try {
      const http = catalog.http;
      const categoryId = (await http().post('/categories').send({ name: 'Kitchen' }).expect(201)).body.id;
      const stable: { id: string; slug: string }[] = [];
      for (const name of ['Pan', 'Espresso Cup', 'Crème Brûlée Set']) {
        const product = (await http().post('/products').send({ name, price: 12.5, categoryId }).expect(201)).body;
        stable.push({ id: product.id, slug: product.slug });
      }
      const patchTarget = (await http().post('/products').send({ name: 'Patched', price: 1, categoryId }).expect(201))
        .body.id;
      const orderId = (
        await http()
          .post('/orders')
          .send({ items: [{ productId: stable[0]!.id, quantity: 2 }] })
          .expect(201)
      ).body.id;
      return new FuzzCatalog(catalog, categoryId, stable, patchTarget, orderId);
    } catch (error) {
      await catalog.close();
      throw error;
    }
  }

  close(): Promise<void> {
    if (process.env.FUZZ_RUNS) {
      console.info(`costliest request: ${this.costliest.cpuMs.toFixed(1)} ms CPU, ${this.costliest.request}`);
    }
    return this.catalog.close();
  }

  /** The order counter's current value (0 before the first order). */
  async counter(): Promise<number> {
    const doc = await this.catalog.connection.db!.collection('counters').findOne({ _id: ORDER_COUNTER as never });
    return Number((doc as { seq?: number } | null)?.seq ?? 0);
  }

  /**
   * One request on a cleared command log, timed in CPU (requests are
   * sequential, so that time is this request's); a timeout (hang) throws and
   * fails the property. A GET over CPU_BOUND_MS is sent once more and the
   * cheaper of the two counts: the process's CPU time includes a major
   * garbage collection that happens to fall in the request (the bundled
   * specs share one heap; one GET answered 404 measured 280 ms), while an
   * input that is costly to answer is costly both times. Other methods
   * change data and are measured once.
   */
  async exchange(method: Method, url: string, body?: string, contentType = 'application/json'): Promise<Exchange> {
    let { res, names, cpuMs } = await this.timedRequest(method, url, body, contentType);
    if (method === 'get' && cpuMs > CPU_BOUND_MS) {
      const again = await this.timedRequest(method, url, body, contentType);
      if (again.cpuMs < cpuMs) ({ res, names, cpuMs } = again);
    }
    if (cpuMs > this.costliest.cpuMs) {
      const size = body === undefined ? '' : ` (${body.length} characters of ${contentType})`;
      this.costliest = { cpuMs, request: `${method.toUpperCase()} ${url.slice(0, 100)}${size} → ${res.status}` };
    }
    return { res, names, cpuMs };
  }

  /** One request on a cleared command log, with the CPU time the process spent on it. */
  private async timedRequest(method: Method, url: string, body: string | undefined, contentType: string) {
    this.catalog.commands.clear();
    let req = this.catalog.http()[method](url).timeout(HANG_MS);
    if (body !== undefined) req = req.set('content-type', contentType).send(body);
    const before = process.cpuUsage();
    const res = await req;
    const used = process.cpuUsage(before);
    return { res, names: this.catalog.commands.names(), cpuMs: (used.user + used.system) / 1000 };
  }

  /**
   * What holds for every answer: no 5xx; at most CPU_BOUND_MS of CPU; an
   * error in the app's shape, its message bounded whatever was sent; a 400
   * came before the database was asked anything (but for the reads of a
   * rename, see below); no id in the body is one the test neither created
   * nor sent.
   */
  expectSane({ res, names, cpuMs }: Exchange, sent: string): void {
    expect([res.status, res.status < 500 ? 'ok' : res.text]).toEqual([res.status, 'ok']);
    expect([res.status, cpuMs <= CPU_BOUND_MS ? 'ok' : `${cpuMs} ms CPU`]).toEqual([res.status, 'ok']);
    if (res.status >= 400) expectErrorShape(res);
    // A PATCH whose name derives no slug (寿司, ｛) is refused only when the name changes: an
    // unchanged one keeps the document's slug. Knowing which takes a read of the current name
    // (after those of the ids it references), so that 400 follows reads, and never a write.
    const renameRefused = res.status === 400 && String(res.body?.message).startsWith('cannot derive a slug from name ');
    if (res.status === 400 || res.status === 414) {
      expect(renameRefused ? names.filter((name) => name !== 'find') : names).toEqual([]);
    }
    if (res.status === 201) this.known.add(String(res.body.id));
    expect(this.foreignIds(res.body, sent)).toEqual([]);
  }

  /**
   * Every id in the body (in id fields, and 24-hex runs in messages, any case)
   * that is neither one the test created nor part of what it sent. Names and
   * slugs are text the client chose (or derived from it), not ids.
   */
  foreignIds(body: unknown, sent: string): string[] {
    const haystack = sent.toLowerCase();
    const foreign: string[] = [];
    const visit = (value: unknown): void => {
      if (typeof value === 'string') {
        // An echoed `\u200b` is the pipe's escape of a character, not the start of an id.
        const unescaped = value.replace(/\\u[0-9a-f]{4}/gi, ' ');
        for (const [match] of unescaped.matchAll(/(?<![0-9a-f])[0-9a-f]{24}(?![0-9a-f])/gi)) {
          const hex = match.toLowerCase();
          if (!this.known.has(hex) && !haystack.includes(hex)) foreign.push(hex);
        }
      } else if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === 'object') {
        for (const [key, item] of Object.entries(value)) if (ID_FIELDS.test(key)) visit(item);
      }
    };
    visit(body);
    return foreign;
  }

  /** The stored document behind a 2xx: exactly the schema's fields, nothing taken over from the body. */
  async expectStoredClean(collection: string, id: string): Promise<void> {
    const doc = await this.catalog.connection.db!.collection(collection).findOne({ _id: new Types.ObjectId(id) });
    const fields: Record<string, string[]> = {
      categories: ['_id', 'name', 'slug', 'slugs'],
      products: ['_id', 'categoryId', 'name', 'price', 'relatedIds', 'slug', 'slugs'],
      orders: ['_id', 'items', 'number', 'total'],
    };
    expect(Object.keys(doc ?? {}).sort()).toEqual(fields[collection]);
  }

  /** Sends a body and checks what holds for every answer, the order counter included. */
  async sendBody(
    method: Method,
    path: string,
    body: string,
    statuses: number[],
    contentType = 'application/json',
  ): Promise<Exchange> {
    const before = await this.counter();
    const ex = await this.exchange(method, path, body, contentType);
    const after = await this.counter();
    this.expectSane(ex, sentBody(body));
    expect(statuses).toContain(ex.res.status);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    if (ex.res.status === 400 || ex.res.status === 422) {
      expect(ex.names.filter((name) => WRITES.includes(name))).toEqual([]);
    }
    const isOrder = path === '/orders';
    if (isOrder && ex.res.status === 201) {
      expect([after, ex.res.body.number]).toEqual([before + 1, `ORD-2026-${String(before + 1).padStart(6, '0')}`]);
    } else {
      expect(after).toBe(before); // no number taken by a refused order (or by anything else)
    }
    if (ex.res.status === 200 || ex.res.status === 201) {
      const collection = isOrder ? 'orders' : path === '/categories' ? 'categories' : 'products';
      await this.expectStoredClean(collection, ex.res.body.id);
      if (collection === 'products') this.createdProducts.add(ex.res.body.id);
    }
    return ex;
  }
}

/**
 * An error answer in the app's shape, exactly `{ statusCode, message, error }`
 * whichever layer answered (Nest, the router, Node's HTTP parser), its message
 * one string or a list of strings within ERROR_MESSAGE_LIMITS.
 */
export function expectErrorShape(res: Response): void {
  const { statusCode, error, message, ...rest } = (res.body ?? {}) as Record<string, unknown>;
  expect({ statusCode, error, rest }).toEqual({ statusCode: res.status, error: STATUS_CODES[res.status], rest: {} });
  const { maxMessages, maxLength } = ERROR_MESSAGE_LIMITS;
  const messages: unknown[] = Array.isArray(message) ? message : [message];
  const problems = [
    messages.length === 0 || messages.length > maxMessages + 1 ? `${messages.length} messages` : '',
    ...messages.map((m) =>
      typeof m !== 'string'
        ? `a ${typeof m} message`
        : m.length > maxLength
          ? `a message of ${m.length} characters`
          : '',
    ),
  ].filter(Boolean);
  expect([res.status, problems]).toEqual([res.status, []]);
}
