/**
 * Wide commands: an update writing 50,000 fields, one whose conflict is at
 * its end, an aggregation `$project` and `$addFields` of that width;
 * `$addToSet`, `$pullAll` and `$pull` of 40,000 values; a compound index past
 * mongod's 32 fields, a 65th index, a pipeline of more than 1,000 stages.
 * mongod answers each in well under a second or refuses it. The embedded
 * server compared every written path with every other one (18 s for an
 * update of 25,000 paths, growing with the square), looked each `$project`
 * field up in a list of the ones before it, compared each array value with
 * every other (27 s for `$addToSet` of 40,000), built an index of 4,000
 * fields (after which inserting 4,000 documents took 106 s) and ran
 * pipelines of any length: each held the hosting process meanwhile. Runs
 * against MONGO_URL too.
 */
import { type Document, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();

const WIDTH = 50_000;

/** `{ <prefix>0: value(0), <prefix>1: value(1), … }`, WIDTH fields. */
function wide(prefix: string, value: (i: number) => unknown): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (let i = 0; i < WIDTH; i++) spec[`${prefix}${i}`] = value(i);
  return spec;
}

describe('wide commands', () => {
  beforeEach(async () => {
    await (
      await fixture.fresh('wide')
    ).insertMany([
      { _id: 1, a: 1, s: 'x' },
      { _id: 2, a: 2, s: 'y' },
    ] as never[]);
  });

  it.each([
    ['$set', { $set: wide('f', (i) => i) }, 3 + WIDTH, (doc: Document) => doc.f49999 === 49_999],
    [
      '$set of dotted paths under one field',
      { $set: wide('o.f', (i) => i) },
      4,
      (doc: Document) => Object.keys(doc.o as Document).length === WIDTH,
    ],
  ])('should apply an update of %s on every path', async (_, update, fields, check) => {
    const collection = fixture.db.collection('wide');
    expect(await collection.updateOne({ _id: 1 } as never, update as never)).toMatchObject({
      matchedCount: 1,
      modifiedCount: 1,
    });
    const doc = (await collection.findOne({ _id: 1 } as never))!;
    expect(Object.keys(doc)).toHaveLength(fields);
    expect(check(doc)).toBe(true);
  });

  it.each([
    ['the last two paths', { $set: { ...wide('f', (i) => i), a: 1 }, $inc: { 'a.b': 1 } }, "'a.b'", "'a'"],
    ['the first path and the last', { $set: { a: 1, ...wide('f', (i) => i) }, $unset: { a: '' } }, "'a'", "'a'"],
  ])('should refuse an update whose conflict is at %s', async (_, update, longer, shorter) => {
    const error = await rejection(fixture.db.collection('wide').updateOne({ _id: 1 } as never, update as never));
    // A write error: its code, ConflictingUpdateOperators (the reply names no codeName for it).
    expect(error.code).toBe(40);
    expect(error.message).toBe(`Updating the path ${longer} would create a conflict at ${shorter}`);
    expect(await fixture.db.collection('wide').findOne({ _id: 1 } as never)).toEqual({ _id: 1, a: 1, s: 'x' });
  });

  it('should apply $addToSet, $pullAll and $pull $in of 40,000 values with MongoDB equality', async () => {
    const collection = fixture.db.collection('wide');
    const range = (from: number) => Array.from({ length: 40_000 }, (_, i) => from + i);
    const arr = async () => ((await collection.findOne({ _id: 1 } as never))!.arr as unknown[]).map(Number);
    await collection.updateOne({ _id: 1 } as never, { $set: { arr: [3, 1] } });
    await collection.updateOne(
      { _id: 1 } as never,
      {
        $addToSet: { arr: { $each: [1, 2, 2, 4, ...range(5), Long.fromNumber(3)] } },
      } as never,
    );
    expect(await arr()).toEqual([3, 1, 2, 4, ...range(5)]);
    await collection.updateOne({ _id: 1 } as never, { $pullAll: { arr: [...range(5), Long.fromNumber(1)] } } as never);
    expect(await arr()).toEqual([3, 2, 4]);
    await collection.updateOne({ _id: 1 } as never, { $push: { arr: [2, 9] } } as never);
    await collection.updateOne({ _id: 1 } as never, { $pull: { arr: { $in: [...range(100_000), 2] } } } as never);
    expect((await collection.findOne({ _id: 1 } as never))!.arr).toEqual([3, 4]);
  });

  it('should answer an aggregation $project of fields no document has', async () => {
    const docs = await fixture.db
      .collection('wide')
      .aggregate([{ $project: { ...wide('f', () => 1), s: 1 } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(docs).toEqual([
      { _id: 1, s: 'x' },
      { _id: 2, s: 'y' },
    ]);
  });

  it('should answer an aggregation $project of sub-fields of one field', async () => {
    const docs = await fixture.db
      .collection('wide')
      .aggregate([{ $set: { o: { f7: 7, g: 1 } } }, { $project: wide('o.f', () => 1) }, { $sort: { _id: 1 } }])
      .toArray();
    expect(docs).toEqual([
      { _id: 1, o: { f7: 7 } },
      { _id: 2, o: { f7: 7 } },
    ]);
  });

  it('should answer an aggregation $addFields of every field', async () => {
    const [doc] = await fixture.db
      .collection('wide')
      .aggregate([{ $match: { _id: 1 } }, { $addFields: wide('f', (i) => i) }])
      .toArray();
    expect(Object.keys(doc!)).toHaveLength(3 + WIDTH);
    expect(doc!.f34567).toBe(34_567);
  });

  it('should build a compound index of 32 fields and refuse one of 33 (13103): every write computes its keys', async () => {
    const collection = fixture.db.collection('wide');
    const key = (fields: number) =>
      Object.fromEntries(Array.from({ length: fields }, (_, i) => [`k${i}`, i % 2 ? -1 : 1]));
    expect(await collection.createIndex(key(32), { name: 'k32' })).toBe('k32');
    const error = await rejection(collection.createIndex(key(33), { name: 'k33' }));
    expect([error.code, error.codeName, error.message]).toEqual([13103, 'Location13103', 'too many compound keys']);
    expect((await collection.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'k32']);
  });

  const stages = (length: number) => Array.from({ length }, () => ({ $match: {} }));

  it.each([
    ['a pipeline', (length: number) => stages(length)],
    ['a $lookup pipeline', (length: number) => [{ $lookup: { from: 'wide', pipeline: stages(length), as: 'l' } }]],
    ['a $facet pipeline', (length: number) => [{ $facet: { f: stages(length) } }]],
    ['a $unionWith pipeline', (length: number) => [{ $unionWith: { coll: 'wide', pipeline: stages(length) } }]],
  ])('should run %s of 1,000 stages and refuse one of 1,001 (7749501)', async (_, pipeline) => {
    const collection = fixture.db.collection('wide');
    expect(await collection.aggregate(pipeline(1_000)).toArray()).not.toHaveLength(0);
    const error = await rejection(collection.aggregate(pipeline(1_001)).toArray());
    expect([error.code, error.message]).toEqual([7749501, 'Pipeline length must be no longer than 1000 stages.']);
  });

  it('should build 64 indexes with _id_ and refuse the 65th, also within one createIndexes, which then builds none', async () => {
    const collection = fixture.db.collection('wide');
    const specs = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => ({ key: { [`k${from + i}`]: 1 }, name: `k${from + i}` }));
    const whole = await rejection(collection.createIndexes(specs(0, 64)));
    expect([whole.code, whole.codeName, whole.message]).toEqual([
      67,
      'CannotCreateIndex',
      `add index fails, too many indexes for ${fixture.db.databaseName}.wide key:{ k63: 1 }`,
    ]);
    expect(await collection.listIndexes().toArray()).toHaveLength(1);
    await collection.createIndexes(specs(0, 63));
    const one = await rejection(collection.createIndex({ k63: 1 }, { name: 'k63' }));
    expect(one.message).toBe(`add index fails, too many indexes for ${fixture.db.databaseName}.wide key:{ k63: 1 }`);
    expect(await collection.listIndexes().toArray()).toHaveLength(64);
  });
});
