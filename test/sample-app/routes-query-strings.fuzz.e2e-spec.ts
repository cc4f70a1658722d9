/**
 * Fuzzes the catalog's query strings on both platforms (seeded, see
 * fuzz/fuzz-catalog.ts for the runs): GET /products gets repeated, bracket and
 * operator keys and any values, its id filters any text and ids in any case,
 * and GET /object-ids/generate any count; each must answer 200 (listing only
 * the test's own products) or 400, never 5xx.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { anyInput, HEX24, nearMissHex, validHex } from '../../src/core/object-id-arbitraries.fixture.js';
import { CATALOG_PLATFORMS, HEX_ID } from './catalog-test-app.js';
import { FuzzCatalog, HOSTILE_RUNS, PROPERTY_TIMEOUT_MS, RUNS } from './fuzz/fuzz-catalog.js';
import { hostileQueryPairs, urlTooLong } from './fuzz/hostile-arbitraries.js';
import { asText, queryString } from './fuzz/request-text.js';
import { anyCase, LIST_KEYS, queryKey, queryValue } from './fuzz/route-arbitraries.js';

describe.each(CATALOG_PLATFORMS)('fuzz: catalog routes on %s (seeded)', (platform) => {
  let fuzz: FuzzCatalog;
  const stableIdAnyCase = anyCase(() => fuzz.stable.map((p) => p.id));

  beforeAll(async () => {
    fuzz = await FuzzCatalog.start(platform);
  });
  afterAll(() => fuzz?.close());

  describe('query strings', () => {
    const value = queryValue(stableIdAnyCase);

    it(
      'should answer GET /products with 200 or 400 for any query (repeated keys, bracket keys, operators), listing only its products',
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(fc.tuple(queryKey, value), { maxLength: 6 }), async (pairs) => {
            const ex = await fuzz.exchange('get', `/products${queryString(pairs)}`);
            fuzz.expectSane(ex, `${pairs.flat().join('&')} ${queryString(pairs)}`);
            expect([200, 400]).toContain(ex.res.status);
            if (ex.res.status === 200) {
              expect(ex.names).toEqual(['find']);
              const { items, nextCursor } = ex.res.body as { items: { id: string }[]; nextCursor: string | null };
              expect(items.length).toBeLessThanOrEqual(100);
              for (const item of items) expect(fuzz.createdProducts.has(item.id)).toBe(true);
              // An opaque cursor (base64url JSON): no id of its own in the clear.
              expect(nextCursor === null || /^[A-Za-z0-9_-]+$/.test(nextCursor)).toBe(true);
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
        const category = fc.oneof(one, fc.constantFrom(fuzz.categoryId, fuzz.categoryId.toUpperCase()));
        const valid = (v: string | null) => v === null || v === '' || HEX24.test(v);
        await fc.assert(
          fc.asyncProperty(fc.option(one), fc.option(category), fc.option(list), async (after, category, ids) => {
            const pairs: [string, string][] = [];
            if (after !== null) pairs.push(['after', after]);
            if (category !== null) pairs.push(['categoryId', category]);
            if (ids !== null) pairs.push(['ids', ids]);
            const ex = await fuzz.exchange('get', `/products${queryString(pairs)}`);
            fuzz.expectSane(ex, `${pairs.flat().join('&')} ${queryString(pairs)}`);
            const idsOk = ids === null || ids === '' || ids.split(',').every((item) => HEX24.test(item));
            if (!(valid(after) && valid(category) && idsOk)) {
              expect(ex.res.status).toBe(400);
              return;
            }
            // The oracle: the seeded products (all in one category), in id order, filtered as asked.
            const wanted = ids ? new Set(ids.split(',').map((id) => id.toLowerCase())) : undefined;
            const expected = [...fuzz.createdProducts]
              .sort()
              .filter((id) => !after || id > after.toLowerCase())
              .filter(() => !category || category.toLowerCase() === fuzz.categoryId)
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
      'should answer hostile queries (deep brackets, floods of pairs, edge numbers, long and broken text) with 200/400 in the app shape, or 431 past the URL limit, within the CPU bound (#15)',
      async () => {
        const routes: [string, string[]][] = [
          ['/products', LIST_KEYS],
          ['/object-ids/generate', ['count']],
        ];
        const request = fc
          .constantFrom(...routes)
          .chain(([path, keys]) => hostileQueryPairs(keys).map((pairs) => `${path}${queryString(pairs)}`))
          .filter((url) => urlTooLong(url) !== undefined);
        await fc.assert(
          fc.asyncProperty(request, async (url) => {
            const ex = await fuzz.exchange('get', url);
            // The ids GET /object-ids/generate made are new, not ones a response must not name.
            const generated = url.startsWith('/object-ids/') && ex.res.status === 200 ? ex.res.body.ids : [];
            fuzz.expectSane(ex, `${decodeURIComponentSafely(url)} ${generated.join(' ')}`);
            const allowed = urlTooLong(url) ? [431] : [200, 400];
            expect([url.length, allowed.includes(ex.res.status) ? 'ok' : ex.res.status]).toEqual([url.length, 'ok']);
          }),
          HOSTILE_RUNS,
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
            const ex = await fuzz.exchange(
              'get',
              `/object-ids/generate${queryString(counts.map((c) => ['count', c]))}`,
            );
            expect(ex.res.status).toBeLessThan(500);
            // Decimal digits only: '1e1', '0x10', ' 5' and '5.0' are not numbers here.
            const decimal = (text: string) => (/^\d+$/.test(text) ? Number(text) : Number.NaN);
            const wanted = counts.length === 0 ? 1 : counts.length === 1 ? decimal(counts[0]!) : Number.NaN;
            if (!(wanted >= 1 && wanted <= 100)) {
              expect([ex.res.status, ex.res.body.message]).toEqual([
                400,
                expect.stringMatching(/^Validation failed \(integer from 1 to 100 is expected\): count /),
              ]);
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
});

/** The URL and, where it decodes, its decoded text: what a response may echo. */
function decodeURIComponentSafely(url: string): string {
  try {
    return `${url} ${decodeURIComponent(url)}`;
  } catch {
    return url;
  }
}
