import 'reflect-metadata';
import { CATALOG_PLATFORMS, HEX_ID, startCatalog, UNKNOWN_ID, type CatalogTestApp } from './catalog-test-app.js';

describe.each(CATALOG_PLATFORMS)('catalog orders on %s', (platform) => {
  let catalog: CatalogTestApp;
  let now = new Date('2026-06-15T12:00:00Z');
  let cup: { id: string; price: number };
  let saucer: { id: string; price: number };

  const order = (items: unknown) => catalog.http().post('/orders').send({ items });

  beforeAll(async () => {
    // The clock only decides the year in the order number; ids keep the real time.
    catalog = await startCatalog(platform, { clock: () => now });
    const category = (await catalog.http().post('/categories').send({ name: 'Tableware' }).expect(201)).body.id;
    const product = async (name: string, price: number) =>
      (await catalog.http().post('/products').send({ name, price, categoryId: category }).expect(201)).body;
    cup = await product('Cup', 24.9);
    saucer = await product('Saucer', 0.1);
  });
  afterAll(() => catalog?.close());

  describe('POST /orders', () => {
    it('should number the first order of the year ORD-YYYY-000001 and price it', async () => {
      const res = await order([
        { productId: cup.id.toUpperCase(), quantity: 3 },
        { productId: saucer.id, quantity: 2 },
      ]).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(HEX_ID),
        number: 'ORD-2026-000001',
        items: [
          { productId: cup.id, quantity: 3, unitPrice: 24.9 },
          { productId: saucer.id, quantity: 2, unitPrice: 0.1 },
        ],
        total: 74.9, // in cents: 3 × 2490 + 2 × 10, not 74.89999…
        createdAt: new Date(parseInt(res.body.id.slice(0, 8), 16) * 1000).toISOString(),
      });
    });

    it('should answer 422 for an unknown product without using up a number', async () => {
      await order([
        { productId: cup.id, quantity: 1 },
        { productId: UNKNOWN_ID, quantity: 1 },
      ]).expect(422, {
        statusCode: 422,
        message: `products do not exist: ${UNKNOWN_ID}`,
        error: 'Unprocessable Entity',
      });
      expect((await order([{ productId: cup.id, quantity: 1 }]).expect(201)).body.number).toBe('ORD-2026-000002');
    });

    it('should start again at 000001 in a new year', async () => {
      now = new Date('2027-01-01T00:00:00Z');
      expect((await order([{ productId: cup.id, quantity: 1 }]).expect(201)).body.number).toBe('ORD-2027-000001');
      now = new Date('2026-12-31T23:59:59Z');
      expect((await order([{ productId: cup.id, quantity: 1 }]).expect(201)).body.number).toBe('ORD-2026-000003');
    });

    const item = { productId: UNKNOWN_ID, quantity: 1 };
    it.each([
      [
        'no items',
        undefined,
        [
          'each item must be an object { productId, quantity }',
          'items must be a list naming each product once; add up the quantities instead',
          'items must contain no more than 50 elements',
          'items must contain at least 1 elements',
          'items must be an array',
        ],
      ],
      ['an empty list', [], ['items must contain at least 1 elements']],
      [
        '51 items',
        Array.from({ length: 51 }, (_, i) => ({ productId: i.toString(16).padStart(24, '0'), quantity: 1 })),
        ['items must contain no more than 50 elements'],
      ],
      ['quantity 0', [{ ...item, quantity: 0 }], ['items.0.quantity must not be less than 1']],
      ['quantity 1001', [{ ...item, quantity: 1001 }], ['items.0.quantity must not be greater than 1000']],
      ['quantity 1.5', [{ ...item, quantity: 1.5 }], ['items.0.quantity must be an integer number']],
      [
        'a quantity string',
        [{ ...item, quantity: '2' }],
        [
          'items.0.quantity must not be greater than 1000',
          'items.0.quantity must not be less than 1',
          'items.0.quantity must be an integer number',
        ],
      ],
      ['a bad productId', [{ ...item, productId: 'cup' }], ['items.0.productId must be a 24-character hex ObjectId']],
      [
        'an operator as productId',
        [{ ...item, productId: { $gt: '' } }],
        ['items.0.productId must be a 24-character hex ObjectId'],
      ],
      [
        'a productId with its own toString',
        [{ ...item, productId: { toString: 1 } }],
        ['items.0.productId must be a 24-character hex ObjectId'],
      ],
      [
        'a product twice',
        [item, { ...item, productId: UNKNOWN_ID.toUpperCase() }],
        ['items must be a list naming each product once; add up the quantities instead'],
      ],
      ['an extra key in an item', [{ ...item, $inc: { quantity: 1 } }], ['items.0.property $inc should not exist']],
      ['a nested list of items', [[item]], ['each item must be an object { productId, quantity }']],
    ])('should answer 400 for %s', async (_label, items, message) => {
      const res = await order(items).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.arrayContaining(message), error: 'Bad Request' });
      expect(res.body.message).toHaveLength(message.length);
    });

    it('should give 300 concurrent orders 300 distinct, consecutive numbers', async () => {
      now = new Date('2031-03-01T00:00:00Z'); // a fresh counter: numbers 1..300 expected
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          order([{ productId: i % 2 ? cup.id : saucer.id, quantity: 1 + (i % 7) }]),
        ),
      );
      expect(results.filter((res) => res.status !== 201).map((res) => [res.status, res.body])).toEqual([]);
      const numbers = results.map((res) => res.body.number as string).sort();
      expect(numbers).toEqual(Array.from({ length: 300 }, (_, i) => `ORD-2031-${String(i + 1).padStart(6, '0')}`));
      expect(new Set(results.map((res) => res.body.id)).size).toBe(300);
    });
  });

  describe('GET /orders/:id and /orders/by-number/:number', () => {
    it('should find an order by id and by number', async () => {
      now = new Date('2028-05-05T00:00:00Z');
      const created = (await order([{ productId: saucer.id, quantity: 5 }]).expect(201)).body;
      expect(created.number).toBe('ORD-2028-000001');
      await catalog.http().get(`/orders/${created.id}`).expect(200, created);
      await catalog.http().get('/orders/by-number/ORD-2028-000001').expect(200, created);
    });

    it('should answer 404 and 400', async () => {
      await catalog
        .http()
        .get(`/orders/${UNKNOWN_ID}`)
        .expect(404, {
          statusCode: 404,
          message: `order ${UNKNOWN_ID} not found`,
          error: 'Not Found',
        });
      await catalog.http().get('/orders/by-number/ORD-1999-000001').expect(404, {
        statusCode: 404,
        message: 'order "ORD-1999-000001" not found',
        error: 'Not Found',
      });
      await catalog.http().get('/orders/ORD-2028-000001').expect(400, {
        statusCode: 400,
        message:
          'Validation failed (ObjectId is expected): "ORD-2028-000001" is 15 characters long, expected 24 hex characters',
        error: 'Bad Request',
      });
    });
  });
});
