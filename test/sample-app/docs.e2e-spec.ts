import 'reflect-metadata';
import { STATUS_CODES } from 'node:http';
import { CATALOG_PLATFORMS, startCatalog, type CatalogTestApp } from './catalog-test-app.js';

const OBJECT_ID = { type: 'string', pattern: '^[0-9a-fA-F]{24}$', example: '507f1f77bcf86cd799439011' };

/** Property names that hold ObjectIds in this API. */
const isIdName = (name: string) => /^(id|ids|hex)$|Ids?$/.test(name);

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
      'GET /categories/by-slug/{slug}',
      'GET /categories/{id}',
      'GET /categories/{id}/{slug}',
      'GET /categories/{id}/{slug}/products',
      'GET /health',
      'GET /object-ids/generate',
      'GET /object-ids/{id}/decode',
      'GET /orders/by-number/{number}',
      'GET /orders/{id}',
      'GET /products',
      'GET /products/by-slug/{slug}',
      'GET /products/{id}',
      'GET /products/{id}/{slug}',
      'PATCH /categories/{id}',
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
      '/categories/{id} id',
      '/categories/{id} id',
      '/categories/{id}/{slug} id',
      '/categories/{id}/{slug}/products id',
      '/object-ids/{id}/decode id',
      '/orders/{id} id',
      '/products categoryId',
      '/products ids',
      '/products/{id} id',
      '/products/{id} id',
      '/products/{id} id',
      '/products/{id}/{slug} id',
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

  it('should give every error response the error body schema, with an example of its own status', () => {
    const errors = errorResponses(document);
    expect(errors.length).toBeGreaterThan(0);
    const errorBody = document.components.schemas.ErrorResponse;
    for (const { route, status, response } of errors) {
      const { schema, example } = response.content?.['application/json'] ?? {};
      // ErrorResponse itself, or a body that extends it (503 GET /health adds the dependencies).
      const body = schema?.$ref
        ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]
        : schema;
      expect({ route, schema: body }).toEqual({
        route,
        schema: expect.objectContaining({
          required: expect.arrayContaining(errorBody.required),
          properties: expect.objectContaining(errorBody.properties),
        }),
      });
      expect({ route, example }).toEqual({
        route,
        example: expect.objectContaining({
          statusCode: Number(status),
          message: expect.anything(),
          error: STATUS_CODES[status],
        }),
      });
    }
  });

  it('should document 400 on every route with an ObjectId in its path (the pipe answers it)', () => {
    const withIdInPath = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { parameters?: any[] }>)
        .filter(([, operation]) =>
          (operation.parameters ?? []).some((p) => p.in === 'path' && p.schema?.pattern === OBJECT_ID.pattern),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(withIdInPath).toEqual(expect.arrayContaining(['GET /products/{id}', 'GET /object-ids/{id}/decode']));
    const errors = errorResponses(document);
    const without400 = withIdInPath.filter(
      (route) => !errors.some((error) => error.route === route && error.status === '400'),
    );
    expect(without400).toEqual([]);
  });

  it('should document 503 on every route that reaches MongoDB (all but /object-ids)', () => {
    const routes = Object.entries(document.paths)
      .filter(([path]) => !path.startsWith('/object-ids/'))
      .flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`));
    const errors = errorResponses(document);
    expect(routes.filter((route) => !errors.some((error) => error.route === route && error.status === '503'))).toEqual(
      [],
    );
  });

  it.each([
    ['POST /products', ['400', '409', '422']],
    ['PATCH /products/{id}', ['400', '404', '409', '422']],
    ['DELETE /products/{id}', ['400', '404']],
    ['GET /products/{id}', ['400', '404']],
    ['GET /products/by-slug/{slug}', ['404']],
    ['GET /products', ['400']],
    ['POST /categories', ['400', '409']],
    ['POST /orders', ['400', '422']],
    ['GET /orders/{id}', ['400', '404']],
    ['GET /orders/by-number/{number}', ['404']],
    ['GET /object-ids/generate', ['400']],
  ])('should document the errors of %s: %j', (route, statuses) => {
    const documented = errorResponses(document)
      .filter((error) => error.route === route)
      .map((error) => error.status);
    expect(documented).toEqual(expect.arrayContaining(statuses));
  });

  it('should describe the error body as { statusCode, message, error }', () => {
    expect(document.components.schemas.ErrorResponse).toMatchObject({
      type: 'object',
      required: ['statusCode', 'message', 'error'],
      properties: {
        statusCode: { type: 'integer', example: 400 },
        message: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        error: { type: 'string', example: 'Bad Request' },
      },
    });
  });

  it('should serve the Swagger UI', async () => {
    const res = await catalog.http().get('/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<title>Swagger UI</title>');
    const init = await catalog.http().get('/docs/swagger-ui-init.js').expect(200);
    expect(init.text).toContain('"/products/{id}"');
    await catalog.http().get('/docs/swagger-ui-bundle.js').expect(200);
    await catalog.http().get('/docs/swagger-ui.css').expect(200);
  });
});

/** Every documented 4xx/5xx response, as `{ route: 'GET /products/{id}', status: '404', response }`. */
function errorResponses(document: any): { route: string; status: string; response: any }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { responses: Record<string, any> }>).flatMap(([method, operation]) =>
      Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => ({ route: `${method.toUpperCase()} ${path}`, status, response })),
    ),
  );
}
