import 'reflect-metadata';
import { CATALOG_PLATFORMS, HEX_ID, startCatalog, type CatalogTestApp } from './catalog-test-app.js';

describe.each(CATALOG_PLATFORMS)('catalog categories on %s', (platform) => {
  let catalog: CatalogTestApp;

  beforeAll(async () => {
    catalog = await startCatalog(platform);
  });
  afterAll(() => catalog?.close());

  describe('POST /categories', () => {
    it('should create a category with a derived slug and an id-based createdAt', async () => {
      const before = Math.floor(Date.now() / 1000) * 1000;
      const res = await catalog.http().post('/categories').send({ name: 'Küche & Haus' }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(HEX_ID),
        name: 'Küche & Haus',
        slug: 'kuche-haus',
        url: `/categories/${res.body.id}/kuche-haus`,
        createdAt: expect.any(String),
      });
      const createdAt = Date.parse(res.body.createdAt);
      expect(createdAt).toBe(parseInt(res.body.id.slice(0, 8), 16) * 1000);
      expect(createdAt).toBeGreaterThanOrEqual(before);
      expect(createdAt).toBeLessThanOrEqual(Date.now());
    });

    it('should keep an explicit slug', async () => {
      const res = await catalog.http().post('/categories').send({ name: 'Garden', slug: 'outdoor' }).expect(201);
      expect(res.body).toMatchObject({ name: 'Garden', slug: 'outdoor' });
    });

    it('should answer 409 with the taken slug, from the unique index', async () => {
      await catalog.http().post('/categories').send({ name: 'Tools' }).expect(201);
      await catalog
        .http()
        .post('/categories')
        .send({ name: 'Tools!' })
        .expect(409, { statusCode: 409, message: 'slug "tools" is already taken', error: 'Conflict' });
    });

    it.each([
      [
        {},
        ['name must be shorter than or equal to 200 characters', 'name should not be empty', 'name must be a string'],
      ],
      [{ name: 'x', slug: 'Not A Slug' }, ['slug must be lowercase letters and digits separated by single hyphens']],
      [{ name: { $gt: '' } }, ['name must be shorter than or equal to 200 characters', 'name must be a string']],
      [{ name: 'x', $where: 'sleep(1000)' }, ['property $where should not exist']],
      [{ name: 'x', 'slug.$ne': 'y' }, ['property slug.$ne should not exist']],
    ])('should answer 400 for %j', async (body, message) => {
      const res = await catalog.http().post('/categories').send(body).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.arrayContaining(message), error: 'Bad Request' });
      expect(res.body.message).toHaveLength(message.length);
    });

    it('should answer 400 when no slug can be derived from the name', async () => {
      await catalog.http().post('/categories').send({ name: '日本' }).expect(400, {
        statusCode: 400,
        message: 'cannot derive a slug from name "日本"; send a slug (lowercase letters, digits and hyphens)',
        error: 'Bad Request',
      });
    });
  });

  describe('GET /categories', () => {
    it('should list every category sorted by id', async () => {
      const res = await catalog.http().get('/categories').expect(200);
      expect(res.body.map((c: { slug: string }) => c.slug)).toEqual(['kuche-haus', 'outdoor', 'tools']);
      const ids = res.body.map((c: { id: string }) => c.id);
      expect(ids).toEqual([...ids].sort());
      for (const id of ids) expect(id).toMatch(HEX_ID);
    });
  });
});
