import 'reflect-metadata';
import fc from 'fast-check';
import { Types } from 'mongoose';
import type { Response } from 'supertest';
import {
  anyInput,
  FUZZ,
  HEX24,
  injectionPayload,
  nearMissHex,
  validHex,
} from '../../src/core/object-id-arbitraries.fixture.js';
import { FASTIFY_MAX_PARAM_LENGTH } from '../../sample-app/create-catalog-app.js';
import { slugify } from '../../sample-app/common/slugify.js';
import { CATALOG_PLATFORMS, HEX_ID, startCatalog, UNKNOWN_ID, type CatalogTestApp } from './catalog-test-app.js';

/**
 * An HTTP round trip costs about a thousand pipe calls: HTTP properties run half
 * of FUZZ.numRuns (150 with the default 300), capped so that `npm run fuzz`
 * (FUZZ_RUNS=20000) stays within a few minutes on 2 cores.
 */
const HTTP_RUNS = Math.max(1, Math.min(Math.round(FUZZ.numRuns / 2), 1500));
const RUNS = { seed: FUZZ.seed, numRuns: HTTP_RUNS };
/** A request answering later than this counts as a hang. */
const HANG_MS = 5000;
/** Jest timeout of one property: generous per run, at least the default. */
const PROPERTY_TIMEOUT_MS = 30_000 + HTTP_RUNS * 60;

/** Fixed "now": order numbers are ORD-2026-…, whatever the machine's date. */
const NOW = new Date('2026-12-02T12:00:00Z');
const ORDER_COUNTER = 'orders:2026';
const WRITES = ['insert', 'update', 'delete', 'findAndModify'];

type Method = 'get' | 'post' | 'patch' | 'delete';

/** Whether every surrogate is paired: only then does a string have a UTF-8 form a server can decode. */
const isWellFormed = (value: string) =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);

/**
 * Percent-encodes everything but `A-Za-z0-9_~-`, so `.`, `..`, `/`, `?`, `#`
 * and `%` arrive as data. A lone surrogate becomes its WTF-8 bytes, which no
 * server can decode (both platforms must answer 400).
 */
function encode(value: string): string {
  let out = '';
  for (const char of value) {
    if (/^[A-Za-z0-9_~-]$/.test(char)) {
      out += char;
      continue;
    }
    const code = char.codePointAt(0)!;
    const bytes =
      code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        : [...Buffer.from(char, 'utf8')];
    out += bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** JSON text of any fuzzed value (`undefined` → `null`, as JSON has no undefined). */
const json = (value: unknown) => JSON.stringify(value) ?? 'null';

/** An object's JSON text from raw entries: keeps `__proto__` and duplicate keys exactly as generated. */
const objectJson = (entries: [string, string][]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/**
 * What a body sent, as text to look ids up in: the JSON, and the slug the app
 * derives from each string in it (a 409 names that slug; NFKC and dropped
 * letters can turn `０…` or `a中b…` into 24 hex characters).
 */
function sentBody(body: string): string {
  const strings: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  try {
    collect(JSON.parse(body));
  } catch {
    // not JSON: nothing is derived from it
  }
  return [body, ...strings.map(slugify)].join(' ');
}

/** A fuzzed value as text for a path segment or a query value. */
const asText = (value: unknown) => (typeof value === 'string' ? value : json(value));

/** Response fields that hold ids (or, for `message`, may echo one); `items` holds objects that do. */
const ID_FIELDS = /^(id|ids|hex|nextCursor|message|items)$|Ids?$/;

/** Keys that must never be accepted in a body: operators, dotted paths, server-owned fields. */
const FORBIDDEN_KEYS = [
  '$where',
  '$set',
  '$gt',
  '$inc',
  'a.b',
  'price.$gt',
  'items.$',
  '_id',
  '__v',
  'id',
  'number',
  'total',
  'createdAt',
  'polluted',
];
/**
 * Keys naming a prototype or an inherited method: Fastify's parser refuses
 * `__proto__` (and `constructor.prototype`) with 400; otherwise Nest's
 * ValidationPipe and class-transformer drop them silently instead of refusing
 * them like other unknown keys (see the report).
 */
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

describe.each(CATALOG_PLATFORMS)('fuzz: catalog routes on %s (seeded)', (platform) => {
  /** The refusal a segment gets: 400 from the pipe, or Fastify's own 414 past the app's maxParamLength. */
  const refusal = (raw: string) => (platform === 'fastify' && raw.length > FASTIFY_MAX_PARAM_LENGTH ? 414 : 400);
  let catalog: CatalogTestApp;
  let categoryId: string;
  /** Seeded products that no property changes: GET/by-slug oracles rely on them. */
  let stable: { id: string; slug: string }[];
  /** The product PATCH properties may change. */
  let patchTarget: string;
  let orderId: string;
  /** Lowercase ids the test created (seeded, or answered with 201 to a fuzzed body). */
  const known = new Set<string>();
  const createdProducts = new Set<string>();
  /** Makes names unique where a 409 (slug taken) would hide the answer under test. */
  let unique = 0;

  const counter = async (): Promise<number> => {
    const doc = await catalog.connection.db!.collection('counters').findOne({ _id: ORDER_COUNTER as never });
    return Number((doc as { seq?: number } | null)?.seq ?? 0);
  };

  interface Exchange {
    res: Response;
    /** Commands the app sent for this request alone. */
    names: string[];
  }

  /** One request on a cleared command log; a timeout (hang) throws and fails the property. */
  async function exchange(method: Method, url: string, body?: string): Promise<Exchange> {
    catalog.commands.clear();
    let req = catalog.http()[method](url).timeout(HANG_MS);
    if (body !== undefined) req = req.set('content-type', 'application/json').send(body);
    const res = await req;
    return { res, names: catalog.commands.names() };
  }

  /**
   * What holds for every answer: no 5xx; a 400 came before the database was
   * asked anything; no id in the body is one the test neither created nor sent.
   */
  function expectSane({ res, names }: Exchange, sent: string): void {
    expect([res.status, res.status < 500 ? 'ok' : res.text]).toEqual([res.status, 'ok']);
    if (res.status === 400 || res.status === 414) {
      const error = res.status === 400 ? 'Bad Request' : 'URI Too Long';
      expect(res.body).toEqual(expect.objectContaining({ statusCode: res.status, error, message: expect.anything() }));
      expect(names).toEqual([]);
    }
    if (res.status === 201) known.add(String(res.body.id));
    expect(foreignIds(res.body, sent)).toEqual([]);
  }

  /**
   * Every id in the body (in id fields, and 24-hex runs in messages, any case)
   * that is neither one the test created nor part of what it sent. Names and
   * slugs are text the client chose (or derived from it), not ids.
   */
  function foreignIds(body: unknown, sent: string): string[] {
    const haystack = sent.toLowerCase();
    const foreign: string[] = [];
    const visit = (value: unknown): void => {
      if (typeof value === 'string') {
        // An echoed `\u200b` is the pipe's escape of a character, not the start of an id.
        const unescaped = value.replace(/\\u[0-9a-f]{4}/gi, ' ');
        for (const [match] of unescaped.matchAll(/(?<![0-9a-f])[0-9a-f]{24}(?![0-9a-f])/gi)) {
          const hex = match.toLowerCase();
          if (!known.has(hex) && !haystack.includes(hex)) foreign.push(hex);
        }
      } else if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === 'object') {
        for (const [key, item] of Object.entries(value)) if (ID_FIELDS.test(key)) visit(item);
      }
    };
    visit(body);
    return foreign;
  }

  /** What a segment was sent as: the text and its percent-encoding (which platform errors echo). */
  const sentSegment = (raw: string) => `${raw} ${encode(raw)}`;

  /** A seeded id with each letter in a random case. */
  const anyCase = (ids: () => string[]) =>
    fc
      .tuple(
        fc.nat().map((i) => ids()[i % ids().length]!),
        fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
      )
      .map(([id, upper]) => [...id].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
  const stableIdAnyCase = anyCase(() => stable.map((p) => p.id));

  /** Path segments: anything, near misses, valid ids, seeded ids in any case, unicode and raw bytes. Never empty (another route). */
  const segment = fc
    .oneof(
      { weight: 4, arbitrary: anyInput.map(asText) },
      { weight: 2, arbitrary: nearMissHex },
      { weight: 1, arbitrary: validHex },
      { weight: 2, arbitrary: stableIdAnyCase },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 30 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '.',
          '..',
          '%',
          '%zz',
          '?',
          '#',
          '/',
          ';',
          '+',
          ' ',
          'decode',
          'by-slug',
          'generate',
        ),
      },
    )
    .filter((s) => s.length > 0);

  beforeAll(async () => {
    catalog = await startCatalog(platform, { clock: () => NOW });
    const http = catalog.http;
    categoryId = (await http().post('/categories').send({ name: 'Kitchen' }).expect(201)).body.id;
    stable = [];
    for (const name of ['Pan', 'Espresso Cup', 'Crème Brûlée Set']) {
      const product = (await http().post('/products').send({ name, price: 12.5, categoryId }).expect(201)).body;
      stable.push({ id: product.id, slug: product.slug });
    }
    patchTarget = (await http().post('/products').send({ name: 'Patched', price: 1, categoryId }).expect(201)).body.id;
    orderId = (
      await http()
        .post('/orders')
        .send({ items: [{ productId: stable[0]!.id, quantity: 2 }] })
        .expect(201)
    ).body.id;
    for (const id of [categoryId, ...stable.map((p) => p.id), patchTarget, orderId]) known.add(id);
    for (const id of [...stable.map((p) => p.id), patchTarget]) createdProducts.add(id);
  });
  afterAll(() => catalog?.close());

  describe('path parameters', () => {
    /** Routes with an id parameter, and the answer a valid id gets. */
    const idRoutes: [string, Method, (id: string) => string, (lower: string) => number][] = [
      ['GET /products/:id', 'get', (s) => `/products/${s}`, (id) => (stable.some((p) => p.id === id) ? 200 : 404)],
      ['GET /orders/:id', 'get', (s) => `/orders/${s}`, (id) => (id === orderId ? 200 : 404)],
      ['GET /object-ids/:id/decode', 'get', (s) => `/object-ids/${s}/decode`, () => 200],
      // An empty body changes nothing: the seeded products stay as they are.
      [
        'PATCH /products/:id {}',
        'patch',
        (s) => `/products/${s}`,
        (id) => (stable.some((p) => p.id === id) ? 200 : 404),
      ],
    ];

    it.each(idRoutes)(
      'should answer %s with 400 exactly when the segment is not 24 hex characters, else 200/404 naming the lowercase input',
      async (_label, method, path, expectedFor) => {
        await fc.assert(
          fc.asyncProperty(segment, async (raw) => {
            const ex = await exchange(method, path(encode(raw)), method === 'patch' ? '{}' : undefined);
            expectSane(ex, sentSegment(raw));
            if (!isWellFormed(raw) || !HEX24.test(raw)) {
              expect(ex.res.status).toBe(refusal(raw));
              return;
            }
            const lower = raw.toLowerCase();
            expect(ex.res.status).toBe(expectedFor(lower));
            if (ex.res.status === 200) expect(ex.res.body.id ?? ex.res.body.hex).toBe(lower);
            if (ex.res.status === 404) expect(ex.res.body.message).toContain(lower);
          }),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'should answer DELETE /products/:id with 400 exactly when the segment is not 24 hex characters, else 404, deleting nothing',
      async () => {
        const unknownOnly = segment.filter((s) => !known.has(s.toLowerCase()));
        await fc.assert(
          fc.asyncProperty(unknownOnly, async (raw) => {
            const ex = await exchange('delete', `/products/${encode(raw)}`);
            expectSane(ex, sentSegment(raw));
            expect(ex.res.status).toBe(isWellFormed(raw) && HEX24.test(raw) ? 404 : refusal(raw));
            if (ex.res.status === 404) expect(ex.names).toEqual(['delete']);
          }),
          RUNS,
        );
        expect(await catalog.connection.db!.collection('products').countDocuments({})).toBe(createdProducts.size);
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'should answer GET /products/by-slug/:slug with 200 only for the product with that exact slug, else 404 (400 if undecodable)',
      async () => {
        const slug = fc.oneof(
          segment,
          fc.constantFrom(...stable.map((p) => p.slug)),
          fc.constantFrom(...stable.map((p) => p.slug.toUpperCase())),
        );
        await fc.assert(
          fc.asyncProperty(slug, async (raw) => {
            const ex = await exchange('get', `/products/by-slug/${encode(raw)}`);
            expectSane(ex, sentSegment(raw));
            const product = stable.find((p) => p.slug === raw);
            if (!isWellFormed(raw) || refusal(raw) === 414) expect(ex.res.status).toBe(refusal(raw));
            else if (product) expect([ex.res.status, ex.res.body.id, ex.res.body.slug]).toEqual([200, product.id, raw]);
            else expect(ex.res.status).toBe(404);
            if (ex.res.status < 400 || ex.res.status === 404) expect(ex.names).toEqual(['find']);
          }),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  describe('query strings', () => {
    const LIST_KEYS = ['limit', 'after', 'categoryId', 'ids', 'createdFrom', 'createdTo', 'createdOn', 'tz'];
    const queryKey = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...LIST_KEYS) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.constantFrom(...LIST_KEYS),
            fc.constantFrom('[$gt]', '[$ne]', '[$in][]', '[]', '[0]', '[__proto__]', '.$gt', '[$where]'),
          )
          .map(([key, suffix]) => key + suffix),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom('__proto__', 'constructor', '$where', 'hasOwnProperty', '__proto__[after]'),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
    );
    const day = fc.date({ min: new Date('1969-01-01'), max: new Date('2107-01-01'), noInvalidDate: true });
    const queryValue = fc.oneof(
      { weight: 4, arbitrary: anyInput.map(asText) },
      { weight: 2, arbitrary: fc.oneof(validHex, stableIdAnyCase, nearMissHex) },
      { weight: 1, arbitrary: fc.integer({ min: -5, max: 150 }).map(String) },
      { weight: 1, arbitrary: fc.constantFrom('1e1', '0x10', ' 5', '5.0', '', '20', '100', '101', 'NaN', 'Infinity') },
      { weight: 1, arbitrary: day.map((d) => d.toISOString()) },
      { weight: 1, arbitrary: day.map((d) => d.toISOString().slice(0, 10)) },
      { weight: 1, arbitrary: fc.constantFrom('UTC', 'Europe/Prague', 'Etc/GMT+14', 'Mars/Olympus', 'utc', '+01:00') },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.oneof(validHex, stableIdAnyCase, nearMissHex), { minLength: 1, maxLength: 4 })
          .map((a) => a.join(',')),
      },
      { weight: 1, arbitrary: injectionPayload.map(json) },
    );
    const queryString = (pairs: [string, string][]) =>
      pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`;

    it(
      'should answer GET /products with 200 or 400 for any query (repeated keys, bracket keys, operators), listing only its products',
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(fc.tuple(queryKey, queryValue), { maxLength: 6 }), async (pairs) => {
            const ex = await exchange('get', `/products${queryString(pairs)}`);
            expectSane(ex, `${pairs.flat().join('&')} ${queryString(pairs)}`);
            expect([200, 400]).toContain(ex.res.status);
            if (ex.res.status === 200) {
              expect(ex.names).toEqual(['find']);
              const { items, nextCursor } = ex.res.body as { items: { id: string }[]; nextCursor: string | null };
              expect(items.length).toBeLessThanOrEqual(100);
              for (const item of items) expect(createdProducts.has(item.id)).toBe(true);
              expect(nextCursor === null || createdProducts.has(nextCursor)).toBe(true);
            }
          }),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'should accept after, categoryId and ids exactly when they are 24 hex characters (or empty), and filter by their lowercase',
      async () => {
        const one = fc.oneof(anyInput.map(asText), validHex, stableIdAnyCase, nearMissHex, fc.constant(''));
        const list = fc.oneof(
          one,
          fc
            .array(fc.oneof(stableIdAnyCase, validHex, nearMissHex), { minLength: 1, maxLength: 4 })
            .map((a) => a.join(',')),
        );
        const category = fc.oneof(one, fc.constantFrom(categoryId, categoryId.toUpperCase()));
        const valid = (v: string | null) => v === null || v === '' || HEX24.test(v);
        await fc.assert(
          fc.asyncProperty(fc.option(one), fc.option(category), fc.option(list), async (after, category, ids) => {
            const pairs: [string, string][] = [];
            if (after !== null) pairs.push(['after', after]);
            if (category !== null) pairs.push(['categoryId', category]);
            if (ids !== null) pairs.push(['ids', ids]);
            const ex = await exchange('get', `/products${queryString(pairs)}`);
            expectSane(ex, `${pairs.flat().join('&')} ${queryString(pairs)}`);
            const idsOk = ids === null || ids === '' || ids.split(',').every((item) => HEX24.test(item));
            if (!(valid(after) && valid(category) && idsOk)) {
              expect(ex.res.status).toBe(400);
              return;
            }
            // The oracle: the seeded products (all in one category), in id order, filtered as asked.
            const wanted = ids ? new Set(ids.split(',').map((id) => id.toLowerCase())) : undefined;
            const expected = [...createdProducts]
              .sort()
              .filter((id) => !after || id > after.toLowerCase())
              .filter(() => !category || category.toLowerCase() === categoryId)
              .filter((id) => !wanted || wanted.has(id))
              .slice(0, 20);
            expect([ex.res.status, ex.res.body.items.map((item: { id: string }) => item.id)]).toEqual([200, expected]);
          }),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'should answer GET /object-ids/generate with count distinct new ids for 1..100, else 400',
      async () => {
        const count = fc.oneof(
          anyInput.map(asText),
          fc.integer({ min: -3, max: 110 }).map(String),
          fc.constantFrom('1e1', '0x10', ' 5', '5.0', '', '1.5', '-0', '100', '101', '[1]'),
        );
        await fc.assert(
          fc.asyncProperty(fc.array(count, { maxLength: 2 }), async (counts) => {
            const ex = await exchange('get', `/object-ids/generate${queryString(counts.map((c) => ['count', c]))}`);
            expect(ex.res.status).toBeLessThan(500);
            // The global ValidationPipe turns a `number` parameter into `+value` before
            // ParseIntInRangePipe sees it: '1e1' is 10, '0x10' is 16, ' 5' is 5 (see the report).
            const wanted = counts.length === 0 ? 1 : counts.length === 1 ? +counts[0]! : Number.NaN;
            if (!(Number.isSafeInteger(wanted) && wanted >= 1 && wanted <= 100)) {
              expect([ex.res.status, ex.res.body.message]).toEqual([400, 'count must be an integer from 1 to 100']);
              return;
            }
            const ids = (ex.res.body as { ids: string[] }).ids;
            expect([ex.res.status, ids.length, new Set(ids).size]).toEqual([200, wanted, wanted]);
            for (const id of ids) expect(id).toMatch(HEX_ID);
            expect(ex.names).toEqual([]);
          }),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  describe('JSON bodies', () => {
    /** What a field may hold in a fuzzed body (JSON text). */
    const fieldValue = fc.oneof(
      { weight: 4, arbitrary: anyInput.map(json) },
      { weight: 2, arbitrary: injectionPayload.map(json) },
      { weight: 1, arbitrary: stableIdAnyCase.map(json) },
      { weight: 1, arbitrary: fc.array(stableIdAnyCase, { maxLength: 3 }).map(json) },
      { weight: 1, arbitrary: fc.jsonValue().map(json) },
    );
    const extraKey = fc.oneof(fc.constantFrom(...FORBIDDEN_KEYS, ...PROTO_KEYS), fc.string({ maxLength: 8 }));

    /** A template object (values as JSON text) with keys dropped, replaced and added. */
    function mutate(template: Record<string, string>, values: fc.Arbitrary<string> = fieldValue): fc.Arbitrary<string> {
      const keys = Object.keys(template);
      return fc
        .record({
          keep: fc.subarray(keys),
          overrides: fc.array(fc.tuple(fc.constantFrom(...keys), values), { maxLength: 2 }),
          extras: fc.array(fc.tuple(extraKey, values), { maxLength: 2 }),
        })
        .map(({ keep, overrides, extras }) =>
          objectJson([...keep.map((key): [string, string] => [key, template[key]!]), ...overrides, ...extras]),
        );
    }

    /** Any JSON at all (arrays and scalars where an object is expected), random objects, or a mutated valid body. */
    const bodyFrom = (template: Record<string, string>, values?: fc.Arbitrary<string>) =>
      fc.oneof(
        { weight: 1, arbitrary: fc.jsonValue().map(json) },
        { weight: 1, arbitrary: fc.array(fc.tuple(extraKey, fieldValue), { maxLength: 4 }).map(objectJson) },
        { weight: 5, arbitrary: mutate(template, values) },
      );

    const productTemplate = () => ({
      name: json('Fuzz product'),
      price: '9.99',
      categoryId: json(categoryId),
      relatedIds: json([stable[0]!.id]),
    });
    const itemValue = () =>
      fc
        .oneof(mutate({ productId: json(stable[1]!.id), quantity: '2' }), fieldValue)
        .filter((item) => !item.startsWith('['));
    const orderBody = () =>
      bodyFrom(
        { items: json([{ productId: stable[0]!.id, quantity: 1 }]) },
        fc.oneof(
          fieldValue,
          fc.array(itemValue(), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
        ),
      );

    /** Endpoint, body generator, the statuses it may answer. */
    const endpoints: [string, Method, () => string, () => fc.Arbitrary<string>, number[]][] = [
      [
        'POST /categories',
        'post',
        () => '/categories',
        () => bodyFrom({ name: json('Fuzz category') }),
        [201, 400, 409],
      ],
      ['POST /products', 'post', () => '/products', () => bodyFrom(productTemplate()), [201, 400, 409, 422]],
      [
        'PATCH /products/:id',
        'patch',
        () => `/products/${patchTarget}`,
        () => bodyFrom({ ...productTemplate(), slug: json('patched') }),
        [200, 400, 409, 422],
      ],
      ['POST /orders', 'post', () => '/orders', orderBody, [201, 400, 422]],
    ];

    /** The stored document behind a 2xx: exactly the schema's fields, nothing taken over from the body. */
    async function expectStoredClean(collection: string, id: string): Promise<void> {
      const doc = await catalog.connection.db!.collection(collection).findOne({ _id: new Types.ObjectId(id) });
      const fields: Record<string, string[]> = {
        categories: ['_id', 'name', 'slug'],
        products: ['_id', 'categoryId', 'name', 'price', 'relatedIds', 'slug'],
        orders: ['_id', 'items', 'number', 'total'],
      };
      expect(Object.keys(doc ?? {}).sort()).toEqual(fields[collection]);
    }

    /** Sends a body and checks what holds for every answer, the order counter included. */
    async function post(method: Method, path: string, body: string, statuses: number[]): Promise<Exchange> {
      const before = await counter();
      const ex = await exchange(method, path, body);
      const after = await counter();
      expectSane(ex, sentBody(body));
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
        await expectStoredClean(collection, ex.res.body.id);
        if (collection === 'products') createdProducts.add(ex.res.body.id);
      }
      return ex;
    }

    it.each(endpoints)(
      'should answer %s with a 2xx/4xx for any body, and write nothing when refusing it',
      async (_label, method, path, body, statuses) => {
        await fc.assert(
          fc.asyncProperty(body(), async (text) => {
            await post(method, path(), text, statuses);
          }),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'should answer 400 to an operator or prototype payload in any field (or a $/dotted key), asking the database nothing',
      async () => {
        const item = (productId: string, quantity = '1'): Record<string, string> => ({
          productId: json(productId),
          quantity,
        });
        const validItems = () => [item(stable[0]!.id), item(stable[1]!.id, '3')];
        const itemsJson = (items: (Record<string, string> | string)[]) =>
          `[${items.map((i) => (typeof i === 'string' ? i : objectJson(Object.entries(i)))).join(',')}]`;
        const targets: [string, Method, () => Record<string, string>][] = [
          ['/categories', 'post', () => ({ name: json('Injected'), slug: json('injected') })],
          ['/products', 'post', () => ({ ...productTemplate(), slug: json('injected') })],
          [`/products/${patchTarget}`, 'patch', () => ({ ...productTemplate(), slug: json('injected') })],
          ['/orders', 'post', () => ({ items: itemsJson(validItems()) })],
        ];
        type Where = 'field' | 'key' | 'relatedId' | 'item' | 'itemField' | 'itemKey';
        const wheres = (path: string): Where[] =>
          path === '/orders'
            ? ['field', 'key', 'item', 'itemField', 'itemKey']
            : path === '/categories'
              ? ['field', 'key']
              : ['field', 'key', 'relatedId'];
        const injected = fc.constantFrom(...targets).chain(([path, method, template]) =>
          fc
            .record({
              where: fc.constantFrom(...wheres(path)),
              n: fc.nat(),
              payload: injectionPayload,
              key: fc.constantFrom(...FORBIDDEN_KEYS),
            })
            .map(({ where, n, payload, key }) => {
              const fields = template();
              const keys = Object.keys(fields);
              const items: (Record<string, string> | string)[] = validItems();
              const at = n % items.length;
              if (where === 'field') fields[keys[n % keys.length]!] = json(payload);
              if (where === 'key') fields[key] = json(UNKNOWN_ID);
              if (where === 'relatedId') fields.relatedIds = json([stable[0]!.id, payload]);
              if (where === 'item') items[at] = json(payload);
              if (where === 'itemField')
                (items[at] as Record<string, string>)[n % 2 ? 'productId' : 'quantity'] = json(payload);
              if (where === 'itemKey') (items[at] as Record<string, string>)[key] = json(UNKNOWN_ID);
              if (where.startsWith('item')) fields.items = itemsJson(items);
              return { path, method, body: objectJson(Object.entries(fields)) };
            }),
        );
        await fc.assert(
          fc.asyncProperty(injected, async ({ path, method, body }) => {
            const ex = await post(method, path, body, [400]);
            expect(ex.names).toEqual([]);
          }),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'should drop or refuse a prototype-named key (__proto__, constructor, toString, …), never polluting a prototype or storing it',
      async () => {
        const targets: [string, Method, () => Record<string, string>, number][] = [
          ['/categories', 'post', () => ({ name: json(`Proto category ${++unique}`) }), 201],
          ['/products', 'post', () => ({ ...productTemplate(), name: json(`Proto product ${++unique}`) }), 201],
          [`/products/${patchTarget}`, 'patch', () => ({ price: '3.5' }), 200],
          ['/orders', 'post', () => ({ items: json([{ productId: stable[2]!.id, quantity: 1 }]) }), 201],
        ];
        const protoPayload = fc.oneof(injectionPayload, fc.constant({ prototype: { polluted: true } }), anyInput);
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...targets),
            fc.constantFrom(...PROTO_KEYS),
            protoPayload,
            fc.boolean(),
            async ([path, method, template, accepted], key, payload, first) => {
              const entries = Object.entries(template());
              const proto: [string, string] = [key, json(payload)];
              const body = objectJson(first ? [proto, ...entries] : [...entries, proto]);
              const ex = await post(method, path, body, [accepted, 400]);
              // Refused: by Fastify's JSON parser (prototype poisoning) or as an unknown key, before any query.
              if (ex.res.status === 400) expect(ex.names).toEqual([]);
            },
          ),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  describe('ids in bodies', () => {
    const idValue = fc.oneof(anyInput, validHex, nearMissHex, stableIdAnyCase);

    it(
      'should take an order productId exactly when it is 24 hex characters: 201 naming its lowercase for a product, else 422 with no number used',
      async () => {
        await fc.assert(
          fc.asyncProperty(idValue, async (productId) => {
            const before = await counter();
            const ex = await exchange('post', '/orders', json({ items: [{ productId, quantity: 1 }] }));
            expectSane(ex, json(productId));
            const after = await counter();
            if (!(typeof productId === 'string' && HEX24.test(productId))) {
              expect([ex.res.status, after]).toEqual([400, before]);
              return;
            }
            const lower = productId.toLowerCase();
            if (stable.some((p) => p.id === lower)) {
              expect([ex.res.status, ex.res.body.items[0].productId, after]).toEqual([201, lower, before + 1]);
            } else {
              expect([ex.res.status, ex.names, after]).toEqual([422, ['find'], before]);
              expect(ex.res.body.message).toBe(`products do not exist: ${lower}`);
            }
          }),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'should take a product categoryId exactly when it is 24 hex characters: 201 naming its lowercase for the category, else 422 writing nothing',
      async () => {
        const categoryValue = fc.oneof(idValue, fc.constantFrom(categoryId, categoryId.toUpperCase()));
        await fc.assert(
          fc.asyncProperty(categoryValue, async (value) => {
            const body = json({ name: `Category check ${++unique}`, price: 1, categoryId: value });
            const ex = await exchange('post', '/products', body);
            expectSane(ex, json(value));
            if (!(typeof value === 'string' && HEX24.test(value))) {
              expect(ex.res.status).toBe(400);
              return;
            }
            const lower = value.toLowerCase();
            if (lower === categoryId) {
              expect([ex.res.status, ex.res.body.categoryId, ex.names]).toEqual([201, lower, ['find', 'insert']]);
              createdProducts.add(ex.res.body.id);
            } else {
              expect([ex.res.status, ex.names]).toEqual([422, ['find']]);
            }
          }),
          RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  describe('afterwards', () => {
    it('should have numbered every order without a gap or a repeat, and give the next valid order the next number', async () => {
      const numbers = (await catalog.connection.db!.collection('orders').find().toArray()).map((o) => String(o.number));
      const seq = await counter();
      const expected = Array.from({ length: seq }, (_, i) => `ORD-2026-${String(i + 1).padStart(6, '0')}`);
      expect(numbers.sort()).toEqual(expected);
      const next = await catalog
        .http()
        .post('/orders')
        .send({ items: [{ productId: stable[0]!.id, quantity: 1 }] })
        .expect(201);
      expect(next.body.number).toBe(`ORD-2026-${String(seq + 1).padStart(6, '0')}`);
    });
  });
});
