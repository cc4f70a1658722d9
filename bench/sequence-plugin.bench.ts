/**
 * Documents per second numbered by `sequencePlugin` on the embedded MongoDB
 * server, one caller at a time over one connection, against taking the number
 * by hand with `SequenceService.next()` before `save()` (the same one
 * findAndModify per document, so the plugin should cost about nothing), and
 * `insertMany()` of 100 documents, whose numbers come from one `$inc` by 100.
 */
import mongoose, { Schema } from 'mongoose';
import { SequenceService, sequencePlugin } from '../src/sequence/index.js';
import { startTestMongo } from 'nestjs-objectid-mongo-server';
import { measureInterleaved, ratio, type BenchTable } from './harness.js';

const BATCH = 100;
const BY_HAND = 'SequenceService.next() + save() per document';
const PLUGIN_SAVE = 'sequencePlugin + save() per document';
const PLUGIN_MANY = `sequencePlugin + insertMany(${BATCH}), per document`;
const BLOCK_MANY = `SequenceService.nextBlock(${BATCH}) + insertMany(${BATCH}), per document`;

export async function run(): Promise<BenchTable> {
  const mongo = await startTestMongo();
  const connection = await mongoose.createConnection(mongo.uri, { dbName: mongo.dbName }).asPromise();
  try {
    const sequences = SequenceService.fromConnection(connection, { collectionName: 'bench_plugin_counters' });
    const shape = { n: { type: Number, required: true }, label: String };
    const numbered = (sequence: string) => {
      const schema = new Schema(shape);
      schema.plugin(sequencePlugin, { sequences, field: 'n', sequence });
      return schema;
    };
    // One collection per row, so no row inserts into a collection another row has already filled.
    const ByHand = connection.model('BenchByHand', new Schema(shape), 'bench_plugin_by_hand');
    const PluginSave = connection.model('BenchPluginSave', numbered('save'), 'bench_plugin_save');
    const PluginMany = connection.model('BenchPluginMany', numbered('many'), 'bench_plugin_many');
    const BlockMany = connection.model('BenchBlockMany', new Schema(shape), 'bench_plugin_block_many');
    await Promise.all([ByHand.init(), PluginSave.init(), PluginMany.init(), BlockMany.init()]);
    const labels = Array.from({ length: BATCH }, (_, i) => ({ label: `x${i}` }));

    const results = await measureInterleaved({
      [BY_HAND]: async () => {
        await new ByHand({ n: await sequences.next('by-hand'), label: 'x' }).save();
        return 1;
      },
      [PLUGIN_SAVE]: async () => {
        await new PluginSave({ label: 'x' }).save();
        return 1;
      },
      [PLUGIN_MANY]: async () => {
        await PluginMany.insertMany(labels);
        return BATCH;
      },
      [BLOCK_MANY]: async () => {
        const block = await sequences.nextBlock('block', BATCH);
        let n = block.first;
        await BlockMany.insertMany(labels.map((doc) => ({ ...doc, n: n++ })));
        return BATCH;
      },
    });
    const table: BenchTable = {
      title: 'sequencePlugin: numbered documents per second, one caller',
      baseline: BY_HAND,
      rows: Object.entries(results).map(([name, opsPerSec]) => ({ name, opsPerSec })),
    };
    for (const row of table.rows) row.note = `${ratio(table, row.name).toFixed(2)}× next() + save()`;
    const save = ratio(table, PLUGIN_SAVE);
    const many = ratio(table, PLUGIN_MANY) / ratio(table, BLOCK_MANY);
    table.targets = [
      { description: `plugin save ≥ 0.8× next() + save(): ${save.toFixed(2)}×`, met: save >= 0.8 },
      { description: `plugin insertMany ≥ 0.8× nextBlock() + insertMany(): ${many.toFixed(2)}×`, met: many >= 0.8 },
    ];
    return table;
  } finally {
    await connection.close();
    await mongo.stop();
  }
}
