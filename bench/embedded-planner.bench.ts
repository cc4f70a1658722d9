/**
 * Embedded test server: indexed reads through the driver at 1k and 100k
 * documents (find by `_id`, by a unique index, a keyset page of 20,
 * findOneAndUpdate by `_id`, countDocuments on an index), the ping round
 * trip, and memory per stored document. Indexed operations should cost
 * about the same at both sizes (issue #11: within 2×).
 */
import { type Collection, MongoClient, ObjectId } from 'mongodb';

import { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import { type BenchRow, type BenchTable, measure } from './harness.js';

const SIZES = [1_000, 100_000];
const BATCH = 5_000;

async function fill(collection: Collection, size: number): Promise<ObjectId[]> {
  const ids = Array.from({ length: size }, (_, i) => ObjectId.createFromTime(1_700_000_000 + i));
  for (let offset = 0; offset < size; offset += BATCH) {
    await collection.insertMany(
      ids.slice(offset, offset + BATCH).map((_id, j) => ({
        _id,
        slug: `product-${offset + j}`,
        name: `Product ${offset + j}`,
        price: (offset + j) % 1000,
        category: `c${(offset + j) % 50}`,
      })),
    );
  }
  await collection.createIndex({ slug: 1 }, { unique: true });
  await collection.createIndex({ category: 1, _id: 1 });
  return ids;
}

type Ops = Record<string, () => Promise<number>>;

function operations(collection: Collection, ids: ObjectId[]): Ops {
  let i = 0;
  const pick = () => ids[(i = (i * 7919 + 13) % ids.length)]!;
  return {
    'find by _id': async () => (await collection.findOne({ _id: pick() }), 1),
    'find by unique slug': async () => (
      await collection.findOne({ slug: `product-${(i = (i + 7919) % ids.length)}` }),
      1
    ),
    'keyset page of 20 (_id range + sort + limit)': async () => (
      await collection
        .find({ _id: { $gt: pick() } })
        .sort({ _id: 1 })
        .limit(20)
        .toArray(),
      1
    ),
    'findOneAndUpdate by _id': async () => (
      await collection.findOneAndUpdate({ _id: pick() }, { $inc: { price: 1 } }),
      1
    ),
    'countDocuments (one category, indexed)': async () => (await collection.countDocuments({ category: 'c7' }), 1),
  };
}

/** Runs the benchmark and returns its table. */
export async function run(): Promise<BenchTable> {
  const server = await EmbeddedMongoServer.start();
  const client = await new MongoClient(server.uri).connect();
  const rows: BenchRow[] = [];
  const targets: { description: string; met: boolean }[] = [];
  try {
    const pingOps = await measure(async () => (await client.db('admin').command({ ping: 1 }), 1), 1000);
    rows.push({ name: 'ping round trip', opsPerSec: pingOps, note: `${(1e6 / pingOps).toFixed(0)} µs/op` });
    const perSize = new Map<number, Record<string, number>>();
    for (const size of SIZES) {
      const collection = client.db('bench').collection(`planner_${size}`);
      global.gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      const ids = await fill(collection, size);
      global.gc?.();
      const perDoc = (process.memoryUsage().heapUsed - heapBefore) / size;
      rows.push({
        name: `memory per stored document at ${size.toLocaleString('en-US')}`,
        opsPerSec: 0,
        note: `${perDoc.toFixed(0)} bytes (heap growth / documents, 5 fields, 3 indexes)`,
      });
      const results: Record<string, number> = {};
      for (const [name, op] of Object.entries(operations(collection, ids))) {
        results[name] = await measure(op, 700);
        rows.push({
          name: `${name} at ${size.toLocaleString('en-US')}`,
          opsPerSec: results[name],
          note: `${(1e6 / results[name]).toFixed(0)} µs/op`,
        });
      }
      perSize.set(size, results);
      await collection.drop();
    }
    const small = perSize.get(SIZES[0]!)!;
    const large = perSize.get(SIZES[1]!)!;
    for (const name of Object.keys(small)) {
      const growth = small[name]! / large[name]!;
      rows.push({ name: `${name}: cost 100k / 1k`, opsPerSec: large[name]!, note: `${growth.toFixed(2)}×` });
      // A count reads every matching entry, and 100× the documents match: it grows with its answer, not a target.
      if (!name.startsWith('countDocuments')) {
        targets.push({ description: `${name} within 2× from 1k to 100k documents`, met: growth <= 2 });
      }
    }
    return {
      title: 'Embedded MongoDB server: indexed reads at 1k and 100k documents',
      baseline: 'ping round trip',
      rows,
      targets,
    };
  } finally {
    await client.close();
    await server.stop();
  }
}
