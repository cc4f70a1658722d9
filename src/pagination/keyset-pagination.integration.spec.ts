import fc from 'fast-check';
import mongoose, { type Connection, Schema, Types } from 'mongoose';
import { startTestMongo, type TestMongo } from 'nestjs-objectid-mongo-server';
import { objectIdRange } from '../time/object-id-time.js';
import { keysetQuery, toKeysetPage, type KeysetQuery } from './keyset-pagination.js';
import { parseKeysetSort, type KeysetSortFields } from './keyset-sort.js';

interface Item {
  _id: Types.ObjectId;
  n: number;
}

describe('keyset pagination through mongoose', () => {
  let mongo: TestMongo;
  let connection: Connection;
  let Items: mongoose.Model<Item>;
  const ids: Types.ObjectId[] = [];

  beforeAll(async () => {
    mongo = await startTestMongo();
    connection = await mongoose.createConnection(mongo.uri).asPromise();
    Items = connection.model<Item>('Item', new Schema<Item>({ n: Number }));
    // Ids one second apart, so time ranges select exact slices.
    const start = Math.floor(Date.UTC(2026, 11, 2) / 1000);
    for (let n = 0; n < 45; n += 1) ids.push(Types.ObjectId.createFromTime(start + n));
    await Items.insertMany(ids.map((_id, n) => ({ _id, n })));
  });

  afterAll(async () => {
    await connection.close();
    await mongo.stop();
  });

  async function page(filter: Record<string, unknown>, after: Types.ObjectId | undefined, limit: number) {
    const q = keysetQuery(filter, { after, limit });
    return toKeysetPage(await Items.find(q.filter).sort(q.sort).limit(q.limit).lean<Item[]>(), limit);
  }

  it('should walk every document once, in _id order', async () => {
    const seen: number[] = [];
    let cursor: Types.ObjectId | undefined;
    const sizes: number[] = [];
    do {
      const result = await page({}, cursor, 20);
      sizes.push(result.items.length);
      seen.push(...result.items.map((item) => item.n));
      cursor = result.nextCursor ?? undefined;
    } while (cursor);
    expect(sizes).toEqual([20, 20, 5]);
    expect(seen).toEqual(Array.from({ length: 45 }, (_, n) => n));
  });

  it('should combine the cursor with an _id time range', async () => {
    const range = objectIdRange(ids[10].getTimestamp(), ids[30].getTimestamp());
    const first = await page({ _id: range }, undefined, 15);
    const second = await page({ _id: range }, first.nextCursor ?? undefined, 15);
    expect(first.items.map((i) => i.n)).toEqual(Array.from({ length: 15 }, (_, k) => k + 10));
    expect(second.items.map((i) => i.n)).toEqual([25, 26, 27, 28, 29]);
    expect(second.nextCursor).toBeNull();
  });

  it('should page newest first within a time range, both ways, with one merged _id condition', async () => {
    const range = objectIdRange(ids[10].getTimestamp(), ids[30].getTimestamp());
    const sort = parseKeysetSort('-_id');
    const run = async (q: KeysetQuery) =>
      toKeysetPage(await Items.find(q.filter).sort(q.sort).limit(q.limit).lean<Item[]>(), q);
    const first = await run(keysetQuery({ _id: range }, { sort, limit: 8 }));
    const second = await run(keysetQuery({ _id: range }, { sort, limit: 8, after: first.nextCursor! }));
    const q = keysetQuery({ _id: range }, { sort, limit: 8, before: second.previousCursor! });
    expect(Object.keys(q.filter)).toEqual(['_id']);
    const back = await run(q);
    expect(first.items.map((i) => i.n)).toEqual([29, 28, 27, 26, 25, 24, 23, 22]);
    expect(second.items.map((i) => i.n)).toEqual([21, 20, 19, 18, 17, 16, 15, 14]);
    expect(back).toEqual(first);
  });
});

// The property's documents: ties in every field, null and missing prices, astral characters in names.
const FIELDS: KeysetSortFields = {
  price: ['number', 'null'],
  name: 'string',
  at: 'date',
  amount: 'number',
};
const SORTS = ['_id', '-_id', 'price', '-price', 'name', '-name', 'at', '-at', 'amount', '-amount'];

const docArbitrary = fc.record({
  price: fc.oneof(
    fc.constantFrom(0, 1, 2.5, -3, 1e21),
    fc.double({ noNaN: true }),
    fc.constant(null),
    fc.constant(undefined),
  ),
  // Few distinct names, so many ties; astral characters check the byte order of strings.
  name: fc.constantFrom('a', 'B', 'b', 'é', '😀', 'z', 'ab', ''),
  at: fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
  amount: fc
    .constantFrom('0', '1.10', '1.1', '-5', '9999999999999999999.5', '0.001')
    .map((t) => Types.Decimal128.fromString(t)),
  category: fc.integer({ min: 0, max: 2 }),
});

describe('keyset pages in every sort (property, against the test server)', () => {
  let mongo: TestMongo;
  let connection: Connection;
  let run = 0;

  beforeAll(async () => {
    mongo = await startTestMongo();
    connection = await mongoose.createConnection(mongo.uri).asPromise();
  });

  afterAll(async () => {
    await connection.close();
    await mongo.stop();
  });

  it('should concatenate to one sorted query, without gaps or repeats, forwards and backwards, in every sort', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(docArbitrary, { maxLength: 40, size: 'medium' }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: SORTS.length, maxLength: SORTS.length }),
        fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
        fc.boolean(),
        async (docs, limits, category, signed) => {
          const collection = connection.collection(`docs_${(run += 1)}`);
          if (docs.length > 0) {
            await collection.insertMany(
              docs.map(({ price, ...rest }) => ({
                _id: new Types.ObjectId(),
                ...rest,
                ...(price !== undefined && { price }),
              })),
            );
          }
          const filter = category === undefined ? {} : { category };
          for (const [index, sortText] of SORTS.entries()) {
            const sort = parseKeysetSort(sortText, FIELDS);
            const limit = limits[index];
            const options = { sort, limit, ...(signed && { secret: 'k' }) };
            const order = { [sort.field]: sort.direction, _id: sort.direction };
            const all = (await collection.find(filter).sort(order).toArray()).map((d) => d._id.toHexString());
            const fetch = async (q: KeysetQuery) =>
              toKeysetPage(await collection.find(q.filter).sort(q.sort).limit(q.limit).toArray(), q);

            const forward: string[][] = [];
            let page = await fetch(keysetQuery(filter, options));
            expect(page.hasPrevious).toBe(false);
            forward.push(page.items.map((d) => d._id.toHexString()));
            while (page.nextCursor !== null) {
              page = await fetch(keysetQuery(filter, { ...options, after: page.nextCursor }));
              forward.push(page.items.map((d) => d._id.toHexString()));
              expect(forward.length).toBeLessThanOrEqual(all.length + 1);
            }
            expect([sortText, forward.flat()]).toEqual([sortText, all]);
            expect(forward.slice(0, -1).every((items) => items.length === limit)).toBe(true);

            const backward: string[][] = [forward[forward.length - 1]];
            while (page.previousCursor !== null) {
              page = await fetch(keysetQuery(filter, { ...options, before: page.previousCursor }));
              backward.unshift(page.items.map((d) => d._id.toHexString()));
              expect(page.hasNext).toBe(true);
              expect(backward.length).toBeLessThanOrEqual(all.length + 1);
            }
            expect([sortText, backward.flat()]).toEqual([sortText, all]);
          }
          await collection.drop();
        },
      ),
      { numRuns: 25 },
    );
  }, 300_000);
});
