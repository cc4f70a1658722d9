/**
 * Embedded test server: insert cost per document with a unique index, at
 * 1k, 10k and 50k documents. Unique checks are hash-map look-ups, so the
 * per-document cost should stay flat as the collection grows (O(n) total).
 */
import { MongoClient } from 'mongodb';

import { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import type { BenchRow, BenchTable } from './harness.js';

const SIZES = [1_000, 10_000, 50_000];
const BATCH = 1_000;

async function insertAll(client: MongoClient, size: number, label: string): Promise<number> {
  const collection = client.db('bench').collection(`unique_${label}_${size}`);
  await collection.createIndex({ slug: 1 }, { unique: true });
  const start = performance.now();
  for (let offset = 0; offset < size; offset += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, size - offset) }, (_, i) => ({
      slug: `s-${offset + i}`,
      n: offset + i,
    }));
    await collection.insertMany(docs);
  }
  const elapsed = performance.now() - start;
  if ((await collection.countDocuments()) !== size) throw new Error(`bench: expected ${size} documents`);
  return elapsed;
}

/** Runs the benchmark and returns its table. */
export async function run(): Promise<BenchTable> {
  const server = await EmbeddedMongoServer.start();
  const client = await new MongoClient(server.uri).connect();
  try {
    await insertAll(client, 1_000, 'warmup'); // warm-up: JIT, connection pool
    const perDocUs = new Map<number, number>();
    const rows: BenchRow[] = [];
    for (const size of SIZES) {
      const ms = await insertAll(client, size, 'run');
      const us = (ms * 1000) / size;
      perDocUs.set(size, us);
      rows.push({
        name: `insertMany ${size.toLocaleString('en-US')} docs (unique index)`,
        opsPerSec: (size * 1000) / ms,
        note: `${us.toFixed(1)} µs/doc`,
      });
    }
    const growth = perDocUs.get(50_000)! / perDocUs.get(1_000)!;
    rows.push({
      name: 'per-doc cost ratio 50k / 1k',
      opsPerSec: rows[rows.length - 1]!.opsPerSec,
      note: `${growth.toFixed(2)}× (target ≤ 2×)`,
    });
    return {
      title: 'Embedded MongoDB server: inserts with a unique index',
      baseline: rows[0]!.name,
      rows,
      targets: [{ description: 'ratio between sizes ≈ constant (O(n), not O(n²))', met: growth <= 2 }],
    };
  } finally {
    await client.close();
    await server.stop();
  }
}
