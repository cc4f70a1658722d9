/**
 * Canonical URLs (`/products/:id/:slug`, `/categories/:id/:slug`): the id
 * decides, any other spelling is a 301 to the canonical URL, and a rename
 * keeps the old slug working through the slug history.
 */
import 'reflect-metadata';
import mongoose from 'mongoose';
import { MAX_SLUGS } from '../../sample-app/common/slug-history.js';
import { createCatalogApp } from '../../sample-app/create-catalog-app.js';
import { CATALOG_PLATFORMS, startCatalog, UNKNOWN_ID, type CatalogTestApp } from './catalog-test-app.js';

/** Ids the pipe refuses, with the detail of its message. */
const INVALID_IDS: [string, string][] = [
  ['abc', '"abc" is 3 characters long, expected 24 hex characters'],
  [`${UNKNOWN_ID}0`, `"${UNKNOWN_ID}0" is 25 characters long, expected 24 hex characters`],
  [
    'zzzzzzzzzzzzzzzzzzzzzzzz',
    '"zzzzzzzzzzzzzzzzzzzzzzzz" has a non-hex character "z" at position 0, expected 24 hex characters (0-9, a-f)',
  ],
];

describe.each(CATALOG_PLATFORMS)('catalog canonical URLs on %s', (platform) => {
  let catalog: CatalogTestApp;
  let categoryId: string;

  const createProduct = (body: Record<string, unknown>) =>
    catalog
      .http()
      .post('/products')
      .send({ price: 10, categoryId, ...body });
  const rename = (path: string, body: Record<string, unknown>) => catalog.http().patch(path).send(body);
  /** Asserts a 301 to `location` with an empty body. */
  const expectMoved = async (path: string, location: string) => {
    const res = await catalog.http().get(path);
    expect([path, res.status, res.headers.location, res.text]).toEqual([path, 301, location, '']);
  };

  beforeAll(async () => {
    catalog = await startCatalog(platform);
    categoryId = (await catalog.http().post('/categories').send({ name: 'Kitchen' }).expect(201)).body.id;
  });
  afterAll(() => catalog?.close());

  describe('GET /products/:id/:slug', () => {
    it('should answer the canonical URL, the url of every product response, with the product', async () => {
      const created = (await createProduct({ name: 'Crème Brûlée Set' }).expect(201)).body;
      expect(created.url).toBe(`/products/${created.id}/creme-brulee-set`);
      await catalog.http().get(created.url).expect(200, created);
    });

    it.each([
      ['another slug', 'pan'],
      ['a prefix of the slug', 'creme'],
      ['the slug in capitals', 'CREME-BRULEE-TORCH'],
      ['the slug with a trailing hyphen', 'creme-brulee-torch-'],
      ['an encoded slash', 'creme%2Fbrulee-torch'],
    ])('should answer %s with 301 to the canonical URL', async (_label, slug) => {
      const created = (await createProduct({ name: `Crème Brûlée Torch ${slug.length}` }).expect(201)).body;
      await expectMoved(`/products/${created.id}/${slug}`, created.url);
    });

    it('should answer an id in capitals with 301 to the lowercase canonical URL', async () => {
      const created = (await createProduct({ name: 'Ramekin' }).expect(201)).body;
      await expectMoved(`/products/${created.id.toUpperCase()}/ramekin`, created.url);
    });

    it.each(INVALID_IDS)('should answer 400 for the id %s without asking the database', async (id, detail) => {
      // Positive control: a valid id does reach MongoDB.
      catalog.commands.clear();
      await catalog.http().get(`/products/${UNKNOWN_ID}/pan`).expect(404);
      expect(catalog.commands.names('products')).toEqual(['find']);

      catalog.commands.clear();
      await catalog
        .http()
        .get(`/products/${id}/pan`)
        .expect(400, {
          statusCode: 400,
          message: `Validation failed (ObjectId is expected): ${detail}`,
          error: 'Bad Request',
        });
      expect(catalog.commands.names()).toEqual([]);
    });

    it('should answer 404 for a valid id no product has, whatever the slug', async () => {
      await catalog
        .http()
        .get(`/products/${UNKNOWN_ID}/anything`)
        .expect(404, { statusCode: 404, message: `product ${UNKNOWN_ID} not found`, error: 'Not Found' });
    });
  });

  describe('renaming a product', () => {
    it('should change the slug with the name and redirect the old URLs, also by slug', async () => {
      const created = (await createProduct({ name: 'Kettle' }).expect(201)).body;
      const renamed = (await rename(`/products/${created.id}`, { name: 'Electric Kettle' }).expect(200)).body;
      expect(renamed).toMatchObject({ slug: 'electric-kettle', url: `/products/${created.id}/electric-kettle` });

      await catalog.http().get(renamed.url).expect(200, renamed);
      await catalog.http().get('/products/by-slug/electric-kettle').expect(200, renamed);
      await expectMoved(created.url, renamed.url);
      await expectMoved('/products/by-slug/kettle', renamed.url);
      // The old slug is not free: another product may not take it.
      await createProduct({ name: 'Kettle' }).expect(409, {
        statusCode: 409,
        message: 'slug "kettle" is already taken',
        error: 'Conflict',
      });
    });

    it('should keep every earlier slug redirecting, and take an old one back', async () => {
      const created = (await createProduct({ name: 'Pot' }).expect(201)).body;
      const path = `/products/${created.id}`;
      await rename(path, { name: 'Stock Pot' }).expect(200);
      const last = (await rename(path, { name: 'Big Stock Pot' }).expect(200)).body;
      for (const old of ['pot', 'stock-pot']) await expectMoved(`/products/by-slug/${old}`, last.url);

      const back = (await rename(path, { name: 'Pot' }).expect(200)).body;
      expect(back).toEqual(created);
      await catalog.http().get('/products/by-slug/pot').expect(200, back);
      for (const old of ['stock-pot', 'big-stock-pot']) await expectMoved(`/products/by-slug/${old}`, created.url);
    });

    it('should take a slug sent with the name over the derived one, and keep an explicit slug when the name stays', async () => {
      const created = (await createProduct({ name: 'Garden Hose', slug: 'hose' }).expect(201)).body;
      const path = `/products/${created.id}`;
      await rename(path, { name: 'Garden Hose', price: 12 }).expect(200);
      expect((await rename(path, { name: ' Garden Hose ' }).expect(200)).body).toMatchObject({
        name: 'Garden Hose',
        slug: 'hose',
      });
      const res = await rename(path, { name: 'Long Garden Hose', slug: 'long-hose' }).expect(200);
      expect(res.body).toMatchObject({ name: 'Long Garden Hose', slug: 'long-hose' });
      await expectMoved(created.url, res.body.url);
    });

    it('should answer 400 for a new name no slug can be derived from, changing nothing', async () => {
      const created = (await createProduct({ name: 'Sushi Plate' }).expect(201)).body;
      await rename(`/products/${created.id}`, { name: '寿司' }).expect(400, {
        statusCode: 400,
        message: 'cannot derive a slug from name "寿司"; send a slug (lowercase letters, digits and hyphens)',
        error: 'Bad Request',
      });
      await rename(`/products/${created.id}`, { name: '寿司', slug: 'sushi' }).expect(200);
    });

    it("should answer 409 for a new slug that is another product's, now or in its history", async () => {
      const other = (await createProduct({ name: 'Tongs' }).expect(201)).body;
      await rename(`/products/${other.id}`, { name: 'Kitchen Tongs' }).expect(200);
      const created = (await createProduct({ name: 'Spatula' }).expect(201)).body;
      for (const name of ['Tongs', 'Kitchen Tongs']) {
        await rename(`/products/${created.id}`, { name }).expect(409);
      }
      await catalog.http().get(created.url).expect(200, created);
      await expectMoved('/products/by-slug/tongs', `/products/${other.id}/kitchen-tongs`);
    });

    it('should answer 404 for an unknown product and 400 for an invalid id', async () => {
      await rename(`/products/${UNKNOWN_ID}`, { name: 'Ghost' }).expect(404, {
        statusCode: 404,
        message: `product ${UNKNOWN_ID} not found`,
        error: 'Not Found',
      });
      await rename('/products/abc', { name: 'Ghost' }).expect(400);
    });

    it(`should keep the last ${MAX_SLUGS} slugs; the oldest is then free again`, async () => {
      const created = (await createProduct({ name: 'Timer' }).expect(201)).body;
      let last = created;
      for (let i = 1; i < MAX_SLUGS; i++) {
        last = (await rename(`/products/${created.id}`, { name: `Timer ${i}` }).expect(200)).body;
      }
      await expectMoved('/products/by-slug/timer', last.url);
      last = (await rename(`/products/${created.id}`, { name: `Timer ${MAX_SLUGS}` }).expect(200)).body;
      await catalog.http().get('/products/by-slug/timer').expect(404);
      await expectMoved('/products/by-slug/timer-1', last.url);
      await createProduct({ name: 'Timer' }).expect(201);
    });

    it('should let exactly one of two products racing for one new slug have it', async () => {
      const a = (await createProduct({ name: 'Race Lid A' }).expect(201)).body;
      const b = (await createProduct({ name: 'Race Lid B' }).expect(201)).body;
      const results = await Promise.all([a, b].map((p) => rename(`/products/${p.id}`, { name: 'Race Lid' })));
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    });

    it('should lose no slug of concurrent renames of one product: each is current or redirects', async () => {
      const created = (await createProduct({ name: 'Busy Pan' }).expect(201)).body;
      const names = Array.from({ length: 6 }, (_, i) => `Busy Pan ${i}`);
      const results = await Promise.all(names.map((name) => rename(`/products/${created.id}`, { name })));
      const renamedMeanwhile = {
        statusCode: 409,
        message: `product ${created.id} was renamed by another request meanwhile; GET it and send the PATCH again`,
        error: 'Conflict',
      };
      for (const res of results) if (res.status !== 200) expect(res.body).toEqual(renamedMeanwhile);
      const current = (await catalog.http().get(`/products/${created.id}`).expect(200)).body;
      const answered = results.filter((res) => res.status === 200).map((res) => res.body.slug as string);
      expect(answered.length).toBeGreaterThan(0);
      for (const slug of ['busy-pan', ...answered]) {
        const res = await catalog.http().get(`/products/by-slug/${slug}`);
        expect([slug, res.status, res.headers.location ?? res.body.url]).toEqual([
          slug,
          slug === current.slug ? 200 : 301,
          current.url,
        ]);
      }
    });
  });

  describe('categories', () => {
    const createCategory = (body: Record<string, unknown>) => catalog.http().post('/categories').send(body);

    it('should answer the canonical URL, by id and by slug with the category, whose url it is', async () => {
      const created = (await createCategory({ name: 'Bakeware' }).expect(201)).body;
      expect(created.url).toBe(`/categories/${created.id}/bakeware`);
      await catalog.http().get(created.url).expect(200, created);
      await catalog.http().get(`/categories/${created.id}`).expect(200, created);
      await catalog.http().get('/categories/by-slug/bakeware').expect(200, created);
      await expectMoved(`/categories/${created.id}/bake`, created.url);
      await expectMoved(`/categories/${created.id.toUpperCase()}/bakeware`, created.url);
    });

    it('should rename with PATCH /categories/:id and redirect the old slug', async () => {
      const created = (await createCategory({ name: 'Cutlery' }).expect(201)).body;
      const renamed = (await rename(`/categories/${created.id}`, { name: 'Flatware' }).expect(200)).body;
      expect(renamed).toEqual({
        ...created,
        name: 'Flatware',
        slug: 'flatware',
        url: `/categories/${created.id}/flatware`,
      });
      await catalog.http().get(renamed.url).expect(200, renamed);
      await expectMoved(created.url, renamed.url);
      await expectMoved('/categories/by-slug/cutlery', renamed.url);
      await createCategory({ name: 'Cutlery' }).expect(409, {
        statusCode: 409,
        message: 'slug "cutlery" is already taken',
        error: 'Conflict',
      });
      await rename(`/categories/${created.id}`, { slug: 'kitchen' }).expect(409, {
        statusCode: 409,
        message: 'slug "kitchen" is already taken',
        error: 'Conflict',
      });
    });

    let patched = 0;
    it.each([
      [{ name: null }, 'name cannot be null; leave it out to keep the current value'],
      [{ slug: 'Not A Slug' }, ['slug must be lowercase letters and digits separated by single hyphens']],
      [{ name: 'x', $set: { slug: 'y' } }, ['property $set should not exist']],
      [{ name: '日本' }, 'cannot derive a slug from name "日本"; send a slug (lowercase letters, digits and hyphens)'],
    ])('should answer PATCH %j with 400', async (body, message) => {
      const created = (await createCategory({ name: `Patch target ${++patched}` }).expect(201)).body;
      await rename(`/categories/${created.id}`, body).expect(400, { statusCode: 400, message, error: 'Bad Request' });
    });

    it.each([
      ['GET', (id: string) => `/categories/${id}`],
      ['GET', (id: string) => `/categories/${id}/kitchen`],
      ['GET', (id: string) => `/categories/${id}/kitchen/products`],
      ['PATCH', (id: string) => `/categories/${id}`],
    ])(
      'should answer %s %s with 400 for an invalid id before any query, 404 for an unknown one',
      async (method, path) => {
        const send = (id: string) =>
          method === 'GET' ? catalog.http().get(path(id)) : catalog.http().patch(path(id)).send({ name: 'Ghost' });
        for (const [id, detail] of INVALID_IDS) {
          catalog.commands.clear();
          await send(id).expect(400, {
            statusCode: 400,
            message: `Validation failed (ObjectId is expected): ${detail}`,
            error: 'Bad Request',
          });
          expect(catalog.commands.names()).toEqual([]);
        }
        await send(UNKNOWN_ID).expect(404, {
          statusCode: 404,
          message: `category ${UNKNOWN_ID} not found`,
          error: 'Not Found',
        });
      },
    );

    it('should answer 404 for a slug no category has or had', async () => {
      await catalog.http().get('/categories/by-slug/no-such-thing').expect(404, {
        statusCode: 404,
        message: 'category with slug "no-such-thing" not found',
        error: 'Not Found',
      });
    });
  });

  describe('GET /categories/:id/:slug/products', () => {
    let category: { id: string; url: string };
    let products: { id: string }[];

    beforeAll(async () => {
      category = (await catalog.http().post('/categories').send({ name: 'Teaware' }).expect(201)).body;
      products = [];
      for (const name of ['Teapot', 'Tea Cup', 'Strainer']) {
        const body = { name, price: 5, categoryId: category.id };
        products.push((await catalog.http().post('/products').send(body).expect(201)).body);
      }
    });

    it("should page through the category's products in id order", async () => {
      const first = await catalog.http().get(`${category.url}/products?limit=2`).expect(200);
      expect(first.body).toMatchObject({ items: products.slice(0, 2), hasNext: true, hasPrevious: false });
      const next = await catalog.http().get(`${category.url}/products?limit=2&after=${first.body.nextCursor}`);
      expect([next.status, next.body]).toEqual([
        200,
        {
          items: products.slice(2),
          nextCursor: null,
          previousCursor: expect.any(String),
          hasNext: false,
          hasPrevious: true,
        },
      ]);
    });

    it('should answer an old slug with 301 to the canonical URL, keeping the query', async () => {
      const renamed = (await rename(`/categories/${category.id}`, { name: 'Tea Things' }).expect(200)).body;
      await expectMoved(
        `/categories/${category.id}/teaware/products?limit=1&after=${products[0]!.id}`,
        `${renamed.url}/products?limit=1&after=${products[0]!.id}`,
      );
      await expectMoved(`/categories/${category.id}/teaware/products`, `${renamed.url}/products`);
      const page = await catalog.http().get(`${renamed.url}/products?limit=1&after=${products[0]!.id}`).expect(200);
      expect(page.body).toMatchObject({ items: [products[1]], hasNext: true });
    });

    // The messages are the list's (see products-list.e2e-spec.ts); here, that the same pipes guard this route.
    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['after=abc', 'after is not a cursor of this list'],
    ])('should answer %s with 400 naming it, before any query', async (query, named) => {
      catalog.commands.clear();
      const res = await catalog.http().get(`/categories/${category.id}/any/products?${query}`).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(named), error: 'Bad Request' });
      expect(catalog.commands.names()).toEqual([]);
    });
  });

  describe('documents stored before slug history', () => {
    it('should answer by slug after a restart gives them their history', async () => {
      const _id = new mongoose.mongo.ObjectId();
      await catalog.connection.db!.collection('products').insertOne({
        _id,
        name: 'Old Pan',
        slug: 'old-pan',
        price: 3,
        categoryId: new mongoose.mongo.ObjectId(categoryId),
        relatedIds: [],
      });
      const restarted = await createCatalogApp({
        mongoUri: catalog.mongo.uri,
        dbName: catalog.mongo.dbName,
        platform,
        logger: false,
      });
      try {
        await restarted.listen(0, '127.0.0.1');
        const url = await restarted.getUrl();
        const res = await fetch(`${url}/products/by-slug/old-pan`);
        expect([res.status, ((await res.json()) as { url: string }).url]).toEqual([
          200,
          `/products/${_id.toHexString()}/old-pan`,
        ]);
        const renamed = await fetch(`${url}/products/${_id.toHexString()}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Older Pan' }),
        });
        expect(renamed.status).toBe(200);
        const moved = await fetch(`${url}/products/by-slug/old-pan`, { redirect: 'manual' });
        expect([moved.status, moved.headers.get('location')]).toEqual([
          301,
          `/products/${_id.toHexString()}/older-pan`,
        ]);
      } finally {
        await restarted.close();
      }
    });
  });
});
