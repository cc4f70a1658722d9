import mongoose, { type Connection, Schema, Types } from 'mongoose';
import { startTestMongo, type TestMongo } from 'nestjs-objectid-mongo-server';
import { objectIdRange } from '../time/object-id-time.js';
import { keysetQuery, toKeysetPage } from './keyset-pagination.js';

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
});
