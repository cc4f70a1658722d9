/**
 * Conformance: collation (locale, strength, numericOrdering, …) in queries,
 * sorts, distinct, counts, aggregation, writes, a collection's default,
 * collated unique indexes and the planner's rule for them, as MongoDB 7
 * documents it; through the driver and mongoose (works against a real
 * MongoDB via MONGO_URL).
 * @see https://www.mongodb.com/docs/manual/reference/collation/
 */
import { type Collection, type CollationOptions, type Document, MongoServerError } from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture, rejection } from './conformance.fixture.js';
import { accessPath, winningPlan } from './explain-plan.fixture.js';

const fx = useDriverFixture();

const CASE_INSENSITIVE: CollationOptions = { locale: 'en', strength: 2 };
const FRUITS = ['apple', 'Apple', 'APPLE', 'banana', 'Banana', 'cherry'];

/** Documents with numeric `_id`s (the driver's default schema types `_id` as an ObjectId). */
interface Row extends Document {
  _id: number;
}

async function freshRows(name: string): Promise<Collection<Row>> {
  return (await fx.fresh(name)) as unknown as Collection<Row>;
}

async function fruits(name = 'fruits') {
  const c = await freshRows(name);
  await c.insertMany(FRUITS.map((name, i) => ({ _id: i, name, n: i })));
  return c;
}

const names = (docs: Document[]) => docs.map((doc) => doc.name as string);

describe('find with a collation', () => {
  it.each<[string, Document, string[], string[]]>([
    ['$eq', { name: 'apple' }, ['apple', 'Apple', 'APPLE'], ['apple']],
    [
      '$ne',
      { name: { $ne: 'APPLE' } },
      ['banana', 'Banana', 'cherry'],
      ['apple', 'Apple', 'banana', 'Banana', 'cherry'],
    ],
    ['$in', { name: { $in: ['BANANA', 'Cherry'] } }, ['banana', 'Banana', 'cherry'], []],
    ['$nin', { name: { $nin: ['APPLE', 'BANANA'] } }, ['cherry'], ['apple', 'Apple', 'banana', 'Banana', 'cherry']],
    ['$gt', { name: { $gt: 'BANANA' } }, ['cherry'], ['apple', 'banana', 'Banana', 'cherry']],
    ['$lte', { name: { $lte: 'Apple' } }, ['apple', 'Apple', 'APPLE'], ['Apple', 'APPLE']],
  ])('should compare strings case-insensitively with %s at strength 2', async (_op, filter, collated, binary) => {
    const c = await fruits();
    expect(names(await c.find(filter).collation(CASE_INSENSITIVE).sort({ _id: 1 }).toArray())).toEqual(collated);
    expect(names(await c.find(filter).sort({ _id: 1 }).toArray())).toEqual(binary);
  });

  it('should collate string values only, never numbers or field names', async () => {
    const c = await freshRows('mixed');
    await c.insertMany([
      { _id: 1, v: 10 },
      { _id: 2, v: '10' },
      { _id: 3, V: 'x' },
      { _id: 4, v: 'X' },
    ]);
    const ids = async (filter: Document) =>
      (await c.find(filter).collation(CASE_INSENSITIVE).toArray()).map((doc) => doc._id);
    expect(await ids({ v: 10 })).toEqual([1]);
    expect(await ids({ v: { $gt: 9 } })).toEqual([1]);
    expect(await ids({ v: 'x' })).toEqual([4]);
  });

  it('should compare strings inside embedded documents and arrays', async () => {
    const c = await freshRows('nested');
    await c.insertMany([
      { _id: 1, tags: ['Red', 'Blue'], owner: { name: 'ANN' } },
      { _id: 2, tags: ['green'], owner: { name: 'bob' } },
    ]);
    const ids = async (filter: Document) =>
      (await c.find(filter).collation(CASE_INSENSITIVE).toArray()).map((doc) => doc._id);
    expect(await ids({ tags: 'red' })).toEqual([1]);
    expect(await ids({ owner: { name: 'ann' } })).toEqual([1]);
    expect(await ids({ 'owner.name': 'Bob' })).toEqual([2]);
  });
});

describe('sort with a collation', () => {
  // Without a collation, strings sort binary: 'A' < 'B' < 'a' < 'b'.
  it.each<[string, CollationOptions, string[], string[]]>([
    ['alphabetical with locale en', { locale: 'en' }, ['b', 'A', 'a', 'B'], ['a', 'A', 'b', 'B']],
    [
      'upper case first with caseFirst upper',
      { locale: 'en', caseFirst: 'upper' },
      ['b', 'a', 'A', 'B'],
      ['A', 'a', 'B', 'b'],
    ],
    [
      'by number with numericOrdering',
      { locale: 'en', numericOrdering: true },
      ['a10', 'a2', 'a1'],
      ['a1', 'a2', 'a10'],
    ],
    ['by text without numericOrdering', { locale: 'en' }, ['a10', 'A2', 'a1'], ['a1', 'a10', 'A2']],
    ['by accent, then case, in French', { locale: 'fr' }, ['Côte', 'cote', 'coté'], ['cote', 'coté', 'Côte']],
  ])('should sort %s', async (_label, collation, input, sorted) => {
    const c = await fx.fresh('sorting');
    await c.insertMany(input.map((name) => ({ name })));
    const cursor = c
      .find({}, { projection: { _id: 0 } })
      .sort({ name: 1 })
      .collation(collation);
    expect(names(await cursor.toArray())).toEqual(sorted);
    const pipeline = [{ $sort: { name: 1 } }, { $project: { _id: 0, name: 1 } }];
    expect(names(await c.aggregate(pipeline, { collation }).toArray())).toEqual(sorted);
  });
});

describe('distinct, count and aggregate with a collation', () => {
  it('should collapse values equal under the collation in distinct', async () => {
    const c = await fruits();
    const values = await c.distinct('name', {}, { collation: CASE_INSENSITIVE });
    expect(values.map((v: string) => v.toLowerCase())).toEqual(['apple', 'banana', 'cherry']);
    expect(await c.distinct('name')).toHaveLength(6);
  });

  it('should count with the collation (count and countDocuments)', async () => {
    const c = await fruits();
    expect(await c.countDocuments({ name: 'APPLE' }, { collation: CASE_INSENSITIVE })).toBe(3);
    expect(await c.countDocuments({ name: 'APPLE' })).toBe(1);
    const reply = await fx.db.command({ count: 'fruits', query: { name: 'banana' }, collation: CASE_INSENSITIVE });
    expect(reply.n).toBe(2);
  });

  it('should match and group by the collation in aggregate', async () => {
    const c = await fruits();
    const pipeline = [
      { $match: { name: { $in: ['apple', 'banana'] } } },
      { $group: { _id: '$name', count: { $sum: 1 } } },
      { $sort: { count: -1 } },
    ];
    const groups = await c.aggregate(pipeline, { collation: CASE_INSENSITIVE }).toArray();
    expect(groups.map((g) => [String(g._id).toLowerCase(), g.count])).toEqual([
      ['apple', 3],
      ['banana', 2],
    ]);
    expect(await c.aggregate(pipeline).toArray()).toHaveLength(2);
  });
});

describe('writes with a collation', () => {
  it('should update and delete what the collation matches', async () => {
    const c = await fruits();
    const updated = await c.updateMany({ name: 'apple' }, { $set: { fruit: true } }, { collation: CASE_INSENSITIVE });
    expect(updated.modifiedCount).toBe(3);
    const deleted = await c.deleteMany({ name: 'BANANA' }, { collation: CASE_INSENSITIVE });
    expect(deleted.deletedCount).toBe(2);
    const found = await c.findOneAndUpdate(
      { name: 'CHERRY' },
      { $set: { picked: true } },
      { collation: CASE_INSENSITIVE, returnDocument: 'after' },
    );
    expect(found).toMatchObject({ name: 'cherry', picked: true });
    expect(await c.countDocuments()).toBe(4);
  });

  it('should compare by the collation in $addToSet and $pull', async () => {
    const c = (await fx.fresh('tagged')) as unknown as Collection<{ _id: number; tags: string[] }>;
    await c.insertOne({ _id: 1, tags: ['Red', 'Blue'] });
    await c.updateOne({ _id: 1 }, { $addToSet: { tags: 'RED' } }, { collation: CASE_INSENSITIVE });
    await c.updateOne({ _id: 1 }, { $pull: { tags: 'blue' } }, { collation: CASE_INSENSITIVE });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, tags: ['Red'] });
  });
});

describe("a collection's default collation", () => {
  it('should apply when a command gives none, and give way to one that does', async () => {
    await fx.fresh('people');
    const c = await fx.db.createCollection('people', { collation: CASE_INSENSITIVE });
    await c.insertMany([{ name: 'Ann' }, { name: 'ann' }, { name: 'Bob' }]);
    expect(await c.countDocuments({ name: 'ANN' })).toBe(2);
    expect(await c.countDocuments({ name: 'ANN' }, { collation: { locale: 'simple' } })).toBe(0);
    const [info] = await fx.db.listCollections({ name: 'people' }, { nameOnly: false }).toArray();
    expect(info?.options).toMatchObject({
      collation: {
        locale: 'en',
        caseLevel: false,
        caseFirst: 'off',
        strength: 2,
        numericOrdering: false,
        alternate: 'non-ignorable',
        maxVariable: 'punct',
        normalization: false,
        backwards: false,
      },
    });
  });

  it('should be the collation of an index created without one', async () => {
    await fx.fresh('people');
    const c = await fx.db.createCollection('people', { collation: CASE_INSENSITIVE });
    await c.createIndex({ name: 1 }, { unique: true });
    await c.insertOne({ name: 'Ann' });
    expect((await rejection(c.insertOne({ name: 'ANN' }))).code).toBe(11000);
  });

  it('should be the collation of the _id_ index: string _ids equal under it are duplicates', async () => {
    await fx.fresh('tags');
    const c = await fx.db.createCollection<{ _id: string }>('tags', { collation: CASE_INSENSITIVE });
    await c.insertOne({ _id: 'Red' });
    const error = await rejection(c.insertOne({ _id: 'RED' }));
    expect(error.code).toBe(11000);
    // keyValue is not compared: mongod reports a collated index's ICU sort key there (see the README's limits).
    expect(error.errorResponse.keyPattern).toEqual({ _id: 1 });
    expect(error.message).toContain('index: _id_');
    const upsert = await rejection(
      c.updateOne({ _id: 'red' }, { $set: { n: 1 } }, { upsert: true, collation: { locale: 'simple' } }),
    );
    expect(upsert.code).toBe(11000);
    await c.insertOne({ _id: 'Blue' });
    // A deleted _id frees its collated key.
    await c.deleteOne({ _id: 'red' });
    await c.insertOne({ _id: 'RED' });
    expect((await c.find().sort({ _id: 1 }).toArray()).map((doc) => doc._id)).toEqual(['Blue', 'RED']);
    // The _id_ index a createIndexes asks for inherits the same default: it exists already.
    await c.createIndex({ _id: 1 }, { name: '_id_' });
    const [idIndex, ...others] = await c.listIndexes().toArray();
    expect(others).toEqual([]);
    expect(idIndex).toMatchObject({ name: '_id_', key: { _id: 1 }, collation: { locale: 'en', strength: 2 } });
    const [info] = await fx.db.listCollections({ name: 'tags' }, { nameOnly: false }).toArray();
    expect(info?.idIndex).toEqual(idIndex);
    // Without a default collation the _id_ index is binary.
    const binary = await fx.fresh('binaryTags');
    await binary.insertMany([{ _id: 'Red' }, { _id: 'RED' }] as Document[]);
    expect(await binary.countDocuments()).toBe(2);
    expect((await binary.listIndexes().toArray())[0]).not.toHaveProperty('collation');
  });
});

describe('collated indexes', () => {
  it('should enforce uniqueness under the index collation', async () => {
    const c = await fx.fresh('users');
    await c.createIndex({ email: 1 }, { unique: true, collation: CASE_INSENSITIVE });
    await c.insertOne({ email: 'Ann@example.com' });
    const error = await rejection(c.insertOne({ email: 'ann@EXAMPLE.com' }));
    expect(error.code).toBe(11000);
    expect(error.errorResponse.keyPattern).toEqual({ email: 1 });
    await c.insertOne({ email: 'bob@example.com' });
    const update = await rejection(c.updateOne({ email: 'bob@example.com' }, { $set: { email: 'ANN@example.com' } }));
    expect(update.code).toBe(11000);
    expect(await c.countDocuments()).toBe(2);
    // The same index without a collation keeps them apart.
    const binary = await fx.fresh('binaryUsers');
    await binary.createIndex({ email: 1 }, { unique: true });
    await binary.insertMany([{ email: 'Ann@example.com' }, { email: 'ann@example.com' }]);
    expect(await binary.countDocuments()).toBe(2);
  });

  it('should refuse to build a collated unique index over values equal under it', async () => {
    const c = await fx.fresh('users');
    await c.insertMany([{ email: 'a@x' }, { email: 'A@X' }]);
    expect((await rejection(c.createIndex({ email: 1 }, { unique: true, collation: CASE_INSENSITIVE }))).code).toBe(
      11000,
    );
  });

  it('should list the index collation with its defaults filled in', async () => {
    const c = await fx.fresh('users');
    await c.createIndex({ email: 1 }, { collation: { locale: 'fr_CA', strength: 2 } });
    await c.createIndex({ name: 1 }, { collation: { locale: 'simple' } });
    const indexes = await c.listIndexes().toArray();
    expect(indexes.find((index) => index.name === 'email_1')?.collation).toMatchObject({
      locale: 'fr_CA',
      caseLevel: false,
      caseFirst: 'off',
      strength: 2,
      numericOrdering: false,
      alternate: 'non-ignorable',
      maxVariable: 'punct',
      normalization: false,
      backwards: true,
    });
    expect(indexes.find((index) => index.name === 'name_1')).not.toHaveProperty('collation');
  });

  it('should walk an index for strings only under its own collation', async () => {
    const table: [string, CollationOptions | undefined, CollationOptions | undefined, Document, string][] = [
      ['the same collation as the index', CASE_INSENSITIVE, CASE_INSENSITIVE, { name: 'apple' }, 'IXSCAN'],
      ['a string query without the index collation', CASE_INSENSITIVE, undefined, { name: 'apple' }, 'COLLSCAN'],
      ['a collated string query on a binary index', undefined, CASE_INSENSITIVE, { name: 'apple' }, 'COLLSCAN'],
      ['another strength', CASE_INSENSITIVE, { locale: 'en', strength: 1 }, { name: 'apple' }, 'COLLSCAN'],
      ['a number query whatever the collations', CASE_INSENSITIVE, undefined, { name: 5 }, 'IXSCAN'],
      ['a binary index and the simple collation', undefined, { locale: 'simple' }, { name: 'apple' }, 'IXSCAN'],
    ];
    const planned: [string, string][] = [];
    for (const [label, indexCollation, queryCollation, filter] of table) {
      const c = await fruits();
      await c.createIndex({ name: 1 }, indexCollation ? { collation: indexCollation } : {});
      const cursor = c.find(filter);
      if (queryCollation) cursor.collation(queryCollation);
      planned.push([label, accessPath(winningPlan(await cursor.explain('queryPlanner'))).stage]);
    }
    expect(planned).toEqual(table.map(([label, , , , stage]) => [label, stage]));
  });

  it('should find through a collated index what a scan finds', async () => {
    const c = await fruits();
    await c.createIndex({ name: 1 }, { collation: CASE_INSENSITIVE });
    const query = { name: { $gte: 'APPLE', $lt: 'cherry' } };
    const indexed = await c.find(query).collation(CASE_INSENSITIVE).sort({ name: 1, _id: 1 }).toArray();
    const scanned = await c
      .find(query)
      .collation(CASE_INSENSITIVE)
      .hint({ $natural: 1 })
      .sort({ name: 1, _id: 1 })
      .toArray();
    expect(names(indexed)).toEqual(['apple', 'Apple', 'APPLE', 'banana', 'Banana']);
    expect(names(scanned)).toEqual(names(indexed));
    // The index gives the collated order itself (a sort with a limit walks it).
    const first = c.find({}).collation(CASE_INSENSITIVE).sort({ name: -1 }).limit(3);
    expect(accessPath(winningPlan(await first.explain('queryPlanner')))).toMatchObject({ stage: 'IXSCAN' });
    expect(names(await first.toArray()).map((name) => name.toLowerCase())).toEqual(['cherry', 'banana', 'banana']);
  });

  // Counted from the index alone, where bounds are exact: they must be the collated ones.
  it.each<[string, Document, number]>([
    ['a range', { name: { $gte: 'APPLE', $lt: 'cherry' } }, 6],
    // Binary order puts 'Banana' below 'apple', the collation above it: only the collated bound is right.
    ['two lower bounds that binary and collated order rank apart', { name: { $gt: 'apple', $gte: 'Banana' } }, 3],
    ['an equality', { name: 'BANANA' }, 2],
  ])('should count %s through a collated index as a scan counts', async (_label, query, expected) => {
    const c = await fruits();
    await c.insertOne({ _id: 6, name: 'apricot', n: 6 });
    await c.createIndex({ name: 1 }, { collation: CASE_INSENSITIVE });
    const scanned = await c.find(query).collation(CASE_INSENSITIVE).hint({ $natural: 1 }).toArray();
    expect(scanned).toHaveLength(expected);
    expect(await c.countDocuments(query, { collation: CASE_INSENSITIVE })).toBe(expected);
    expect((await fx.db.command({ count: 'fruits', query, collation: CASE_INSENSITIVE })).n).toBe(expected);
  });

  it('should walk a collated index for aggregate, count and distinct under its collation', async () => {
    const c = await fruits();
    await c.createIndex({ name: 1 }, { collation: CASE_INSENSITIVE });
    const pipeline = [{ $match: { name: 'APPLE' } }];
    const explained = [
      await c.aggregate(pipeline, { collation: CASE_INSENSITIVE }).explain('queryPlanner'),
      await fx.db.command({ explain: { count: 'fruits', query: { name: 'APPLE' }, collation: CASE_INSENSITIVE } }),
      await fx.db.command({
        explain: { distinct: 'fruits', key: 'n', query: { name: 'APPLE' }, collation: CASE_INSENSITIVE },
      }),
    ];
    // mongod may count with COUNT_SCAN: what matters is the index walked.
    expect(explained.map((reply) => accessPath(winningPlan(reply)).indexName)).toEqual(['name_1', 'name_1', 'name_1']);
  });
});

describe('invalid collations', () => {
  it.each<[string, unknown, number, string, string | undefined]>([
    ['an unknown locale', { locale: 'xx' }, 2, 'BadValue', `Field 'locale' is invalid in: { locale: "xx" }`],
    ['a missing locale', { strength: 2 }, 4, 'NoSuchKey', 'Missing expected field "locale"'],
    [
      'a locale that is not a string',
      { locale: 5 },
      14,
      'TypeMismatch',
      '"locale" had the wrong type. Expected string, found int',
    ],
    [
      'strength 0',
      { locale: 'en', strength: 0 },
      9,
      'FailedToParse',
      "Field 'strength' must be an integer 1 through 5. Got: 0",
    ],
    [
      'strength 6',
      { locale: 'en', strength: 6 },
      9,
      'FailedToParse',
      "Field 'strength' must be an integer 1 through 5. Got: 6",
    ],
    ['a string strength', { locale: 'en', strength: '2' }, 14, 'TypeMismatch', undefined],
    [
      'a caseLevel that is not a bool',
      { locale: 'en', caseLevel: 1 },
      14,
      'TypeMismatch',
      '"caseLevel" had the wrong type. Expected bool, found int',
    ],
    [
      'an unknown caseFirst',
      { locale: 'en', caseFirst: 'first' },
      9,
      'FailedToParse',
      "Field 'caseFirst' must be 'upper', 'lower', or 'off'. Got: first",
    ],
    [
      'an unknown alternate',
      { locale: 'en', alternate: 'x' },
      9,
      'FailedToParse',
      "Field 'alternate' must be 'non-ignorable' or 'shifted'. Got: x",
    ],
    [
      'an unknown field',
      { locale: 'en', colour: 1 },
      9,
      'FailedToParse',
      'Collation spec contains unknown field. Collation spec: { locale: "en", colour: 1 }',
    ],
    [
      'simple with other fields',
      { locale: 'simple', strength: 2 },
      9,
      'FailedToParse',
      'If locale=simple, no other fields should be present in: { locale: "simple", strength: 2 }',
    ],
    ['backwards at strength 1', { locale: 'en', strength: 1, backwards: true }, 2, 'BadValue', undefined],
    [
      'caseFirst at strength 1 without caseLevel',
      { locale: 'en', strength: 1, caseFirst: 'upper' },
      2,
      'BadValue',
      undefined,
    ],
  ])('should refuse %s', async (_label, collation, code, codeName, message) => {
    await fruits();
    const reply = await fx.db.command({ find: 'fruits', filter: {}, collation }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(reply).toBeInstanceOf(MongoServerError);
    const error = reply as MongoServerError;
    expect([error.code, error.codeName]).toEqual([code, codeName]);
    if (message) expect(error.message).toBe(message);
  });

  it('should refuse an invalid collation in createIndexes and create too', async () => {
    const c = await fruits();
    expect((await rejection(c.createIndex({ name: 1 }, { collation: { locale: 'xx' } }))).codeName).toBe('BadValue');
    expect(
      (await rejection(fx.db.createCollection('other', { collation: { locale: 'en', strength: 9 } }))).codeName,
    ).toBe('FailedToParse');
  });
});

describe('mongoose', () => {
  it('should honour Query#collation, a schema collation and an index collation', async () => {
    const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
    try {
      await conn.db!.dropCollection('tags').catch(() => undefined);
      await conn.db!.dropCollection('labels').catch(() => undefined);
      const Tag = conn.model('Tag', new mongoose.Schema({ name: String }), 'tags');
      await Tag.create([{ name: 'Red' }, { name: 'red' }, { name: 'Blue' }]);
      expect(await Tag.find({ name: 'RED' }).collation({ locale: 'en', strength: 2 }).countDocuments()).toBe(2);
      expect(await Tag.countDocuments({ name: 'RED' })).toBe(0);

      const labelSchema = new mongoose.Schema(
        { name: { type: String, index: { unique: true, collation: { locale: 'en', strength: 2 } } } },
        { collation: { locale: 'en', strength: 2 } },
      );
      const Label = conn.model('Label', labelSchema, 'labels');
      await Label.init();
      await Label.create({ name: 'Urgent' });
      expect(await Label.countDocuments({ name: 'URGENT' })).toBe(1);
      await expect(Label.create({ name: 'urgent' })).rejects.toMatchObject({ code: 11000 });
    } finally {
      await conn.close();
    }
  });
});
