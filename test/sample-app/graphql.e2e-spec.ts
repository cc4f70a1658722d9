import 'reflect-metadata';
import { CATALOG_PLATFORMS, HEX_ID, startCatalog, UNKNOWN_ID, type CatalogTestApp } from './catalog-test-app.js';

interface GraphQLAnswer {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
}

const PRODUCT_FIELDS = 'id name slug url price categoryId relatedIds createdAt';
const BY_ID = `query ($id: ObjectId!) { product(id: $id) { ${PRODUCT_FIELDS} } }`;

/** The message ParseObjectIdPipe gives on REST for the same input. */
const invalid = (detail: string) => `Validation failed (ObjectId is expected): ${detail}`;

describe.each(CATALOG_PLATFORMS)('catalog GraphQL on %s', (platform) => {
  let catalog: CatalogTestApp;
  let categoryId: string;
  let cup: { id: string; slug: string; price: number };
  let saucer: { id: string };

  const graphql = async (query: string, variables?: Record<string, unknown>): Promise<GraphQLAnswer> => {
    const res = await catalog.http().post('/graphql').send({ query, variables });
    return { status: res.status, body: res.body };
  };
  /** The one error of an answer without data, as [code, message]. */
  const onlyError = (answer: GraphQLAnswer) => {
    expect(answer.body.errors).toHaveLength(1);
    return [answer.body.errors![0].extensions?.code, answer.body.errors![0].message];
  };

  beforeAll(async () => {
    catalog = await startCatalog(platform);
    categoryId = (await catalog.http().post('/categories').send({ name: 'Tableware' }).expect(201)).body.id;
    const saucerBody = (
      await catalog.http().post('/products').send({ name: 'Saucer', price: 0.1, categoryId }).expect(201)
    ).body;
    saucer = saucerBody;
    cup = (
      await catalog
        .http()
        .post('/products')
        .send({ name: 'Tea Cup', price: 24.9, categoryId, relatedIds: [saucer.id] })
        .expect(201)
    ).body;
  });
  afterAll(() => catalog?.close());

  describe('product(id)', () => {
    it('should answer the product, with every id as lowercase hex, as GET /products/:id does', async () => {
      const rest = (await catalog.http().get(`/products/${cup.id}`).expect(200)).body;
      const answer = await graphql(BY_ID, { id: cup.id.toUpperCase() });
      expect(answer).toEqual({ status: 200, body: { data: { product: rest } } });
      expect(rest).toMatchObject({ id: expect.stringMatching(HEX_ID), relatedIds: [saucer.id] });
    });

    it('should read an id written in the query', async () => {
      const answer = await graphql(`{ product(id: "${cup.id}") { id categoryId } }`);
      expect(answer.body).toEqual({ data: { product: { id: cup.id, categoryId } } });
    });

    it('should answer null for an id no product has, without an error', async () => {
      expect((await graphql(BY_ID, { id: UNKNOWN_ID })).body).toEqual({ data: { product: null } });
    });

    const BAD_IDS: [label: string, value: unknown, literal: string, detail: string][] = [
      ['too short', 'abc', '"abc"', '"abc" is 3 characters long, expected 24 hex characters'],
      [
        'a non-hex character',
        '507f1f77bcf86cd79943901g',
        '"507f1f77bcf86cd79943901g"',
        '"507f1f77bcf86cd79943901g" has a non-hex character "g" at position 23, expected 24 hex characters (0-9, a-f)',
      ],
      ['empty', '', '""', 'no value was given, expected 24 hex characters'],
      ['a number', 123, '123', 'received a number, expected a string of 24 hex characters'],
    ];

    it.each(BAD_IDS)(
      'should refuse a variable %s as BAD_USER_INPUT with the pipe message, before the database is asked',
      async (_label, value, _literal, detail) => {
        catalog.commands.clear();
        const answer = await graphql(BY_ID, { id: value });
        expect(answer.status).toBe(400);
        expect(answer.body.data).toBeUndefined();
        expect(onlyError(answer)).toEqual([
          'BAD_USER_INPUT',
          `Variable "$id" got invalid value ${JSON.stringify(value)}; ${invalid(detail)}`,
        ]);
        expect(catalog.commands.names('products')).toEqual([]);
      },
    );

    it.each(BAD_IDS)(
      'should refuse a literal %s as BAD_USER_INPUT with the pipe message, before the database is asked',
      async (_label, _value, literal, detail) => {
        catalog.commands.clear();
        const answer = await graphql(`{ product(id: ${literal}) { id } }`);
        expect(answer.status).toBe(400);
        expect(onlyError(answer)).toEqual(['BAD_USER_INPUT', invalid(detail)]);
        expect(catalog.commands.names('products')).toEqual([]);
      },
    );

    it('should refuse an operator object in a variable as BAD_USER_INPUT, never a query filter', async () => {
      const answer = await graphql(BY_ID, { id: { $ne: null } });
      expect(onlyError(answer)).toEqual([
        'BAD_USER_INPUT',
        `Variable "$id" got invalid value { $ne: null }; ${invalid('received an object, expected a string of 24 hex characters')}`,
      ]);
    });
  });

  describe('productBySlug(slug)', () => {
    it('should answer the product with its current slug, ids as hex', async () => {
      const answer = await graphql(`{ productBySlug(slug: "${cup.slug}") { id slug categoryId relatedIds } }`);
      expect(answer.body).toEqual({
        data: { productBySlug: { id: cup.id, slug: 'tea-cup', categoryId, relatedIds: [saucer.id] } },
      });
    });

    it('should find the product by an old slug too (the current one is in the answer)', async () => {
      const renamed = (await catalog.http().post('/products').send({ name: 'Mug', price: 5, categoryId }).expect(201))
        .body;
      await catalog.http().patch(`/products/${renamed.id}`).send({ name: 'Big Mug' }).expect(200);
      const answer = await graphql('query ($slug: String!) { productBySlug(slug: $slug) { id slug } }', {
        slug: 'mug',
      });
      expect(answer.body).toEqual({ data: { productBySlug: { id: renamed.id, slug: 'big-mug' } } });
    });

    it('should answer null for a slug no product has or had', async () => {
      expect((await graphql('{ productBySlug(slug: "no-such-thing") { id } }')).body).toEqual({
        data: { productBySlug: null },
      });
    });
  });

  describe('createOrder(input)', () => {
    const CREATE = `mutation ($input: CreateOrderInput!) {
      createOrder(input: $input) { id number total createdAt items { productId quantity unitPrice } }
    }`;

    it('should place the order with the next number, as POST /orders does, ids as hex', async () => {
      const answer = await graphql(CREATE, {
        input: {
          items: [
            { productId: cup.id.toUpperCase(), quantity: 3 },
            { productId: saucer.id, quantity: 2 },
          ],
        },
      });
      expect(answer.status).toBe(200);
      const order = answer.body.data!.createOrder as { id: string; number: string };
      expect(order).toEqual({
        id: expect.stringMatching(HEX_ID),
        number: expect.stringMatching(/^ORD-\d{4}-000001$/),
        total: 74.9,
        createdAt: new Date(parseInt(order.id.slice(0, 8), 16) * 1000).toISOString(),
        items: [
          { productId: cup.id, quantity: 3, unitPrice: 24.9 },
          { productId: saucer.id, quantity: 2, unitPrice: 0.1 },
        ],
      });
      // The same order on REST, by its id.
      expect((await catalog.http().get(`/orders/${order.id}`).expect(200)).body).toMatchObject({
        id: order.id,
        number: order.number,
      });
    });

    it('should refuse an invalid product id as BAD_USER_INPUT with the pipe message, naming where it is', async () => {
      const answer = await graphql(CREATE, { input: { items: [{ productId: 'abc', quantity: 1 }] } });
      expect(onlyError(answer)).toEqual([
        'BAD_USER_INPUT',
        `Variable "$input" got invalid value "abc" at "input.items[0].productId"; ${invalid(
          '"abc" is 3 characters long, expected 24 hex characters',
        )}`,
      ]);
    });

    it('should refuse an unknown product as BAD_USER_INPUT (REST: 422) without using up a number', async () => {
      const answer = await graphql(CREATE, { input: { items: [{ productId: UNKNOWN_ID, quantity: 1 }] } });
      expect(answer.body.data).toBeNull();
      expect(onlyError(answer)).toEqual(['BAD_USER_INPUT', `products do not exist: ${UNKNOWN_ID}`]);
      const next = await graphql(CREATE, { input: { items: [{ productId: cup.id, quantity: 1 }] } });
      expect((next.body.data!.createOrder as { number: string }).number).toMatch(/-000002$/);
    });

    it("should check the DTO's limits on GraphQL too (the global ValidationPipe runs on arguments)", async () => {
      const answer = await graphql(CREATE, {
        input: {
          items: [
            { productId: cup.id, quantity: 1001 },
            { productId: cup.id.toUpperCase(), quantity: 1 },
          ],
        },
      });
      expect(answer.body.data).toBeNull();
      expect(answer.body.errors).toHaveLength(1);
      expect(answer.body.errors![0]).toMatchObject({
        message: 'Bad Request Exception',
        extensions: {
          code: 'BAD_REQUEST',
          originalError: {
            statusCode: 400,
            message: [
              'items must be a list naming each product once; add up the quantities instead',
              'items.0.quantity must not be greater than 1000',
            ],
          },
        },
      });
    });
  });
});
