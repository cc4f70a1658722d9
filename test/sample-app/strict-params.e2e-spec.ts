/**
 * Query and path parameters are read strictly on every route: integers are
 * decimal digits and nothing else, dates are read in the request's `tz`, and
 * every 400 says what was wrong in the app's words.
 */
import 'reflect-metadata';
import mongoose from 'mongoose';
import { CATALOG_PLATFORMS, startCatalog, type CatalogTestApp } from './catalog-test-app.js';

const { ObjectId } = mongoose.mongo;

const RANGE = '1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z';
const LIMIT = 'Validation failed (integer from 1 to 100 is expected): limit';
const COUNT = 'Validation failed (integer from 1 to 100 is expected): count';

/** An id created at `iso` (what a product inserted then would have). */
function idAt(iso: string): mongoose.mongo.ObjectId {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  return new ObjectId(seconds.toString(16).padStart(8, '0') + new ObjectId().toHexString().slice(8));
}

// In March 2020 New York was at UTC-4 (daylight saving time from the 8th), Tokyo at +9, Kiritimati at +14.
const SEEDED = {
  p1: '2020-03-09T23:30:00Z',
  p2: '2020-03-10T00:00:00Z',
  p3: '2020-03-10T12:00:00Z',
  p4: '2020-03-10T23:59:59Z',
  p5: '2020-03-11T03:59:59Z',
  p6: '2020-03-11T04:00:00Z',
} as const;
type Seeded = keyof typeof SEEDED;

describe.each(CATALOG_PLATFORMS)('strict query and path parameters on %s', (platform) => {
  let catalog: CatalogTestApp;
  let orderNumber: string;
  const seeded = {} as Record<Seeded, string>;

  beforeAll(async () => {
    catalog = await startCatalog(platform);
    const categoryId = (await catalog.http().post('/categories').send({ name: 'Kitchen' }).expect(201)).body.id;
    // Products "created" in 2020: inserted with ids of that time, as an import would.
    await catalog.connection.db!.collection('products').insertMany(
      Object.entries(SEEDED).map(([name, iso]) => {
        const _id = idAt(iso);
        seeded[name as Seeded] = _id.toHexString();
        return { _id, name, slug: name, slugs: [name], price: 1, categoryId: new ObjectId(categoryId), relatedIds: [] };
      }),
    );
    const product = (await catalog.http().post('/products').send({ name: 'Pan', price: 20, categoryId }).expect(201))
      .body;
    orderNumber = (
      await catalog
        .http()
        .post('/orders')
        .send({ items: [{ productId: product.id, quantity: 1 }] })
        .expect(201)
    ).body.number;
  });
  afterAll(() => catalog?.close());

  async function badRequest(path: string): Promise<unknown> {
    const res = await catalog.http().get(path);
    expect([res.status, res.body.statusCode, res.body.error]).toEqual([400, 400, 'Bad Request']);
    return res.body.message;
  }

  describe('integers: decimal digits only', () => {
    it.each([
      ['', 1],
      ['count=1', 1],
      ['count=007', 7],
      ['count=100', 100],
    ])('should generate for ?%s %d ids', async (query, expected) => {
      const res = await catalog.http().get(`/object-ids/generate?${query}`).expect(200);
      expect(res.body.ids).toHaveLength(expected);
    });

    it.each([
      ['limit=1', 1],
      ['limit=02', 2],
      ['limit=100', 7],
    ])('should list for ?%s %d products', async (query, expected) => {
      const res = await catalog.http().get(`/products?${query}`).expect(200);
      expect(res.body.items).toHaveLength(expected);
    });

    // Each of these was a number before: the global pipe turned the text into +value.
    it.each([
      ['0x10', '"0x10" must be written in digits 0-9 only'],
      ['0X10', '"0X10" must be written in digits 0-9 only'],
      ['0b11', '"0b11" must be written in digits 0-9 only'],
      ['0o7', '"0o7" must be written in digits 0-9 only'],
      ['1e1', '"1e1" must be written in digits 0-9 only'],
      ['1e2', '"1e2" must be written in digits 0-9 only'],
      ['%205', '" 5" must be written in digits 0-9 only'],
      ['5%20', '"5 " must be written in digits 0-9 only'],
      ['%095', '"\\t5" must be written in digits 0-9 only'],
      ['+5', '" 5" must be written in digits 0-9 only'], // `+` is a space in a query string
      ['%2B5', '"+5" must be written in digits 0-9 only'],
      ['-1', '"-1" must be written in digits 0-9 only'],
      ['-0', '"-0" must be written in digits 0-9 only'],
      ['5.0', '"5.0" must be written in digits 0-9 only'],
      ['1.5', '"1.5" must be written in digits 0-9 only'],
      ['%EF%BC%95', '"５" must be written in digits 0-9 only'], // fullwidth 5
      ['5%00', '"5\\u0000" must be written in digits 0-9 only'],
      ['Infinity', '"Infinity" must be written in digits 0-9 only'],
      ['', 'is empty'],
      ['0', '0 is out of range'],
      ['101', '101 is out of range'],
      ['1000000000', '1000000000 is out of range'],
    ])('should answer 400 for the integer %j on both routes', async (value, detail) => {
      const example = (name: string) => (detail.startsWith('"') ? `, e.g. ${name === 'limit' ? 20 : 1}` : '');
      expect([
        await badRequest(`/products?limit=${value}`),
        await badRequest(`/object-ids/generate?count=${value}`),
      ]).toEqual([`${LIMIT} ${detail}${example('limit')}`, `${COUNT} ${detail}${example('count')}`]);
    });

    it('should answer 400 for a repeated integer', async () => {
      expect(await badRequest('/object-ids/generate?count=1&count=2')).toBe(`${COUNT} is given 2 times; send it once`);
    });
  });

  describe('order numbers', () => {
    it('should find an order by its number, and answer 404 for a well-formed unknown one', async () => {
      expect(orderNumber).toMatch(/^ORD-\d{4}-000001$/);
      await catalog.http().get(`/orders/by-number/${orderNumber}`).expect(200);
      await catalog.http().get('/orders/by-number/ORD-1999-000001').expect(404);
    });

    it.each([
      ['ORD-2026-0x002a', 'ORD-2026-0x002a'],
      ['ORD-2026-00001e', 'ORD-2026-00001e'],
      ['ORD-2026-1e3', 'ORD-2026-1e3'],
      ['ORD-2026-42', 'ORD-2026-42'],
      ['ORD-2026-%2B00042', 'ORD-2026-+00042'],
      ['ORD-2026-%20000042', 'ORD-2026- 000042'],
      ['ord-2026-000001', 'ord-2026-000001'],
      ['ORD-26-000001', 'ORD-26-000001'],
    ])('should answer 400 for /orders/by-number/%s before asking the database', async (path, shown) => {
      catalog.commands.clear();
      expect(await badRequest(`/orders/by-number/${path}`)).toBe(
        `Validation failed (order number is expected): number "${shown}" must be ORD-, the year, - and a number ` +
          'of at least 6 digits 0-9, e.g. ORD-2026-000042',
      );
      expect(catalog.commands.names('orders')).toEqual([]);
    });
  });

  describe('dates in tz', () => {
    it.each([
      // A date is midnight in tz for createdFrom and createdTo too, not only for createdOn.
      ['createdFrom=2020-03-10&createdTo=2020-03-11', ['p2', 'p3', 'p4']],
      ['createdFrom=2020-03-10&createdTo=2020-03-11&tz=America/New_York', ['p3', 'p4', 'p5']],
      ['createdFrom=2020-03-11&createdTo=2020-03-12&tz=Pacific/Kiritimati', ['p3', 'p4', 'p5', 'p6']],
      ['createdTo=2020-03-11&tz=Asia/Tokyo', ['p1', 'p2', 'p3']],
      ['createdOn=2020-03-10&tz=America/New_York', ['p3', 'p4', 'p5']],
      ['createdOn=2020-03-11&tz=Asia/Tokyo', ['p4', 'p5', 'p6']],
      // A date-time carries its own offset: tz changes nothing.
      ['createdFrom=2020-03-10T00:00:00Z&createdTo=2020-03-11T00:00:00Z&tz=America/New_York', ['p2', 'p3', 'p4']],
      ['createdFrom=2020-03-10&createdTo=2020-03-10T12:00:01Z&tz=Asia/Tokyo', ['p1', 'p2', 'p3']],
      // Equal bounds are an empty range, not a mistake.
      ['createdFrom=2020-03-10&createdTo=2020-03-10', []],
    ] as const)('should read %s', async (query, expected) => {
      const res = await catalog.http().get(`/products?${query}`).expect(200);
      expect(res.body.items.map((item: { id: string }) => item.id)).toEqual(expected.map((name) => seeded[name]));
    });

    it.each([
      [
        'createdFrom=2020-03-11&createdTo=2020-03-10',
        'createdFrom must not be after createdTo: 2020-03-11T00:00:00.000Z is after 2020-03-10T00:00:00.000Z',
      ],
      [
        // In New York the day starts after the instant given as createdTo.
        'createdFrom=2020-03-10&createdTo=2020-03-10T02:00:00Z&tz=America/New_York',
        'createdFrom must not be after createdTo: 2020-03-10T04:00:00.000Z is after 2020-03-10T02:00:00.000Z',
      ],
      [
        'createdOn=1969-12-31',
        `createdOn 1969-12-31 (a day in UTC) is not wholly within the times an ObjectId can hold, ${RANGE}; pick a day between`,
      ],
      [
        'createdOn=1970-01-01&tz=Asia/Tokyo',
        `createdOn 1970-01-01 (a day in Asia/Tokyo) is not wholly within the times an ObjectId can hold, ${RANGE}; pick a day between`,
      ],
      [
        'createdFrom=1969-12-31',
        `createdFrom 1969-12-31 (a day in UTC) is not wholly within the times an ObjectId can hold, ${RANGE}; pick a day between`,
      ],
      [
        'createdTo=2106-02-07',
        `createdTo 2106-02-07 (a day in UTC) is not wholly within the times an ObjectId can hold, ${RANGE}; pick a day between`,
      ],
      [
        'createdFrom=1969-12-31T23:59:59Z',
        `createdFrom 1969-12-31T23:59:59.000Z is outside the times an ObjectId can hold, ${RANGE}`,
      ],
      ['createdOn=2021-02-29', 'createdOn 2021-02-29 is not a day of the calendar; pick one that exists'],
      [
        'createdFrom=2020-03-10T10:00',
        'createdFrom must be an ISO 8601 date (2026-12-02) or date-time with offset (2026-12-02T10:00:00Z), got "2020-03-10T10:00"',
      ],
      [
        'createdOn=2020-03-10&tz=Mars/Olympus',
        'tz must be an IANA time zone such as "UTC" or "Europe/Prague", got "Mars/Olympus"',
      ],
    ])('should answer 400 for %s', async (query, message) => {
      expect(await badRequest(`/products?${query}`)).toBe(message);
    });
  });
});
