import 'reflect-metadata';
import mongoose from 'mongoose';
import { CATALOG_PLATFORMS, startCatalog, UNKNOWN_ID, type CatalogTestApp } from './catalog-test-app.js';

const { ObjectId } = mongoose.mongo;

/** An id created at `iso` (what a product inserted then would have). */
function idAt(iso: string): mongoose.mongo.ObjectId {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  return new ObjectId(seconds.toString(16).padStart(8, '0') + new ObjectId().toHexString().slice(8));
}

// Around 2020-03-10; US daylight saving time had started on 2020-03-08, so New York is UTC-4.
const SEEDED = {
  p1: '2020-03-09T23:30:00Z', // UTC day 9,  New York day 9
  p2: '2020-03-10T00:00:00Z', // UTC day 10, New York day 9
  p3: '2020-03-10T12:00:00Z', // UTC day 10, New York day 10
  p4: '2020-03-10T23:59:59Z', // UTC day 10, New York day 10
  p5: '2020-03-11T03:59:59Z', // UTC day 11, New York day 10
  p6: '2020-03-11T04:00:00Z', // UTC day 11, New York day 11
} as const;
type Seeded = keyof typeof SEEDED;

describe.each(CATALOG_PLATFORMS)('catalog product list on %s', (platform) => {
  let catalog: CatalogTestApp;
  let kitchen: string;
  let garden: string;
  const seeded = {} as Record<Seeded, string>;
  const recent: string[] = [];

  /** Ids of every page of `query`, following nextCursor to the end. */
  async function walk(query: string): Promise<string[][]> {
    const pages: string[][] = [];
    let after: string | null = null;
    do {
      const res: { body: { items: { id: string }[]; nextCursor: string | null; hasNext: boolean } } = await catalog
        .http()
        .get(`/products?${query}${after ? `&after=${after}` : ''}`)
        .expect(200);
      const ids = res.body.items.map((item) => item.id);
      pages.push(ids);
      after = res.body.nextCursor;
      expect(res.body.hasNext).toBe(after !== null);
      expect(pages.length).toBeLessThan(50);
    } while (after !== null);
    return pages;
  }
  const ids = (...names: Seeded[]) => names.map((name) => seeded[name]);

  beforeAll(async () => {
    catalog = await startCatalog(platform);
    kitchen = (await catalog.http().post('/categories').send({ name: 'Kitchen' }).expect(201)).body.id;
    garden = (await catalog.http().post('/categories').send({ name: 'Garden' }).expect(201)).body.id;
    // Products "created" in 2020: inserted with ids of that time, as an import would.
    await catalog.connection.db!.collection('products').insertMany(
      Object.entries(SEEDED).map(([name, iso]) => {
        const _id = idAt(iso);
        seeded[name as Seeded] = _id.toHexString();
        return { _id, name, slug: name, price: 1, categoryId: new ObjectId(kitchen), relatedIds: [] };
      }),
    );
    for (let i = 0; i < 25; i++) {
      const body = { name: `Recent ${i}`, price: i, categoryId: i % 5 === 0 ? garden : kitchen };
      recent.push((await catalog.http().post('/products').send(body).expect(201)).body.id);
    }
  });
  afterAll(() => catalog?.close());

  describe('keyset pages', () => {
    it('should page through everything in id order with after=nextCursor', async () => {
      const pages = await walk('limit=10');
      expect(pages.map((page) => page.length)).toEqual([10, 10, 10, 1]);
      expect(pages.flat()).toEqual([...ids('p1', 'p2', 'p3', 'p4', 'p5', 'p6'), ...recent]);
    });

    it('should default to 20 items and say null when the page is the last one', async () => {
      const first = await catalog.http().get('/products').expect(200);
      expect(first.body.items).toHaveLength(20);
      expect(first.body).toMatchObject({ nextCursor: expect.any(String), previousCursor: null, hasNext: true });
      const exact = await catalog.http().get('/products?limit=31').expect(200);
      expect(exact.body.items).toHaveLength(31);
      expect(exact.body).toMatchObject({ nextCursor: null, previousCursor: null, hasNext: false, hasPrevious: false });
    });

    it('should accept a product id as after in id order, as links made before opaque cursors did', async () => {
      const byId = await catalog.http().get(`/products?limit=3&after=${seeded.p3}`).expect(200);
      expect(byId.body.items.map((item: { id: string }) => item.id)).toEqual(ids('p4', 'p5', 'p6'));
      const byCursor = await catalog.http().get(`/products?limit=3`).expect(200);
      const next = await catalog.http().get(`/products?limit=3&after=${byCursor.body.nextCursor}`).expect(200);
      expect(next.body).toEqual(byId.body);
    });

    it('should ask MongoDB for _id > after, sorted by _id, limit + 1, without skip', async () => {
      catalog.commands.clear();
      await catalog.http().get(`/products?limit=5&after=${seeded.p3}`).expect(200);
      const [find] = catalog.commands.sent('find', 'products');
      expect(find).toMatchObject({ filter: { _id: { $gt: new ObjectId(seeded.p3) } }, limit: 6 });
      expect(Object.fromEntries(find!.sort as Map<string, number>)).toEqual({ _id: 1 });
      expect(find).not.toHaveProperty('skip');
    });

    it('should return an empty last page after the last id', async () => {
      await catalog.http().get(`/products?after=${recent[24]}`).expect(200, {
        items: [],
        nextCursor: null,
        previousCursor: null,
        hasNext: false,
        hasPrevious: false,
      });
    });
  });

  describe('filters', () => {
    it('should filter by category, combined with the cursor', async () => {
      const pages = await walk(`categoryId=${garden}&limit=2`);
      expect(pages.flat()).toEqual(recent.filter((_, i) => i % 5 === 0));
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    });

    it('should filter by a list of ids in both query forms', async () => {
      const wanted = [recent[3]!, seeded.p2, recent[0]!];
      const sorted = [seeded.p2, recent[0], recent[3]];
      for (const query of [`ids=${wanted.join(',')}`, wanted.map((id) => `ids=${id}`).join('&')]) {
        const res = await catalog.http().get(`/products?${query}`).expect(200);
        expect(res.body.items.map((item: { id: string }) => item.id)).toEqual(sorted);
      }
      expect((await walk(`ids=${wanted.join(',')}&limit=1`)).flat()).toEqual(sorted);
    });

    it.each([
      ['createdFrom=2020-03-10T00:00:00Z&createdTo=2020-03-11T00:00:00Z', ['p2', 'p3', 'p4']],
      ['createdFrom=2020-03-10&createdTo=2020-03-11', ['p2', 'p3', 'p4']],
      ['createdFrom=2020-03-10T08:00:00%2B08:00&createdTo=2020-03-10T12:00:00.500Z', ['p2', 'p3']],
      ['createdTo=2020-03-10', ['p1']],
      ['createdOn=2020-03-10', ['p2', 'p3', 'p4']],
      ['createdOn=2020-03-10&tz=UTC', ['p2', 'p3', 'p4']],
      ['createdOn=2020-03-10&tz=America/New_York', ['p3', 'p4', 'p5']],
      ['createdOn=2020-03-11&tz=Asia/Tokyo', ['p4', 'p5', 'p6']],
      ['createdOn=2020-03-10&createdFrom=2020-03-10T06:00:00Z', ['p3', 'p4']],
      [`createdOn=2020-03-10&ids=${UNKNOWN_ID}`, []],
    ] as const)('should read %s from the _id bounds, also page by page', async (query, expected) => {
      const res = await catalog.http().get(`/products?${query}`).expect(200);
      expect(res.body.items.map((item: { id: string }) => item.id)).toEqual(ids(...expected));
      // limit=1: every page merges the cursor into the same _id condition; overwriting it
      // with `$gt: after` would leak the neighbouring days into the later pages.
      expect((await walk(`${query}&limit=1`)).flat()).toEqual(ids(...expected));
    });

    it('should send one merged _id condition for a time range and a cursor', async () => {
      catalog.commands.clear();
      await catalog.http().get(`/products?createdOn=2020-03-10&after=${seeded.p2}&categoryId=${kitchen}`).expect(200);
      const [find] = catalog.commands.sent('find', 'products');
      expect(find!.filter).toEqual({
        categoryId: new ObjectId(kitchen),
        _id: {
          $gte: ObjectId.createFromTime(Date.parse('2020-03-10T00:00:00Z') / 1000),
          $lt: ObjectId.createFromTime(Date.parse('2020-03-11T00:00:00Z') / 1000),
          $gt: new ObjectId(seeded.p2),
        },
      });
    });
  });

  describe('bad input', () => {
    it('should not read after[$gt]= as an operator: both platforms parse query keys flat', async () => {
      const plain = await catalog.http().get('/products?limit=3').expect(200);
      await catalog.http().get(`/products?limit=3&after[$gt]=${UNKNOWN_ID}&categoryId[$ne]=x`).expect(200, plain.body);
    });

    it.each([
      ['0', '0 is out of range'],
      ['101', '101 is out of range'],
      ['1e9', '"1e9" must be written in digits 0-9 only, e.g. 20'],
      ['abc', '"abc" must be written in digits 0-9 only, e.g. 20'],
      ['-1', '"-1" must be written in digits 0-9 only, e.g. 20'],
      ['1.5', '"1.5" must be written in digits 0-9 only, e.g. 20'],
      ['', 'is empty'],
    ])('should answer 400 for limit=%s', async (limit, detail) => {
      await catalog
        .http()
        .get(`/products?limit=${limit}`)
        .expect(400, {
          statusCode: 400,
          message: `Validation failed (integer from 1 to 100 is expected): limit ${detail}`,
          error: 'Bad Request',
        });
    });

    it.each([
      [
        'after=abc',
        'after is not a cursor of this list (damaged); pass nextCursor or previousCursor of a page unchanged, or leave it out to start from the first page',
      ],
      [
        `after=${'a'.repeat(23)}g`,
        'after is not a cursor of this list (damaged); pass nextCursor or previousCursor of a page unchanged, or leave it out to start from the first page',
      ],
      [
        'categoryId=123',
        'Validation failed (ObjectId is expected): "123" is 3 characters long, expected 24 hex characters',
      ],
      [`ids=${UNKNOWN_ID},,${UNKNOWN_ID}`, 'Validation failed (ObjectId array is expected): item 1 is empty'],
      [
        'ids=nope',
        'Validation failed (ObjectId array is expected): item 0 "nope" is 4 characters long, expected 24 hex characters',
      ],
      [
        'createdFrom=yesterday',
        'createdFrom must be an ISO 8601 date (2026-12-02) or date-time with offset (2026-12-02T10:00:00Z), got "yesterday"',
      ],
      [
        'createdFrom=2020-03-11&createdTo=2020-03-10',
        'createdFrom must not be after createdTo: 2020-03-11T00:00:00.000Z is after 2020-03-10T00:00:00.000Z',
      ],
      ['createdOn=2020-3-1', 'createdOn must be a day as YYYY-MM-DD, e.g. 2026-12-02, got "2020-3-1"'],
      ['createdOn=2021-02-29', 'createdOn 2021-02-29 is not a day of the calendar; pick one that exists'],
      [
        'createdOn=2020-03-10&tz=Mars/Olympus',
        'tz must be an IANA time zone such as "UTC" or "Europe/Prague", got "Mars/Olympus"',
      ],
    ])('should answer 400 for %s', async (query, message) => {
      const res = await catalog.http().get(`/products?${query}`);
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    });
  });
});
