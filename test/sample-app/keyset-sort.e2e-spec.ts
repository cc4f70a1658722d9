import 'reflect-metadata';
import mongoose from 'mongoose';
import { CATALOG_PLATFORMS, startCatalog, UNKNOWN_ID, type CatalogTestApp } from './catalog-test-app.js';

const { ObjectId } = mongoose.mongo;

interface Page {
  items: { id: string; price: number; name: string }[];
  nextCursor: string | null;
  previousCursor: string | null;
  hasNext: boolean;
  hasPrevious: boolean;
}

const SORTS = ['_id', '-_id', 'price', '-price', 'name', '-name'] as const;
const FIX = 'pass nextCursor or previousCursor of a page unchanged, or leave it out to start from the first page';
const b64 = (json: unknown) =>
  Buffer.from(typeof json === 'string' ? json : JSON.stringify(json)).toString('base64url');

describe.each(CATALOG_PLATFORMS)('catalog product list in any sort on %s', (platform) => {
  let catalog: CatalogTestApp;
  let kitchen: string;
  let kitchenUrl: string;

  /** One page, checked for the invariants every page keeps. */
  async function get(path: string): Promise<Page> {
    const page: Page = (await catalog.http().get(path).expect(200)).body;
    expect(page.hasNext).toBe(page.nextCursor !== null);
    expect(page.hasPrevious).toBe(page.previousCursor !== null);
    return page;
  }

  /** Every product in `sort` order, straight from the database: the oracle. */
  async function sorted(sort: string, filter: Record<string, unknown> = {}): Promise<string[]> {
    const field = sort.replace(/^-/, '');
    const direction: 1 | -1 = sort.startsWith('-') ? -1 : 1;
    const order = field === '_id' ? { _id: direction } : { [field]: direction, _id: direction };
    const docs = await catalog.connection.db!.collection('products').find(filter).sort(order).toArray();
    return docs.map((doc) => doc._id.toHexString());
  }

  beforeAll(async () => {
    catalog = await startCatalog(platform);
    const category = (await catalog.http().post('/categories').send({ name: 'Kitchen' }).expect(201)).body;
    [kitchen, kitchenUrl] = [category.id, category.url];
    const garden = (await catalog.http().post('/categories').send({ name: 'Garden' }).expect(201)).body.id;
    // Prices with many ties (0, 2.5, 5, 7.5), a few in the garden.
    for (let i = 0; i < 17; i++) {
      const body = { name: `Item ${String.fromCharCode(97 + ((i * 7) % 17))}`, price: (i % 4) * 2.5 };
      await catalog
        .http()
        .post('/products')
        .send({ ...body, categoryId: i % 6 === 0 ? garden : kitchen })
        .expect(201);
    }
    // Names that tie too (slugs stay unique): what an import could store.
    await catalog.connection.db!.collection('products').insertMany(
      ['Item c', 'Item c', 'Item k'].map((name, i) => ({
        _id: new ObjectId(),
        name,
        slug: `twin-${i}`,
        slugs: [`twin-${i}`],
        price: 5,
        categoryId: new ObjectId(kitchen),
        relatedIds: [],
      })),
    );
  });
  afterAll(() => catalog?.close());

  describe.each(SORTS)('sort=%s', (sort) => {
    it.each([1, 3, 7, 100])(
      'should walk every page forwards and backwards with %i per page, as one sorted query lists them',
      async (limit) => {
        const all = await sorted(sort);
        const forward: Page[] = [await get(`/products?sort=${sort}&limit=${limit}`)];
        expect(forward[0].hasPrevious).toBe(false);
        while (forward[forward.length - 1].hasNext) {
          const after = forward[forward.length - 1].nextCursor!;
          forward.push(await get(`/products?sort=${sort}&limit=${limit}&after=${after}`));
          expect(forward.length).toBeLessThanOrEqual(all.length);
        }
        expect(forward.flatMap((page) => page.items.map((item) => item.id))).toEqual(all);
        expect(forward.slice(0, -1).every((page) => page.items.length === limit)).toBe(true);

        const backward: Page[] = [forward[forward.length - 1]];
        while (backward[0].hasPrevious) {
          backward.unshift(await get(`/products?sort=${sort}&limit=${limit}&before=${backward[0].previousCursor}`));
          expect(backward.length).toBeLessThanOrEqual(all.length);
        }
        // The same pages: a before page is the one the after page before it was.
        expect(backward.map((page) => page.items)).toEqual(forward.map((page) => page.items));
      },
    );

    it('should neither repeat nor skip a product when others are created between pages', async () => {
      const seen: string[] = [];
      let page = await get(`/products?sort=${sort}&limit=4`);
      seen.push(...page.items.map((item) => item.id));
      page = await get(`/products?sort=${sort}&limit=4&after=${page.nextCursor}`);
      seen.push(...page.items.map((item) => item.id));
      const reached = seen[seen.length - 1];
      // One product at each end of every order: behind the position reached, or ahead of it.
      const created: string[] = [];
      for (const [name, price] of [
        ['Aaa new', 0],
        ['Zzz new', 999],
      ] as const) {
        created.push(
          (await catalog.http().post('/products').send({ name, price, categoryId: kitchen }).expect(201)).body.id,
        );
      }
      while (page.hasNext) {
        page = await get(`/products?sort=${sort}&limit=4&after=${page.nextCursor}`);
        seen.push(...page.items.map((item) => item.id));
      }
      const now = await sorted(sort);
      // Those created behind the position reached are not seen; those ahead are, each once.
      const expected = now.filter((id) => !created.includes(id) || now.indexOf(id) > now.indexOf(reached));
      for (const id of created) await catalog.http().delete(`/products/${id}`).expect(204);
      expect(seen).toEqual(expected);
      // New ids are the largest: both ahead in id order, both behind newest first; one of each in the others.
      expect(seen.filter((id) => created.includes(id))).toHaveLength({ _id: 2, '-_id': 0 }[sort as string] ?? 1);
    });
  });

  it('should page a category under its canonical URL in any sort, both ways', async () => {
    const all = await sorted('-price', { categoryId: new ObjectId(kitchen) });
    const first = await get(`${kitchenUrl}/products?sort=-price&limit=5`);
    const second = await get(`${kitchenUrl}/products?sort=-price&limit=5&after=${first.nextCursor}`);
    expect([...first.items, ...second.items].map((item) => item.id)).toEqual(all.slice(0, 10));
    expect(await get(`${kitchenUrl}/products?sort=-price&limit=5&before=${second.previousCursor}`)).toEqual(first);
  });

  it('should ask MongoDB for the price, then the _id, past the cursor (from the price on), in { price, _id } order, without skip', async () => {
    const first = await get('/products?sort=price&limit=3');
    const last = first.items[2];
    catalog.commands.clear();
    await get(`/products?sort=price&limit=3&after=${first.nextCursor}`);
    const [find] = catalog.commands.sent('find', 'products');
    expect(find).toMatchObject({
      filter: {
        price: { $gte: last.price },
        $or: [{ price: { $gt: last.price } }, { price: last.price, _id: { $gt: new ObjectId(last.id) } }],
      },
      limit: 4,
    });
    expect(Object.fromEntries(find!.sort as Map<string, number>)).toEqual({ price: 1, _id: 1 });
    expect(find).not.toHaveProperty('skip');
  });

  it('should read newest first by _id and accept a product id as the cursor there', async () => {
    const all = await sorted('-_id');
    const page = await get(`/products?sort=-_id&limit=2&after=${all[3].toUpperCase()}`);
    expect(page.items.map((item) => item.id)).toEqual(all.slice(4, 6));
    expect((await get(`/products?sort=-_id&limit=2&before=${all[3]}`)).items.map((item) => item.id)).toEqual(
      all.slice(1, 3),
    );
  });

  describe('bad sorts and cursors', () => {
    let priceCursor: string;
    let idCursor: string;

    beforeAll(async () => {
      priceCursor = (await get('/products?sort=price&limit=2')).nextCursor!;
      idCursor = (await get('/products?limit=2')).nextCursor!;
    });

    const notACursor = (name: string, what: string) => `${name} is not a cursor of this list (${what}); ${FIX}`;
    const otherSort = (name: string, sort: string) =>
      `${name} was made for another sort than sort=${sort}; send the sort of the page it came from, or leave ${name} out to start from the first page`;
    const choices = '_id, -_id, price, -price, name, -name';
    const cases: [string, () => string, string][] = [
      ['a flipped character', () => `sort=price&after=${flip(priceCursor)}`, notACursor('after', 'damaged')],
      ['a truncated cursor', () => `sort=price&after=${priceCursor.slice(0, 20)}`, notACursor('after', 'damaged')],
      ['a cursor of another sort', () => `sort=-price&after=${priceCursor}`, otherSort('after', '-price')],
      ['an _id cursor with sort=price', () => `sort=price&before=${idCursor}`, otherSort('before', 'price')],
      ['a price cursor in _id order', () => `before=${priceCursor}`, otherSort('before', '_id')],
      [
        'a string where prices are numbers',
        () => `sort=price&after=${b64({ v: 1, s: 'price', i: UNKNOWN_ID, t: 's', k: '5' })}`,
        notACursor('after', 'a string value, but price holds none'),
      ],
      [
        'a __proto__ key',
        () => `sort=price&after=${b64(`{"v":1,"s":"price","i":"${UNKNOWN_ID}","t":"n","k":"5","__proto__":{}}`)}`,
        notACursor('after', 'damaged'),
      ],
      [
        'an operator for a value',
        () => `sort=price&after=${b64({ v: 1, s: 'price', i: UNKNOWN_ID, t: 'n', k: { $gt: 0 } })}`,
        notACursor('after', 'damaged'),
      ],
      [
        'an oversized cursor',
        () => `sort=name&after=${'A'.repeat(1500)}`,
        `after is 1500 characters long, longer than any cursor of this list (1024); ${FIX}`,
      ],
      ['a repeated cursor', () => `after=${idCursor}&after=${idCursor}`, notACursor('after', 'given 2 times')],
      ['a product id in price order', () => `sort=price&after=${UNKNOWN_ID}`, notACursor('after', 'damaged')],
      [
        'after and before',
        () => `after=${idCursor}&before=${idCursor}`,
        'after and before cannot be used together; send one of them',
      ],
      ['an unknown sort', () => 'sort=weight', `sort must be one of ${choices}; got "weight"`],
      ['a sort on an unindexed field', () => 'sort=slug', `sort must be one of ${choices}; got "slug"`],
      ['sort=__proto__', () => 'sort=__proto__', `sort must be one of ${choices}; got "__proto__"`],
      ['a repeated sort', () => 'sort=price&sort=name', `sort is given 2 times; send it once, one of ${choices}`],
    ];

    it.each(cases)('should answer 400 for %s, before asking the database', async (_, query, message) => {
      catalog.commands.clear();
      const res = await catalog.http().get(`/products?${query()}`);
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
      expect(catalog.commands.names('products')).toEqual([]);
    });

    it('should answer 400 on the category list too', async () => {
      const res = await catalog.http().get(`${kitchenUrl}/products?sort=-name&before=${priceCursor}`);
      expect(res.body).toEqual({ statusCode: 400, message: otherSort('before', '-name'), error: 'Bad Request' });
    });
  });
});

/** The cursor with one character in its middle changed to another base64url character. */
function flip(cursor: string): string {
  const at = Math.floor(cursor.length / 2);
  return cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
}
