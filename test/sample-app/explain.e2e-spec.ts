/**
 * The sample app's reads walk an index (IXSCAN, or mongod's IDHACK for
 * `_id`), never the whole collection: its mongoose models and indexes, its
 * queries, explained by the server it runs on (embedded, or MONGO_URL).
 */
import mongoose, { type Connection, type Model, Types } from 'mongoose';
import { startTestMongo, type TestMongo } from 'nestjs-objectid-mongo-server';

import {
  accessPath,
  executionStats,
  stagesOf,
  winningPlan,
} from '../../packages/mongo-server/src/explain-plan.fixture.js';
import { Order, OrderSchema } from '../../sample-app/orders/schemas/order.schema.js';
import { Product, ProductSchema } from '../../sample-app/products/schemas/product.schema.js';

type Explain = Parameters<typeof winningPlan>[0];

describe('sample app queries use indexes', () => {
  let mongo: TestMongo;
  let connection: Connection;
  let products: Model<Product>;
  let orders: Model<Order>;
  const categoryId = new Types.ObjectId();
  const ids = Array.from({ length: 300 }, (_, i) => Types.ObjectId.createFromTime(1_750_000_000 + i));

  beforeAll(async () => {
    mongo = await startTestMongo();
    connection = await mongoose.createConnection(mongo.uri, { dbName: mongo.dbName }).asPromise();
    products = connection.model(Product.name, ProductSchema);
    orders = connection.model(Order.name, OrderSchema);
    await Promise.all([products.init(), orders.init()]);
    await products.insertMany(
      ids.map((_id, i) => ({
        _id,
        name: `P ${i}`,
        slug: `p-${i}`,
        slugs: [`p-${i}`],
        price: i,
        categoryId: i % 2 === 0 ? categoryId : new Types.ObjectId(),
      })),
    );
    await orders.insertMany(
      ids.map((_, i) => ({ number: `ORD-2026-${String(i).padStart(6, '0')}`, items: [], total: i })),
    );
  });

  afterAll(async () => {
    await connection?.close();
    await mongo?.stop();
  });

  const explain = async (query: { explain(verbosity: string): unknown }) => {
    const reply = (await query.explain('executionStats')) as Explain | Explain[];
    return Array.isArray(reply) ? reply[0]! : reply;
  };

  it('a product by id (findById)', async () => {
    const reply = await explain(products.findById(ids[17]).lean());
    expect(accessPath(winningPlan(reply)).indexName).toBe('_id_');
    expect(executionStats(reply)).toMatchObject({ nReturned: 1, totalDocsExamined: 1 });
  });

  it('a product by slug, current or old (the unique slugs index)', async () => {
    const reply = await explain(products.findOne({ slugs: 'p-42' }).lean());
    expect(accessPath(winningPlan(reply))).toMatchObject({ stage: 'IXSCAN', indexName: 'slugs_1' });
    expect(executionStats(reply)).toMatchObject({ nReturned: 1, totalDocsExamined: 1 });
  });

  it('a keyset page of products reads one page', async () => {
    const reply = await explain(
      products
        .find({ _id: { $gt: ids[100] } })
        .sort({ _id: 1 })
        .limit(21)
        .lean(),
    );
    const plan = winningPlan(reply);
    expect(accessPath(plan)).toEqual({ stage: 'IXSCAN', indexName: '_id_', direction: 'forward' });
    expect(stagesOf(plan).map((stage) => stage.stage)).not.toContain('SORT');
    expect(executionStats(reply).totalDocsExamined).toBeLessThanOrEqual(22);
  });

  it('a keyset page of one category walks { categoryId, _id }', async () => {
    const reply = await explain(
      products
        .find({ categoryId, _id: { $gt: ids[100] } })
        .sort({ _id: 1 })
        .limit(21)
        .lean(),
    );
    const plan = winningPlan(reply);
    expect(accessPath(plan)).toMatchObject({ stage: 'IXSCAN', indexName: 'categoryId_1__id_1' });
    expect(stagesOf(plan).map((stage) => stage.stage)).not.toContain('SORT');
    expect(executionStats(reply)).toMatchObject({ nReturned: 21, totalDocsExamined: 21 });
  });

  it('an order by number (the unique number index)', async () => {
    const reply = await explain(orders.findOne({ number: 'ORD-2026-000123' }).lean());
    expect(accessPath(winningPlan(reply))).toMatchObject({ stage: 'IXSCAN', indexName: 'number_1' });
    expect(executionStats(reply)).toMatchObject({ nReturned: 1, totalDocsExamined: 1 });
  });

  it('the latest orders by number', async () => {
    const reply = await explain(orders.find().sort({ number: -1 }).limit(5).lean());
    expect(accessPath(winningPlan(reply))).toEqual({ stage: 'IXSCAN', indexName: 'number_1', direction: 'backward' });
    expect(executionStats(reply)).toMatchObject({ nReturned: 5, totalDocsExamined: 5 });
  });
});
