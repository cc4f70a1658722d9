import { jest } from '@jest/globals';
import { type Collection, MongoClient, ObjectId } from 'mongodb';

import { EmbeddedMongoServer } from '../embedded-mongo-server.js';
import { CollectionStore } from '../store/collection-store.js';

/**
 * countQuery: which counts the index answers alone (no document fetched, as
 * MongoDB's COUNT_SCAN) and which fetch and match. That the numbers are right
 * either way is conformance-planner.spec.ts's, against a collection scan.
 */
describe('countQuery', () => {
  let server: EmbeddedMongoServer;
  let client: MongoClient;
  let products: Collection;

  beforeAll(async () => {
    server = await EmbeddedMongoServer.start();
    client = await new MongoClient(server.uri).connect();
    products = client.db('plan_executor').collection('products');
    await products.createIndex({ category: 1, _id: 1 });
    await products.createIndex({ slug: 1 }, { unique: true });
    await products.createIndex({ tags: 1 });
    await products.createIndex({ name: 1 }, { collation: { locale: 'en', strength: 2 } });
    await products.insertMany(
      Array.from({ length: 40 }, (_, i) => ({
        slug: `p-${i}`,
        name: `Product ${i}`,
        category: `c${i % 4}`,
        price: i,
        tags: [`t${i % 3}`, 'all'],
      })),
    );
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  /** The count, and how many times stored documents were read to get it (one by one, or all for a scan). */
  async function counted(run: () => Promise<number>): Promise<[number, number]> {
    const get = jest.spyOn(CollectionStore.prototype, 'get');
    const documents = jest.spyOn(CollectionStore.prototype, 'documents');
    try {
      const n = await run();
      return [n, get.mock.calls.length + documents.mock.calls.length];
    } finally {
      get.mockRestore();
      documents.mockRestore();
    }
  }

  it.each<[string, Record<string, unknown>, number]>([
    ['an equality on a compound index’s first field', { category: 'c1' }, 10],
    ['an $eq on a unique index', { slug: { $eq: 'p-7' } }, 1],
    ['an equality matching nothing', { category: 'none' }, 0],
    ['a range of strings', { slug: { $gte: 'p-7', $lt: 'p-9' } }, 2],
    ['a range open upwards', { category: { $gt: 'c1' } }, 20],
    ['an equality, then a range', { category: 'c1', _id: { $gte: new ObjectId('000000000000000000000000') } }, 10],
    ['an equality on a multikey index', { tags: 't1' }, 13],
    ['a range on a multikey index', { tags: { $gt: 't0' } }, 26],
  ])('should count %s from the index alone', async (_, filter, expected) => {
    expect(await counted(() => products.countDocuments(filter))).toEqual([expected, 0]);
    expect(
      await counted(async () => (await client.db('plan_executor').command({ count: 'products', query: filter })).n),
    ).toEqual([expected, 0]);
  });

  it.each<[string, Record<string, unknown>, number]>([
    ['a range', { price: { $gte: 30 } }, 10],
    ['an equality and a field no index has', { category: 'c1', price: 5 }, 1],
    ['a string under the collation of none of the indexes', { name: 'product 3' }, 0],
    ['a $ne', { category: { $ne: 'c1' } }, 30],
  ])('should fetch and match the documents for %s', async (_, filter, expected) => {
    const [n, fetched] = await counted(() => products.countDocuments(filter));
    expect(n).toBe(expected);
    expect(fetched).toBeGreaterThan(0);
  });

  // An array in an array is indexed under more values than the matcher compares (see OrderedIndex).
  it('should fetch while a document holds an array in an array on a multikey field, and no longer once none does', async () => {
    const lists = client.db('plan_executor').collection<{ _id: number; tags: unknown[] }>('lists');
    await lists.createIndex({ tags: 1 });
    await lists.insertMany([
      { _id: 1, tags: [['x']] },
      { _id: 2, tags: ['x', 'y'] },
    ]);
    const [n, fetched] = await counted(() => lists.countDocuments({ tags: 'x' }));
    expect([n, fetched > 0]).toEqual([1, true]);
    // The same keys, no longer nested.
    await lists.updateOne({ _id: 1 }, { $set: { tags: ['x'] } });
    expect(await counted(() => lists.countDocuments({ tags: 'x' }))).toEqual([2, 0]);
    await lists.insertOne({ _id: 3, tags: [['x']] });
    await lists.deleteOne({ _id: 3 });
    expect(await counted(() => lists.countDocuments({ tags: 'x' }))).toEqual([2, 0]);
  });
});
