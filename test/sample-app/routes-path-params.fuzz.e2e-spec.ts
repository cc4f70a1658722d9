/**
 * Fuzzes the catalog's path parameters on both platforms (seeded, see
 * fuzz/fuzz-catalog.ts for the runs): GET, PATCH and DELETE by id, the id
 * decoder and the lookup by slug get any text, near-miss and valid ids, seeded
 * ids in any case, unicode and raw bytes, and must refuse exactly what is not
 * 24 hex characters, before asking the database anything.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { HEX24 } from '../../src/core/object-id-arbitraries.fixture.js';
import { FASTIFY_MAX_PARAM_LENGTH } from '../../sample-app/create-catalog-app.js';
import { CATALOG_PLATFORMS } from './catalog-test-app.js';
import { FuzzCatalog, HOSTILE_RUNS, PROPERTY_TIMEOUT_MS, RUNS, type Method } from './fuzz/fuzz-catalog.js';
import { hostileSegment, urlTooLong } from './fuzz/hostile-arbitraries.js';
import { encode, isWellFormed, sentSegment } from './fuzz/request-text.js';
import { anyCase, pathSegment } from './fuzz/route-arbitraries.js';

describe.each(CATALOG_PLATFORMS)('fuzz: catalog routes on %s (seeded)', (platform) => {
  /**
   * The refusal a segment gets: 400 from the pipe (or the router, for a lone
   * surrogate's bytes, which do not decode), or Fastify's 414 past the app's maxParamLength.
   */
  const refusal = (raw: string) =>
    platform === 'fastify' && isWellFormed(raw) && raw.length > FASTIFY_MAX_PARAM_LENGTH ? 414 : 400;
  let fuzz: FuzzCatalog;
  const stableIdAnyCase = anyCase(() => fuzz.stable.map((p) => p.id));
  const segment = pathSegment(stableIdAnyCase);

  beforeAll(async () => {
    fuzz = await FuzzCatalog.start(platform);
  });
  afterAll(() => fuzz?.close());

  describe('hostile path parameters (#15)', () => {
    /** Route, and whether a pipe checks its parameter (an id, an order number), else any text: a slug, 404 when unknown. */
    const routes: [Method, (s: string) => string, boolean][] = [
      ['get', (s) => `/products/${s}`, true],
      ['get', (s) => `/orders/${s}`, true],
      ['get', (s) => `/object-ids/${s}/decode`, true],
      ['patch', (s) => `/products/${s}`, true],
      ['delete', (s) => `/products/${s}`, true],
      ['get', (s) => `/products/by-slug/${s}`, false],
      ['get', (s) => `/orders/by-number/${s}`, true], // no hostile segment is ORD-YYYY-NNNNNN
      // Canonical URLs: the id segment is the pipe's, whatever the slug.
      ['get', (s) => `/products/${s}/pan`, true],
      ['get', (s) => `/categories/${s}`, true],
      ['patch', (s) => `/categories/${s}`, true],
      ['get', (s) => `/categories/${s}/kitchen/products`, true],
      ['get', (s) => `/categories/by-slug/${s}`, false],
    ];

    it(
      'should answer long, number-like and broken-text segments on every route with 400 (404 for text), 414/431 when too long, in the app shape, within the CPU bound',
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...routes), hostileSegment, async ([method, path, isId], raw) => {
            const url = path(encode(raw));
            const ex = await fuzz.exchange(method, url, method === 'patch' ? '{}' : undefined);
            fuzz.expectSane(ex, sentSegment(raw));
            const expected = urlTooLong(url)
              ? 431
              : isId || !isWellFormed(raw) || refusal(raw) === 414
                ? refusal(raw)
                : 404;
            expect([url.length, ex.res.status]).toEqual([url.length, expected]);
          }),
          HOSTILE_RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  describe('path parameters', () => {
    /** Routes with an id parameter, and the answer a valid id gets. */
    const idRoutes: [string, Method, (id: string) => string, (lower: string) => number][] = [
      ['GET /products/:id', 'get', (s) => `/products/${s}`, (id) => (fuzz.stable.some((p) => p.id === id) ? 200 : 404)],
      ['GET /orders/:id', 'get', (s) => `/orders/${s}`, (id) => (id === fuzz.orderId ? 200 : 404)],
      ['GET /object-ids/:id/decode', 'get', (s) => `/object-ids/${s}/decode`, () => 200],
      // An empty body changes nothing: the seeded products stay as they are.
      [
        'PATCH /products/:id {}',
        'patch',
        (s) => `/products/${s}`,
        (id) => (fuzz.stable.some((p) => p.id === id) ? 200 : 404),
      ],
    ];

    it.each(idRoutes)(
      'should answer %s with 400 exactly when the segment is not 24 hex characters, else 200/404 naming the lowercase input',
      async (_label, method, path, expectedFor) => {
        await fc.assert(
          fc.asyncProperty(segment, async (raw) => {
            const ex = await fuzz.exchange(method, path(encode(raw)), method === 'patch' ? '{}' : undefined);
            fuzz.expectSane(ex, sentSegment(raw));
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
        const unknownOnly = segment.filter((s) => !fuzz.known.has(s.toLowerCase()));
        await fc.assert(
          fc.asyncProperty(unknownOnly, async (raw) => {
            const ex = await fuzz.exchange('delete', `/products/${encode(raw)}`);
            fuzz.expectSane(ex, sentSegment(raw));
            expect(ex.res.status).toBe(isWellFormed(raw) && HEX24.test(raw) ? 404 : refusal(raw));
            if (ex.res.status === 404) expect(ex.names).toEqual(['delete']);
          }),
          RUNS,
        );
        expect(await fuzz.catalog.connection.db!.collection('products').countDocuments({})).toBe(
          fuzz.createdProducts.size,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'should answer GET /products/by-slug/:slug with 200 only for the product with that exact slug, else 404 (400 if undecodable)',
      async () => {
        const slug = fc.oneof(
          segment,
          fc.constantFrom(...fuzz.stable.map((p) => p.slug)),
          fc.constantFrom(...fuzz.stable.map((p) => p.slug.toUpperCase())),
        );
        await fc.assert(
          fc.asyncProperty(slug, async (raw) => {
            const ex = await fuzz.exchange('get', `/products/by-slug/${encode(raw)}`);
            fuzz.expectSane(ex, sentSegment(raw));
            const product = fuzz.stable.find((p) => p.slug === raw);
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
});
