import 'reflect-metadata';
import { hasSwaggerUi } from '../../sample-app/create-catalog-app.js';
import { CATALOG_PLATFORMS, startCatalog, type CatalogTestApp } from './catalog-test-app.js';

const OBJECT_ID = { type: 'string', pattern: '^[0-9a-fA-F]{24}$', example: '507f1f77bcf86cd799439011' };

/** Property names that hold ObjectIds in this API. */
const isIdName = (name: string) => /^(id|ids|hex|after|nextCursor)$|Ids?$/.test(name);

describe.each(CATALOG_PLATFORMS)('catalog API docs on %s', (platform) => {
  let catalog: CatalogTestApp;
  let document: any;

  beforeAll(async () => {
    catalog = await startCatalog(platform);
    document = (await catalog.http().get('/docs-json').expect(200)).body;
  });
  afterAll(() => catalog?.close());

  it('should describe every route', () => {
    const routes = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual([
      'DELETE /products/{id}',
      'GET /categories',
      'GET /health',
      'GET /object-ids/generate',
      'GET /object-ids/{id}/decode',
      'GET /orders/by-number/{number}',
      'GET /orders/{id}',
      'GET /products',
      'GET /products/by-slug/{slug}',
      'GET /products/{id}',
      'PATCH /products/{id}',
      'POST /categories',
      'POST /orders',
      'POST /products',
    ]);
  });

  it('should document every ObjectId parameter as a 24-hex string', () => {
    const idParameters = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item as Record<string, { parameters?: any[] }>).flatMap((operation) =>
        (operation.parameters ?? [])
          .filter((parameter) => isIdName(parameter.name))
          .map((parameter) => ({ path, ...parameter })),
      ),
    );
    expect(idParameters.map((parameter) => `${parameter.path} ${parameter.name}`).sort()).toEqual([
      '/object-ids/{id}/decode id',
      '/orders/{id} id',
      '/products after',
      '/products categoryId',
      '/products ids',
      '/products/{id} id',
      '/products/{id} id',
      '/products/{id} id',
    ]);
    for (const parameter of idParameters) {
      const schema = parameter.name === 'ids' ? parameter.schema.items : parameter.schema;
      expect({ path: parameter.path, name: parameter.name, schema }).toEqual({
        path: parameter.path,
        name: parameter.name,
        schema: OBJECT_ID,
      });
    }
    const list = document.paths['/products'].get.parameters;
    expect(list.find((p: any) => p.name === 'ids')).toMatchObject({ in: 'query', style: 'form', explode: false });
  });

  it('should document every ObjectId property as a 24-hex string, and no "ObjectId" object', () => {
    const schemas: Record<string, { properties: Record<string, any> }> = document.components.schemas;
    expect(Object.keys(schemas)).not.toContain('ObjectId');
    const idProperties = Object.entries(schemas).flatMap(([model, schema]) =>
      Object.entries(schema.properties ?? {})
        .filter(([name]) => isIdName(name))
        .map(([name, property]) => [`${model}.${name}`, property.type === 'array' ? property.items : property]),
    );
    expect(idProperties.map(([name]) => name).sort()).toEqual([
      'CategoryResponse.id',
      'CreateProductDto.categoryId',
      'CreateProductDto.relatedIds',
      'DecodedObjectIdResponse.hex',
      'GeneratedObjectIdsResponse.ids',
      'OrderItemDto.productId',
      'OrderItemResponse.productId',
      'OrderResponse.id',
      'ProductPageResponse.nextCursor',
      'ProductResponse.categoryId',
      'ProductResponse.id',
      'ProductResponse.relatedIds',
      'UpdateProductDto.categoryId',
      'UpdateProductDto.relatedIds',
    ]);
    for (const [name, schema] of idProperties) {
      expect([name, schema]).toEqual([name, expect.objectContaining({ type: 'string', pattern: OBJECT_ID.pattern })]);
      expect(schema.example).toMatch(/^[0-9a-f]{24}$/);
    }
  });

  it('should serve the Swagger UI (on Fastify only with @fastify/static installed)', async () => {
    const res = await catalog.http().get('/docs');
    if (hasSwaggerUi(platform)) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<title>Swagger UI</title>');
      const init = await catalog.http().get('/docs/swagger-ui-init.js').expect(200);
      expect(init.text).toContain('"/products/{id}"');
      await catalog.http().get('/docs/swagger-ui-bundle.js').expect(200);
    } else {
      expect(res.status).toBe(404);
    }
  });
});
