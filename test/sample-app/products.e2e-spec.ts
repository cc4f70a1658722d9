import 'reflect-metadata';
import mongoose from 'mongoose';
import { CATALOG_PLATFORMS, HEX_ID, startCatalog, UNKNOWN_ID, type CatalogTestApp } from './catalog-test-app.js';

describe.each(CATALOG_PLATFORMS)('catalog products on %s', (platform) => {
  let catalog: CatalogTestApp;
  let categoryId: string;

  const createProduct = (body: Record<string, unknown>) =>
    catalog
      .http()
      .post('/products')
      .send({ price: 10, categoryId, ...body });

  beforeAll(async () => {
    catalog = await startCatalog(platform);
    categoryId = (await catalog.http().post('/categories').send({ name: 'Kitchen' }).expect(201)).body.id;
  });
  afterAll(() => catalog?.close());

  describe('POST /products', () => {
    it('should create a product, derive an ASCII slug and answer lowercase hex ids', async () => {
      const res = await createProduct({
        name: 'Crème Brûlée Set',
        price: 24.9,
        categoryId: categoryId.toUpperCase(),
      }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(HEX_ID),
        name: 'Crème Brûlée Set',
        slug: 'creme-brulee-set',
        url: `/products/${res.body.id}/creme-brulee-set`,
        price: 24.9,
        categoryId,
        relatedIds: [],
        createdAt: new Date(parseInt(res.body.id.slice(0, 8), 16) * 1000).toISOString(),
      });
    });

    it('should store _id, categoryId and relatedIds as ObjectIds, and no createdAt field', async () => {
      const first = (await createProduct({ name: 'Ramekin' }).expect(201)).body;
      const res = await createProduct({ name: 'Torch', relatedIds: [first.id.toUpperCase()] }).expect(201);
      expect(res.body.relatedIds).toEqual([first.id]);

      // Read with the driver, which decodes BSON type 7 (ObjectId) into ObjectId and a string into a string.
      // (Not `$type: 'objectId'`: the embedded server does not match it yet.)
      const products = catalog.connection.db!.collection('products');
      const stored = await products.findOne({ slug: 'torch' });
      expect(Object.keys(stored!).sort()).toEqual([
        '_id',
        'categoryId',
        'name',
        'price',
        'relatedIds',
        'slug',
        'slugs',
      ]);
      expect(stored!._id).toBeInstanceOf(mongoose.mongo.ObjectId);
      expect(stored!._id.toHexString()).toBe(res.body.id);
      expect(stored!.categoryId).toBeInstanceOf(mongoose.mongo.ObjectId);
      expect(stored!.relatedIds).toEqual([new mongoose.mongo.ObjectId(first.id)]);
      expect(stored!.relatedIds[0]).toBeInstanceOf(mongoose.mongo.ObjectId);
      expect(await products.countDocuments({ _id: { $type: 'string' } })).toBe(0);
    });

    it('should answer 400 when no slug can be derived from the name', async () => {
      await createProduct({ name: '寿司' }).expect(400, {
        statusCode: 400,
        message: 'cannot derive a slug from name "寿司"; send a slug (lowercase letters, digits and hyphens)',
        error: 'Bad Request',
      });
      await createProduct({ name: '寿司', slug: 'sushi' }).expect(201);
    });

    // Which of the two answers a PATCH gets depends on the stored name: the app reads it first.
    it('should keep the slug of a name that derives none when a PATCH sends it unchanged, and refuse a new one', async () => {
      const created = (await createProduct({ name: '餃子', slug: 'gyoza' }).expect(201)).body;
      const patch = (body: Record<string, unknown>) => catalog.http().patch(`/products/${created.id}`).send(body);
      expect((await patch({ name: '餃子', price: 7 }).expect(200)).body).toMatchObject({ slug: 'gyoza', price: 7 });
      await patch({ name: '焼き餃子' }).expect(400, {
        statusCode: 400,
        message: 'cannot derive a slug from name "焼き餃子"; send a slug (lowercase letters, digits and hyphens)',
        error: 'Bad Request',
      });
      expect((await patch({ name: '焼き餃子', slug: 'yaki-gyoza' }).expect(200)).body.slug).toBe('yaki-gyoza');
    });

    it('should answer 422 for a category that does not exist', async () => {
      await createProduct({ name: 'Orphan', categoryId: UNKNOWN_ID }).expect(422, {
        statusCode: 422,
        message: `category ${UNKNOWN_ID} does not exist; create it with POST /categories or pick one from GET /categories`,
        error: 'Unprocessable Entity',
      });
    });

    it('should answer 422 naming the related products that do not exist', async () => {
      const known = (await createProduct({ name: 'Spoon' }).expect(201)).body.id;
      const other = '6553f1003f2a91c8d4003039';
      await createProduct({ name: 'Bowl', relatedIds: [UNKNOWN_ID, known, other] }).expect(422, {
        statusCode: 422,
        message: `related products do not exist: ${UNKNOWN_ID}, ${other}`,
        error: 'Unprocessable Entity',
      });
    });

    it('should answer 409 for a taken slug, named by the unique index', async () => {
      await createProduct({ name: 'Whisk' }).expect(201);
      await createProduct({ name: 'WHISK' }).expect(409, {
        statusCode: 409,
        message: 'slug "whisk" is already taken',
        error: 'Conflict',
      });
    });

    it('should let exactly one of concurrent creations with the same slug win', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => createProduct({ name: 'Race Pan' })));
      expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    });

    it.each([
      ['a short categoryId', { categoryId: 'abc' }, ['categoryId must be a 24-character hex ObjectId']],
      [
        'an operator object as categoryId',
        { categoryId: { $ne: null } },
        ['categoryId must be a 24-character hex ObjectId'],
      ],
      ['a number as categoryId', { categoryId: 123456789012 }, ['categoryId must be a 24-character hex ObjectId']],
      ['an array as categoryId', { categoryId: [UNKNOWN_ID] }, ['categoryId must be a 24-character hex ObjectId']],
      ['a null categoryId', { categoryId: null }, ['categoryId must be a 24-character hex ObjectId']],
      [
        'a bad related id',
        { relatedIds: [UNKNOWN_ID, 'nope'] },
        ['each value in relatedIds must be a 24-character hex ObjectId'],
      ],
      [
        // ArrayUnique's selector must not call String() on it (that throws: a 500).
        'an object with its own toString among relatedIds',
        { relatedIds: [{ toString: 'x' }] },
        ['each value in relatedIds must be a 24-character hex ObjectId'],
      ],
      ['a price of 1e-7', { price: 1e-7 }, ['price must be a number conforming to the specified constraints']],
      [
        'a repeated related id',
        { relatedIds: [UNKNOWN_ID, UNKNOWN_ID.toUpperCase()] },
        ['relatedIds must be a list of distinct ids'],
      ],
      [
        'relatedIds that are not an array',
        { relatedIds: UNKNOWN_ID },
        [
          'relatedIds must be an array',
          'relatedIds must contain no more than 20 elements',
          'relatedIds must be a list of distinct ids',
        ],
      ],
      ['a negative price', { price: -1 }, ['price must not be less than 0']],
      ['a price with 3 decimals', { price: 1.234 }, ['price must be a number conforming to the specified constraints']],
      [
        'a string price',
        { price: '10' },
        [
          'price must not be greater than 1000000',
          'price must not be less than 0',
          'price must be a number conforming to the specified constraints',
        ],
      ],
      ['an operator key', { $set: { price: 0 } }, ['property $set should not exist']],
      ['a dotted key', { 'price.$gt': 0 }, ['property price.$gt should not exist']],
    ])('should answer 400 for %s', async (_label, patch, message) => {
      const res = await createProduct({ name: 'Invalid thing', ...patch }).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.arrayContaining(message), error: 'Bad Request' });
      expect(res.body.message).toHaveLength(message.length);
    });
  });

  describe('GET /products/:id', () => {
    it('should return the product', async () => {
      const created = (await createProduct({ name: 'Ladle', price: 7.5 }).expect(201)).body;
      await catalog.http().get(`/products/${created.id.toUpperCase()}`).expect(200, created);
    });

    it('should answer 404 for a valid id that does not exist', async () => {
      await catalog
        .http()
        .get(`/products/${UNKNOWN_ID}`)
        .expect(404, {
          statusCode: 404,
          message: `product ${UNKNOWN_ID} not found`,
          error: 'Not Found',
        });
    });

    it.each([
      ['abc', '"abc" is 3 characters long, expected 24 hex characters'],
      [`${UNKNOWN_ID}0`, `"${UNKNOWN_ID}0" is 25 characters long, expected 24 hex characters`],
      [
        'zzzzzzzzzzzzzzzzzzzzzzzz',
        '"zzzzzzzzzzzzzzzzzzzzzzzz" has a non-hex character "z" at position 0, expected 24 hex characters (0-9, a-f)',
      ],
    ])('should answer 400 for %s without asking the database', async (id, detail) => {
      // Positive control: a valid id does reach MongoDB as a find on products.
      catalog.commands.clear();
      await catalog.http().get(`/products/${UNKNOWN_ID}`).expect(404);
      expect(catalog.commands.names('products')).toEqual(['find']);

      catalog.commands.clear();
      await catalog
        .http()
        .get(`/products/${id}`)
        .expect(400, {
          statusCode: 400,
          message: `Validation failed (ObjectId is expected): ${detail}`,
          error: 'Bad Request',
        });
      expect(catalog.commands.names()).toEqual([]);
    });
  });

  describe('GET /products/by-slug/:slug', () => {
    it('should find a product by slug', async () => {
      const created = (await createProduct({ name: 'Sauce Pan 2L' }).expect(201)).body;
      await catalog.http().get('/products/by-slug/sauce-pan-2l').expect(200, created);
    });

    it('should answer 404 for an unknown slug', async () => {
      await catalog.http().get('/products/by-slug/no-such-thing').expect(404, {
        statusCode: 404,
        message: 'product with slug "no-such-thing" not found',
        error: 'Not Found',
      });
    });
  });

  describe('PATCH /products/:id', () => {
    it('should change only the fields sent, and the slug with the name', async () => {
      const created = (await createProduct({ name: 'Kettle', price: 30 }).expect(201)).body;
      const res = await catalog
        .http()
        .patch(`/products/${created.id}`)
        .send({ name: 'Electric Kettle', price: 35.5 })
        .expect(200);
      expect(res.body).toEqual({
        ...created,
        name: 'Electric Kettle',
        slug: 'electric-kettle',
        url: `/products/${created.id}/electric-kettle`,
        price: 35.5,
      });
      await catalog.http().get(`/products/${created.id}`).expect(200, res.body);
    });

    it('should change the slug and honour the unique index (409)', async () => {
      const created = (await createProduct({ name: 'Grater' }).expect(201)).body;
      await catalog.http().patch(`/products/${created.id}`).send({ slug: 'cheese-grater' }).expect(200);
      await catalog.http().patch(`/products/${created.id}`).send({ slug: 'whisk' }).expect(409, {
        statusCode: 409,
        message: 'slug "whisk" is already taken',
        error: 'Conflict',
      });
      expect((await catalog.http().get(`/products/${created.id}`).expect(200)).body.slug).toBe('cheese-grater');
    });

    it('should check the references it changes (422)', async () => {
      const created = (await createProduct({ name: 'Sieve' }).expect(201)).body;
      await catalog.http().patch(`/products/${created.id}`).send({ categoryId: UNKNOWN_ID }).expect(422);
      await catalog
        .http()
        .patch(`/products/${created.id}`)
        .send({ relatedIds: [created.id] })
        .expect(422, {
          statusCode: 422,
          message: 'relatedIds must not contain the product itself',
          error: 'Unprocessable Entity',
        });
    });

    it.each([
      [{ price: null }, 'price cannot be null; leave it out to keep the current value'],
      [{ name: 'x', _id: UNKNOWN_ID }, ['property _id should not exist']],
      [{ categoryId: 'abc' }, ['categoryId must be a 24-character hex ObjectId']],
    ])('should answer 400 for %j', async (body, message) => {
      const created = (await createProduct({ name: `Patch target ${JSON.stringify(body).length}` }).expect(201)).body;
      await catalog
        .http()
        .patch(`/products/${created.id}`)
        .send(body)
        .expect(400, { statusCode: 400, message, error: 'Bad Request' });
    });

    it('should answer 404 for an unknown product and 400 for an invalid id', async () => {
      await catalog
        .http()
        .patch(`/products/${UNKNOWN_ID}`)
        .send({ price: 1 })
        .expect(404, {
          statusCode: 404,
          message: `product ${UNKNOWN_ID} not found`,
          error: 'Not Found',
        });
      await catalog.http().patch('/products/123').send({ price: 1 }).expect(400);
    });
  });

  describe('DELETE /products/:id', () => {
    it('should delete (204), then answer 404', async () => {
      const created = (await createProduct({ name: 'Colander' }).expect(201)).body;
      const res = await catalog.http().delete(`/products/${created.id}`).expect(204);
      expect(res.text).toBe('');
      await catalog.http().get(`/products/${created.id}`).expect(404);
      await catalog
        .http()
        .delete(`/products/${created.id}`)
        .expect(404, {
          statusCode: 404,
          message: `product ${created.id} not found`,
          error: 'Not Found',
        });
      await catalog.http().delete('/products/not-an-id').expect(400);
    });
  });
});
