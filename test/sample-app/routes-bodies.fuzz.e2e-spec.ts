/**
 * Fuzzes the catalog's JSON request bodies on both platforms (seeded, see
 * fuzz/fuzz-catalog.ts for the runs): every write route gets any JSON, random
 * objects and mutated valid bodies, operator and prototype payloads and keys,
 * and ids in any form where a body names a product or a category. A refused
 * body writes nothing and takes no order number; a stored one holds exactly
 * the schema's fields; and afterwards the orders are numbered without a gap.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import {
  anyInput,
  HEX24,
  injectionPayload,
  nearMissHex,
  validHex,
} from '../../src/core/object-id-arbitraries.fixture.js';
import { CATALOG_PLATFORMS, UNKNOWN_ID } from './catalog-test-app.js';
import { FuzzCatalog, HOSTILE_RUNS, PROPERTY_TIMEOUT_MS, RUNS, type Method } from './fuzz/fuzz-catalog.js';
import { hostileFormBody, hostileValue } from './fuzz/hostile-arbitraries.js';
import { json, objectJson } from './fuzz/request-text.js';
import { anyCase, bodyArbitraries, FORBIDDEN_KEYS, PROTO_KEYS } from './fuzz/route-arbitraries.js';

describe.each(CATALOG_PLATFORMS)('fuzz: catalog routes on %s (seeded)', (platform) => {
  let fuzz: FuzzCatalog;
  const stableIdAnyCase = anyCase(() => fuzz.stable.map((p) => p.id));

  beforeAll(async () => {
    fuzz = await FuzzCatalog.start(platform);
  });
  afterAll(() => fuzz?.close());

  describe('JSON bodies', () => {
    const { fieldValue, mutate, bodyFrom } = bodyArbitraries(stableIdAnyCase);

    const productTemplate = () => ({
      name: json('Fuzz product'),
      price: '9.99',
      categoryId: json(fuzz.categoryId),
      relatedIds: json([fuzz.stable[0]!.id]),
    });
    const itemValue = () =>
      fc
        .oneof(mutate({ productId: json(fuzz.stable[1]!.id), quantity: '2' }), fieldValue)
        .filter((item) => !item.startsWith('['));
    const orderBody = () =>
      bodyFrom(
        { items: json([{ productId: fuzz.stable[0]!.id, quantity: 1 }]) },
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
        () => `/products/${fuzz.patchTarget}`,
        () => bodyFrom({ ...productTemplate(), slug: json('patched') }),
        [200, 400, 409, 422],
      ],
      ['POST /orders', 'post', () => '/orders', orderBody, [201, 400, 422]],
    ];

    it.each(endpoints)(
      'should answer %s with a 2xx/4xx for any body, and write nothing when refusing it',
      async (_label, method, path, body, statuses) => {
        await fc.assert(
          fc.asyncProperty(body(), async (text) => {
            await fuzz.sendBody(method, path(), text, statuses);
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
        const validItems = () => [item(fuzz.stable[0]!.id), item(fuzz.stable[1]!.id, '3')];
        const itemsJson = (items: (Record<string, string> | string)[]) =>
          `[${items.map((i) => (typeof i === 'string' ? i : objectJson(Object.entries(i)))).join(',')}]`;
        const targets: [string, Method, () => Record<string, string>][] = [
          ['/categories', 'post', () => ({ name: json('Injected'), slug: json('injected') })],
          ['/products', 'post', () => ({ ...productTemplate(), slug: json('injected') })],
          [`/products/${fuzz.patchTarget}`, 'patch', () => ({ ...productTemplate(), slug: json('injected') })],
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
              if (where === 'relatedId') fields.relatedIds = json([fuzz.stable[0]!.id, payload]);
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
            const ex = await fuzz.sendBody(method, path, body, [400]);
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
          ['/categories', 'post', () => ({ name: json(`Proto category ${++fuzz.unique}`) }), 201],
          ['/products', 'post', () => ({ ...productTemplate(), name: json(`Proto product ${++fuzz.unique}`) }), 201],
          [`/products/${fuzz.patchTarget}`, 'patch', () => ({ price: '3.5' }), 200],
          ['/orders', 'post', () => ({ items: json([{ productId: fuzz.stable[2]!.id, quantity: 1 }]) }), 201],
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
              const ex = await fuzz.sendBody(method, path, body, [accepted, 400]);
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

  describe('hostile bodies (#15)', () => {
    const { mutate } = bodyArbitraries(stableIdAnyCase);
    const item = () => ({ productId: json(fuzz.stable[1]!.id), quantity: '2' });
    /** Every write route, the valid body its hostile ones are made from, the statuses it may answer. */
    const targets = (): [Method, string, Record<string, string>, number[]][] => [
      ['post', '/categories', { name: json('Hostile category') }, [201, 400, 409, 413]],
      [
        'post',
        '/products',
        { name: json('Hostile product'), price: '9.99', categoryId: json(fuzz.categoryId) },
        [201, 400, 409, 413, 422],
      ],
      ['patch', `/products/${fuzz.patchTarget}`, { price: '3.5', slug: json('patched') }, [200, 400, 409, 413, 422]],
      ['post', '/orders', { items: `[${objectJson(Object.entries(item()))}]` }, [201, 400, 413, 422]],
    ];
    /** Order lines: hostile values as lines, or valid lines with hostile fields and keys. */
    const hostileItems = () =>
      fc
        .array(fc.oneof(mutate(item(), hostileValue), hostileValue), { minLength: 1, maxLength: 3 })
        .map((items) => `[${items.join(',')}]`);

    it(
      'should answer every write route with a 2xx/4xx in the app shape, within the CPU bound, for deep, huge, prototype-keyed, edge-number and broken-text bodies',
      async () => {
        const hostile = fc.constantFrom(...targets()).chain(([method, path, template, statuses]) =>
          fc.record({
            method: fc.constant(method),
            path: fc.constant(path),
            statuses: fc.constant(statuses),
            body: fc.oneof(
              { weight: 1, arbitrary: hostileValue },
              {
                weight: 3,
                arbitrary: mutate(template, path === '/orders' ? fc.oneof(hostileValue, hostileItems()) : hostileValue),
              },
            ),
          }),
        );
        await fc.assert(
          fc.asyncProperty(hostile, async ({ method, path, statuses, body }) => {
            await fuzz.sendBody(method, path, body, statuses);
          }),
          HOSTILE_RUNS,
        );
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'should answer form bodies (deep brackets, floods of pairs, prototype paths) with a 2xx/4xx in the app shape, within the CPU bound',
      async () => {
        const keys = ['name', 'slug', 'price', 'categoryId', 'relatedIds', 'items', 'productId', 'quantity'];
        const form = fc.tuple(fc.constantFrom(...targets()), hostileFormBody(keys));
        await fc.assert(
          fc.asyncProperty(form, async ([[method, path, , statuses], body]) => {
            await fuzz.sendBody(method, path, body, statuses, 'application/x-www-form-urlencoded');
          }),
          HOSTILE_RUNS,
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
            const before = await fuzz.counter();
            const ex = await fuzz.exchange('post', '/orders', json({ items: [{ productId, quantity: 1 }] }));
            fuzz.expectSane(ex, json(productId));
            const after = await fuzz.counter();
            if (!(typeof productId === 'string' && HEX24.test(productId))) {
              expect([ex.res.status, after]).toEqual([400, before]);
              return;
            }
            const lower = productId.toLowerCase();
            if (fuzz.stable.some((p) => p.id === lower)) {
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
        const categoryValue = fc.oneof(idValue, fc.constantFrom(fuzz.categoryId, fuzz.categoryId.toUpperCase()));
        await fc.assert(
          fc.asyncProperty(categoryValue, async (value) => {
            const body = json({ name: `Category check ${++fuzz.unique}`, price: 1, categoryId: value });
            const ex = await fuzz.exchange('post', '/products', body);
            fuzz.expectSane(ex, json(value));
            if (!(typeof value === 'string' && HEX24.test(value))) {
              expect(ex.res.status).toBe(400);
              return;
            }
            const lower = value.toLowerCase();
            if (lower === fuzz.categoryId) {
              expect([ex.res.status, ex.res.body.categoryId, ex.names]).toEqual([201, lower, ['find', 'insert']]);
              fuzz.createdProducts.add(ex.res.body.id);
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
      const numbers = (await fuzz.catalog.connection.db!.collection('orders').find().toArray()).map((o) =>
        String(o.number),
      );
      const seq = await fuzz.counter();
      const expected = Array.from({ length: seq }, (_, i) => `ORD-2026-${String(i + 1).padStart(6, '0')}`);
      expect(numbers.sort()).toEqual(expected);
      const next = await fuzz.catalog
        .http()
        .post('/orders')
        .send({ items: [{ productId: fuzz.stable[0]!.id, quantity: 1 }] })
        .expect(201);
      expect(next.body.number).toBe(`ORD-2026-${String(seq + 1).padStart(6, '0')}`);
    });
  });
});
