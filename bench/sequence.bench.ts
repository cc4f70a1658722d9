/**
 * Numbers per second of SequenceService on the embedded MongoDB server, one
 * caller at a time over one connection (latency-bound, as a request handler
 * sees it): `next()` (one findAndModify per number) against `nextBlock(100)`
 * and the `cache: 100` allocator (one findAndModify per 100 numbers).
 *
 * Also against mongoose-sequence 6. Its plugin cannot run on mongoose 9 (its
 * pre-save hook is callback-style, `next is not a function`), so its pattern is
 * reproduced with its own counter schema and index: per number one
 * findOneAndUpdate upsert with an empty update (to create the counter), then
 * one findOneAndUpdate `$inc`, then the document's save.
 */
import mongoose, { Schema } from 'mongoose';
import { SequenceService } from '../src/sequence/index.js';
import { startTestMongo } from 'nestjs-objectid-mongo-server';
import { measure, ratio, type BenchTable } from './harness.js';

const MS = 1500;
const NEXT = 'SequenceService.next()';
const BLOCK = 'SequenceService.nextBlock(100)';
const CACHE = 'SequenceService.next() with cache: 100';
const MS_NUMBER = 'mongoose-sequence pattern, number only (2 findOneAndUpdate)';
const MS_DOC = 'mongoose-sequence pattern, Model.create() per document';
const NEXT_DOC = 'SequenceService.next() + Model.create() per document';
const CACHE_DOC = 'SequenceService cache: 100 + Model.create() per document';

export async function run(): Promise<BenchTable> {
  const mongo = await startTestMongo();
  const connection = await mongoose.createConnection(mongo.uri, { dbName: mongo.dbName }).asPromise();
  try {
    const sequences = SequenceService.fromConnection(connection, {
      collectionName: 'bench_counters',
      definitions: { cached: { cache: 100 } },
    });
    // mongoose-sequence's counter model, as its _createCounterModel() builds it.
    const counterSchema = new Schema(
      {
        id: { type: String, required: true },
        reference_value: { type: Schema.Types.Mixed, required: true },
        seq: { type: Number, default: 1, required: true },
      },
      { collection: 'bench_ms_counters', validateBeforeSave: false, versionKey: false, _id: false },
    );
    counterSchema.index({ id: 1, reference_value: 1 }, { unique: true });
    const Counter = connection.model('BenchMsCounter', counterSchema);
    await Counter.init();
    const msNext = async (): Promise<number> => {
      const filter = { id: 'n', reference_value: 'n' };
      const created = await Counter.findOneAndUpdate(
        filter,
        {},
        { upsert: true, returnDocument: 'after', setDefaultsOnInsert: true, includeResultMetadata: true },
      );
      if (!created.lastErrorObject?.updatedExisting) return 1;
      const counter = await Counter.findOneAndUpdate(
        filter,
        { $inc: { seq: 1 } },
        { returnDocument: 'after', upsert: false },
      );
      return counter!.seq;
    };
    const msSchema = new Schema({ n: Number, label: String });
    msSchema.pre('save', async function () {
      if (this.isNew) this.n = await msNext();
    });
    const MsDoc = connection.model('BenchMsDoc', msSchema, 'bench_ms_documents');
    // One collection per row, so no row inserts into a collection another row has already filled.
    const Doc = connection.model('BenchDoc', new Schema({ n: Number, label: String }), 'bench_documents');
    const CachedDoc = connection.model(
      'BenchCachedDoc',
      new Schema({ n: Number, label: String }),
      'bench_cached_documents',
    );
    await Promise.all([MsDoc.init(), Doc.init(), CachedDoc.init()]);

    const table: BenchTable = { title: 'SequenceService: numbers per second, one caller', baseline: NEXT, rows: [] };
    const row = async (name: string, fn: () => Promise<number>) => {
      table.rows.push({ name, opsPerSec: await measure(fn, MS) });
    };
    await row(NEXT, async () => {
      await sequences.next('plain');
      return 1;
    });
    await row(BLOCK, async () => {
      await sequences.nextBlock('block', 100);
      return 100;
    });
    await row(CACHE, async () => {
      await sequences.next('cached');
      return 1;
    });
    await row(MS_NUMBER, async () => {
      await msNext();
      return 1;
    });
    await row(MS_DOC, async () => {
      await MsDoc.create({ label: 'x' });
      return 1;
    });
    await row(NEXT_DOC, async () => {
      await Doc.create({ n: await sequences.next('documents'), label: 'x' });
      return 1;
    });
    await row(CACHE_DOC, async () => {
      await CachedDoc.create({ n: await sequences.next('cached'), label: 'x' });
      return 1;
    });

    const blockRatio = ratio(table, BLOCK);
    const cacheRatio = ratio(table, CACHE);
    const versus = (a: string, b: string) => ratio(table, a) / ratio(table, b);
    for (const r of table.rows) r.note = `${ratio(table, r.name).toFixed(2)}× next()`;
    table.rows.find((r) => r.name === NEXT)!.note +=
      `; ${versus(NEXT, MS_NUMBER).toFixed(2)}× mongoose-sequence per number`;
    for (const name of [NEXT_DOC, CACHE_DOC]) {
      table.rows.find((r) => r.name === name)!.note +=
        `; ${versus(name, MS_DOC).toFixed(2)}× mongoose-sequence per document`;
    }
    const targets: BenchTable['targets'] = [
      { description: `nextBlock(100) ≥ 20× next(): ${blockRatio.toFixed(1)}×`, met: blockRatio >= 20 },
      { description: `cache: 100 ≥ 20× next(): ${cacheRatio.toFixed(1)}×`, met: cacheRatio >= 20 },
    ];
    table.targets = targets;
    return table;
  } finally {
    await connection.close();
    await mongo.stop();
  }
}
