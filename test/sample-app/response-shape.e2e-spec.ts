/**
 * One response shape whatever the load path: a product, category or order
 * answers the same body whether it was just created (a hydrated document),
 * read lean one by one or in a list, by id, by slug or by number, and also
 * when it was stored by an older version (`__v: 0`, fields missing).
 */
import 'reflect-metadata';
import mongoose from 'mongoose';
import { CATALOG_PLATFORMS, startCatalog, type CatalogTestApp } from './catalog-test-app.js';

const { ObjectId } = mongoose.mongo;

const PRODUCT_KEYS = ['categoryId', 'createdAt', 'id', 'name', 'price', 'relatedIds', 'slug', 'url'];
const CATEGORY_KEYS = ['createdAt', 'id', 'name', 'slug', 'url'];
const ORDER_KEYS = ['createdAt', 'id', 'items', 'number', 'total'];

/** Asserts that every `[route, body]` has exactly `keys` and equals the first, naming the route that differs. */
function expectSameBodies(keys: string[], answers: [string, unknown][]): void {
  const [, first] = answers[0]!;
  for (const [route, body] of answers) {
    expect([route, Object.keys(body as object).sort()]).toEqual([route, keys]);
    expect([route, body]).toEqual([route, first]);
  }
}

describe.each(CATALOG_PLATFORMS)('catalog response shape on %s', (platform) => {
  let catalog: CatalogTestApp;
  let category: { id: string; slug: string; url: string };

  const get = async (path: string) => (await catalog.http().get(path).expect(200)).body;
  const patch = async (path: string, body: object) => (await catalog.http().patch(path).send(body).expect(200)).body;

  /** A product's body on every route that answers it. */
  const productAnswers = async (product: { id: string; slug: string; url: string }): Promise<[string, unknown][]> => [
    ['GET /products/:id', await get(`/products/${product.id}`)],
    ['GET /products/:id/:slug', await get(product.url)],
    ['GET /products/by-slug/:slug', await get(`/products/by-slug/${product.slug}`)],
    ['GET /products item', (await get(`/products?ids=${product.id}`)).items[0]],
    [
      'GET /categories/:id/:slug/products item',
      (await get(`${category.url}/products?limit=100`)).items.find((item: { id: string }) => item.id === product.id),
    ],
    ['PATCH /products/:id {}', await patch(`/products/${product.id}`, {})],
  ];

  beforeAll(async () => {
    catalog = await startCatalog(platform);
    category = (await catalog.http().post('/categories').send({ name: 'Kitchen' }).expect(201)).body;
  });
  afterAll(() => catalog?.close());

  describe('products', () => {
    it('should answer the created product (hydrated) as every read (lean) does', async () => {
      const related = (await catalog.http().post('/products').send({ name: 'Lid', price: 2, categoryId: category.id }))
        .body;
      const created = (
        await catalog
          .http()
          .post('/products')
          .send({ name: 'Pot', price: 20, categoryId: category.id, relatedIds: [related.id] })
          .expect(201)
      ).body;
      expectSameBodies(PRODUCT_KEYS, [['POST /products', created], ...(await productAnswers(created))]);
    });

    it('should answer a product stored by an older version (__v: 0, no relatedIds) the same on every route', async () => {
      const _id = new ObjectId();
      const id = _id.toHexString();
      await catalog.connection.db!.collection('products').insertOne({
        _id,
        name: 'Old Pot',
        slug: 'old-pot',
        slugs: ['old-pot'],
        price: 15,
        categoryId: new ObjectId(category.id),
        __v: 0,
      });
      const answers = await productAnswers({ id, slug: 'old-pot', url: `/products/${id}/old-pot` });
      expectSameBodies(PRODUCT_KEYS, answers);
      expect(answers[0]![1]).toEqual({
        id,
        name: 'Old Pot',
        slug: 'old-pot',
        url: `/products/${id}/old-pot`,
        price: 15,
        categoryId: category.id,
        relatedIds: [],
        createdAt: _id.getTimestamp().toISOString(),
      });
    });
  });

  describe('categories', () => {
    const categoryAnswers = async (c: { id: string; slug: string; url: string }): Promise<[string, unknown][]> => [
      ['GET /categories/:id', await get(`/categories/${c.id}`)],
      ['GET /categories/:id/:slug', await get(c.url)],
      ['GET /categories/by-slug/:slug', await get(`/categories/by-slug/${c.slug}`)],
      ['GET /categories item', (await get('/categories')).find((item: { id: string }) => item.id === c.id)],
      ['PATCH /categories/:id {}', await patch(`/categories/${c.id}`, {})],
    ];

    it('should answer the created category (hydrated) as every read (lean) does', async () => {
      const created = (await catalog.http().post('/categories').send({ name: 'Garden' }).expect(201)).body;
      expectSameBodies(CATEGORY_KEYS, [['POST /categories', created], ...(await categoryAnswers(created))]);
    });

    it('should answer a category stored by an older version (__v: 0) the same on every route', async () => {
      const _id = new ObjectId();
      const id = _id.toHexString();
      await catalog.connection
        .db!.collection('categories')
        .insertOne({ _id, name: 'Old Tools', slug: 'old-tools', slugs: ['old-tools'], __v: 0 });
      const answers = await categoryAnswers({ id, slug: 'old-tools', url: `/categories/${id}/old-tools` });
      expectSameBodies(CATEGORY_KEYS, answers);
    });
  });

  describe('orders', () => {
    it('should answer the created order (hydrated) as the reads by id and by number (lean) do', async () => {
      const product = (await catalog.http().post('/products').send({ name: 'Cup', price: 3, categoryId: category.id }))
        .body;
      const created = (
        await catalog
          .http()
          .post('/orders')
          .send({ items: [{ productId: product.id, quantity: 2 }] })
          .expect(201)
      ).body;
      expectSameBodies(ORDER_KEYS, [
        ['POST /orders', created],
        ['GET /orders/:id', await get(`/orders/${created.id}`)],
        ['GET /orders/by-number/:number', await get(`/orders/by-number/${created.number}`)],
      ]);
    });

    it('should answer an order stored by an older version (__v: 0) the same by id and by number', async () => {
      const _id = new ObjectId();
      await catalog.connection.db!.collection('orders').insertOne({
        _id,
        number: 'ORD-2020-000001',
        items: [{ productId: new ObjectId(), quantity: 1, unitPrice: 4 }],
        total: 4,
        __v: 0,
      });
      expectSameBodies(ORDER_KEYS, [
        ['GET /orders/:id', await get(`/orders/${_id.toHexString()}`)],
        ['GET /orders/by-number/:number', await get('/orders/by-number/ORD-2020-000001')],
      ]);
    });
  });
});
