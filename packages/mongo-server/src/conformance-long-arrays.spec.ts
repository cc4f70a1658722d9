/**
 * Conformance: arrays and documents of hundreds of thousands of elements,
 * which a document or command of a few MB holds and mongod takes, are
 * answered as mongod answers them. Each case failed with "Maximum call stack
 * size exceeded" while JavaScript passed the elements as a function's
 * arguments (`push(...array)`, `splice(at, 0, ...each)`, `Math.min(...)`,
 * `concat(...operands)`).
 * Written to hold against a real MongoDB 7 (MONGO_URL) too.
 */
import type { Document } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** More elements than V8 takes as a call's arguments. */
const LONG = 150_000;
const long = () => Array.from({ length: LONG }, (_, i) => i);

describe('conformance: long arrays and wide documents', () => {
  it('should $push a long $each at a $position', async () => {
    const items = await fx.fresh('long_push');
    await items.insertOne({ _id: 1, list: [-1, -2] } as Document);
    await items.updateOne({ _id: 1 } as Document, { $push: { list: { $each: long(), $position: 1 } } } as Document);
    const [doc] = await items
      .aggregate([{ $project: { n: { $size: '$list' }, ends: [{ $first: '$list' }, { $last: '$list' }] } }])
      .toArray();
    expect(doc).toEqual({ _id: 1, n: LONG + 2, ends: [-1, -2] });
  });

  it('should $zip a long list of inputs', async () => {
    const items = await fx.fresh('long_zip');
    await items.insertOne({ _id: 1 } as Document);
    const inputs = Array.from({ length: LONG }, (_, i) => [i, i + 1]);
    const [doc] = await items
      .aggregate([{ $project: { _id: 0, rows: { $map: { input: { $zip: { inputs } }, in: { $size: '$$this' } } } } }])
      .toArray();
    expect(doc).toEqual({ rows: [LONG, LONG] });
  });

  it('should $concatArrays a long list of operands', async () => {
    const items = await fx.fresh('long_concat');
    await items.insertOne({ _id: 1 } as Document);
    const operands = Array.from({ length: LONG }, (_, i) => [i]);
    const ends = { $let: { vars: { all: { $concatArrays: operands } }, in: [{ $size: '$$all' }, { $last: '$$all' }] } };
    const [doc] = await items.aggregate([{ $project: { _id: 0, ends } }]).toArray();
    expect(doc).toEqual({ ends: [LONG, LONG - 1] });
  });

  it('should apply a find projection whose sub-projection names many fields', async () => {
    const items = await fx.fresh('wide_projection');
    await items.insertOne({ _id: 1, a: { f7: 7, g: 1 }, b: 2 } as Document);
    const fields = Object.fromEntries(Array.from({ length: LONG }, (_, i) => [`f${i}`, 1]));
    expect(await items.find({}, { projection: { a: fields } }).toArray()).toEqual([{ _id: 1, a: { f7: 7 } }]);
  });

  it('should $lookup by a localField holding a long array', async () => {
    const local = await fx.fresh('long_local');
    const foreign = await fx.fresh('long_foreign');
    await local.insertOne({ _id: 1, ids: long() } as Document);
    await foreign.insertMany([{ _id: 5 }, { _id: LONG + 5 }] as Document[]);
    const [doc] = await local
      .aggregate([
        { $lookup: { from: 'long_foreign', localField: 'ids', foreignField: '_id', as: 'joined' } },
        { $project: { joined: 1 } },
      ])
      .toArray();
    expect(doc).toEqual({ _id: 1, joined: [{ _id: 5 }] });
  });

  it('should $lookup with a pipeline holding a long array', async () => {
    const local = await fx.fresh('long_local');
    const foreign = await fx.fresh('long_foreign');
    await local.insertMany([{ _id: 1 }, { _id: 2 }] as Document[]);
    await foreign.insertMany([{ _id: 5 }, { _id: LONG + 5 }] as Document[]);
    const results = await local
      .aggregate([
        { $lookup: { from: 'long_foreign', pipeline: [{ $match: { _id: { $in: long() } } }], as: 'joined' } },
      ])
      .toArray();
    expect(results).toEqual([
      { _id: 1, joined: [{ _id: 5 }] },
      { _id: 2, joined: [{ _id: 5 }] },
    ]);
  });
});
