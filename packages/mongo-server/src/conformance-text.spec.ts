/**
 * Conformance: text indexes and `$text` (terms, phrases, negations, case and
 * diacritic folding, stop words, stemming, textScore), with mongod 7's
 * index shapes and error codes, through the driver and mongoose. Scores are
 * only compared with each other: the embedded server's are not mongod's
 * exact numbers. Runs against a real replica set via MONGO_URL too.
 */
import { type Collection, type Document } from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture({ transactions: true });

const ARTICLES = [
  { _id: 1, title: 'Coffee shop', body: 'The best coffee in town' },
  { _id: 2, title: 'Baking cakes', body: 'How to bake a cake with coffee' },
  { _id: 3, title: 'Tea', body: 'Green tea and black tea' },
  { _id: 4, title: 'Café au lait', body: 'French COFFEE with milk' },
  { _id: 5, title: 'Cupcakes', body: 'Small cakes' },
];

async function articles(weights?: Document, name = 'articles'): Promise<Collection> {
  const c = await fx.fresh(name);
  await c.insertMany(ARTICLES as never[]);
  await c.createIndex({ title: 'text', body: 'text' }, weights ? { weights } : {});
  return c;
}

/** The `_id`s found, sorted: mongod hands `$text` matches out in no set order. */
async function ids(c: Collection, filter: Document): Promise<unknown[]> {
  return (await c.find(filter).toArray()).map((doc) => doc._id as unknown as number).sort((a, b) => a - b);
}

/** The first stage called `name` in an explain plan tree (mongod may put PROJECTION or SORT stages above). */
function stageNamed(stage: Document | undefined, name: string): Document | undefined {
  if (!stage || stage.stage === name) return stage;
  const inputs = [stage.inputStage, ...((stage.inputStages as Document[] | undefined) ?? [])] as (
    Document | undefined
  )[];
  for (const input of inputs) {
    const found = stageNamed(input, name);
    if (found) return found;
  }
  return undefined;
}

describe('text indexes', () => {
  it('are listed in mongod 7 shape: _fts/_ftsx key, sorted weights, languages, textIndexVersion 3', async () => {
    const c = await articles({ title: 10 });
    const indexes = await c.listIndexes().toArray();
    expect(indexes[1]).toEqual({
      v: 2,
      key: { _fts: 'text', _ftsx: 1 },
      name: 'title_text_body_text',
      weights: { body: 1, title: 10 },
      default_language: 'english',
      language_override: 'language',
      textIndexVersion: 3,
    });
  });

  it('keep ordinary fields around the text part, and take $** for every string', async () => {
    const c = await fx.fresh('shapes');
    await c.createIndex({ category: 1, title: 'text' }, { default_language: 'french', language_override: 'lang' });
    const w = await fx.fresh('wildcard');
    await w.createIndex({ '$**': 'text' });
    expect((await c.listIndexes().toArray())[1]).toMatchObject({
      key: { category: 1, _fts: 'text', _ftsx: 1 },
      weights: { title: 1 },
      default_language: 'french',
      language_override: 'lang',
    });
    expect((await w.listIndexes().toArray())[1]).toMatchObject({ name: '$**_text', weights: { '$**': 1 } });
  });

  it('allow one per collection: IndexOptionsConflict for the same key, CannotCreateIndex for another', async () => {
    const c = await articles();
    await c.createIndex({ title: 'text', body: 'text' });
    const same = await rejection(c.createIndex({ summary: 'text' }));
    expect(same.code).toBe(85);
    expect(same.codeName).toBe('IndexOptionsConflict');
    expect(same.message).toMatch(/^An equivalent index already exists with a different name and options\./);
    const other = await rejection(c.createIndex({ category: 1, summary: 'text' }));
    expect(other.code).toBe(67);
    expect(other.message).toBe(
      'only one text index per collection allowed, found existing text index "title_text_body_text"',
    );
  });
});

describe('$text', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await articles();
  });

  it.each([
    ['any of the terms', 'coffee tea', [1, 2, 3, 4]],
    ['case-insensitively', 'COFFEE', [1, 2, 4]],
    ['diacritic-insensitively', 'cafe', [4]],
    ['stemmed', 'cakes', [2, 5]],
    ['stemmed forms of a verb', 'bake', [2]],
    ['without stop words', 'the', []],
    ['a phrase, as a substring of the field', '"best coffee"', [1]],
    ['a phrase and a term', 'tea "black tea"', [3]],
    ['a negated term', 'coffee -milk', [1, 2]],
    ['a negated phrase', 'coffee -"best coffee"', [2, 4]],
    ['only negations: nothing', '-coffee', []],
    ['a hyphen inside a word, which does not negate', 'green-tea', [3]],
  ])('matches %s', async (_label, search, expected) => {
    expect(await ids(c, { $text: { $search: search } })).toEqual(expected);
  });

  it('honours $caseSensitive and $diacriticSensitive', async () => {
    expect(await ids(c, { $text: { $search: 'COFFEE', $caseSensitive: true } })).toEqual([4]);
    expect(await ids(c, { $text: { $search: 'cafe', $diacriticSensitive: true } })).toEqual([]);
    expect(await ids(c, { $text: { $search: 'café', $diacriticSensitive: true } })).toEqual([4]);
  });

  it('combines with the rest of the filter, at the top level, in $and and in an indexed $or', async () => {
    expect(await ids(c, { $text: { $search: 'coffee' }, _id: { $gt: 1 } })).toEqual([2, 4]);
    expect(await ids(c, { $and: [{ _id: { $lt: 3 } }, { $text: { $search: 'coffee' } }] })).toEqual([1, 2]);
    expect(await ids(c, { $or: [{ $text: { $search: 'coffee' } }, { _id: 3 }] })).toEqual([1, 2, 3, 4]);
  });

  it('counts through count, countDocuments and distinct', async () => {
    const filter = { $text: { $search: 'coffee' } };
    expect(await c.countDocuments(filter)).toBe(3);
    expect((await fx.db.command({ count: 'articles', query: filter })).n).toBe(3);
    expect(await c.distinct('_id', filter)).toEqual([1, 2, 4]);
  });

  it('gives textScore to project and sort by, weighting fields', async () => {
    const weighted = await articles({ title: 10 }, 'weighted');
    const docs = await weighted
      .find({ $text: { $search: 'coffee' } }, { projection: { title: 1, score: { $meta: 'textScore' } } })
      .sort({ score: { $meta: 'textScore' } })
      .toArray();
    expect(docs.map((doc) => Object.keys(doc))).toEqual([
      ['_id', 'title', 'score'],
      ['_id', 'title', 'score'],
      ['_id', 'title', 'score'],
    ]);
    expect(docs[0]!._id).toBe(1);
    const scores = docs.map((doc) => doc.score as number);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores[0]!).toBeGreaterThan(5 * scores[1]!);
  });

  it('adds a textScore to an exclusion projection ($meta fits either kind)', async () => {
    const c = await articles(undefined, 'excluded');
    const [doc] = await c
      .find({ $text: { $search: 'coffee' } }, { projection: { body: 0, score: { $meta: 'textScore' } } })
      .limit(1)
      .toArray();
    expect(doc).not.toHaveProperty('body');
    expect(typeof doc!.score).toBe('number');
    const [projected] = await c
      .aggregate([
        { $match: { $text: { $search: 'coffee' } } },
        { $project: { body: 0, score: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(projected).not.toHaveProperty('body');
    expect(typeof projected!.score).toBe('number');
  });

  it('keeps the score after a $project of the score alone, for a later $sort by it', async () => {
    const c = await fx.fresh('score_only');
    // The later document scores higher (the word twice, in a shorter field): the sort has something to do.
    await c.insertMany([
      { _id: 1, body: 'coffee with tea and cake and milk' },
      { _id: 2, body: 'coffee coffee' },
    ] as never[]);
    await c.createIndex({ body: 'text' });
    const docs = await c
      .aggregate([
        { $match: { $text: { $search: 'coffee' } } },
        { $project: { score: { $meta: 'textScore' } } },
        { $sort: { score: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(docs.map((doc) => Object.keys(doc))).toEqual([
      ['_id', 'score'],
      ['_id', 'score'],
    ]);
    expect(docs.map((doc) => doc._id)).toEqual([2, 1]);
  });

  it('refuses a textScore without $text (Location40218)', async () => {
    for (const options of [
      { projection: { score: { $meta: 'textScore' } } },
      { sort: { score: { $meta: 'textScore' } } },
    ]) {
      const error = await rejection(c.find({}, options as never).toArray());
      expect(error.code).toBe(40218);
      expect(error.message).toBe('query requires text score metadata, but it is not available');
    }
  });

  it('runs in a leading aggregate $match, with $meta textScore in later stages', async () => {
    const docs = await c
      .aggregate([
        { $match: { $text: { $search: 'coffee cake' } } },
        { $project: { title: 1, score: { $meta: 'textScore' } } },
        { $sort: { score: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(docs.map((doc) => doc._id).sort()).toEqual([1, 2, 4, 5]);
    expect(docs[0]!._id).toBe(2);
    expect(docs.every((doc) => typeof doc.score === 'number' && Object.keys(doc).length === 3)).toBe(true);
    const unavailable = await rejection(c.aggregate([{ $project: { score: { $meta: 'textScore' } } }]).toArray());
    expect(unavailable.code).toBe(40218);
    const late = await rejection(c.aggregate([{ $match: {} }, { $match: { $text: { $search: 'x' } } }]).toArray());
    expect(late.code).toBe(17313);
    expect(late.message).toBe('$match with $text is only allowed as the first pipeline stage');
  });

  it('keeps the index up to date on update and delete, and sees a transaction its own writes', async () => {
    const t = await articles(undefined, 'maintained');
    await t.updateOne({ _id: 3 as never }, { $set: { body: 'Espresso only' } });
    expect(await ids(t, { $text: { $search: 'green' } })).toEqual([]);
    expect(await ids(t, { $text: { $search: 'espresso' } })).toEqual([3]);
    await t.deleteOne({ _id: 3 as never });
    expect(await ids(t, { $text: { $search: 'espresso' } })).toEqual([]);
    const session = fx.client.startSession();
    try {
      await session.withTransaction(async () => {
        await t.insertOne({ _id: 9 as never, title: 'Ristretto' }, { session });
        await t.updateOne({ _id: 1 as never }, { $set: { title: 'Ristretto bar', body: '' } }, { session });
        const inside = await t.find({ $text: { $search: 'ristretto' } }, { session }).toArray();
        expect(inside.map((doc) => doc._id as unknown as number).sort((a, b) => a - b)).toEqual([1, 9]);
        expect(await ids(t, { $text: { $search: 'ristretto' } })).toEqual([]);
      });
    } finally {
      await session.endSession();
    }
    expect(await ids(t, { $text: { $search: 'ristretto' } })).toEqual([1, 9]);
  });

  it('serves update and delete filters and explain', async () => {
    const u = await articles(undefined, 'written');
    const filter = { $text: { $search: 'coffee' } };
    expect((await u.updateMany(filter, { $set: { hot: true } })).modifiedCount).toBe(3);
    expect(await ids(u, { hot: true })).toEqual([1, 2, 4]);
    expect((await u.deleteMany({ $text: { $search: 'tea' } })).deletedCount).toBe(1);
    const explained = await u.find(filter).explain('executionStats');
    expect(explained.executionStats.nReturned).toBe(3);
    await expect(u.aggregate([{ $match: filter }]).explain()).resolves.toBeDefined();
  });

  it('explains as TEXT_MATCH over backward scans of the text index, one per term', async () => {
    const e = await articles(undefined, 'explained');
    const ixscan = {
      stage: 'IXSCAN',
      keyPattern: { _fts: 'text', _ftsx: 1 },
      indexName: 'title_text_body_text',
      isMultiKey: true,
      isUnique: false,
      direction: 'backward',
    };
    const several = await e.find({ $text: { $search: 'coffee -milk "best coffee"' } }).explain('queryPlanner');
    expect(stageNamed(several.queryPlanner.winningPlan, 'TEXT_MATCH')).toMatchObject({
      indexPrefix: {},
      indexName: 'title_text_body_text',
      parsedTextQuery: {
        terms: ['best', 'coffe'],
        negatedTerms: ['milk'],
        phrases: ['best coffee'],
        negatedPhrases: [],
      },
      textIndexVersion: 3,
      inputStage: { stage: 'FETCH', inputStage: { stage: 'OR', inputStages: [ixscan, ixscan] } },
    });
    const one = await e.find({ $text: { $search: 'coffee' } }).explain('executionStats');
    expect(stageNamed(one.queryPlanner.winningPlan, 'TEXT_MATCH')).toMatchObject({
      inputStage: { stage: 'FETCH', inputStage: ixscan },
    });
    expect(one.executionStats).toMatchObject({ nReturned: 3, totalKeysExamined: 3, totalDocsExamined: 3 });
    const scored = await e
      .find({ $text: { $search: 'coffee tea' } }, { projection: { score: { $meta: 'textScore' } } })
      .explain('queryPlanner');
    expect(stageNamed(scored.queryPlanner.winningPlan, 'TEXT_MATCH')).toMatchObject({
      inputStage: { stage: 'TEXT_OR', inputStages: [ixscan, ixscan] },
    });
    const compound = await fx.fresh('explained-compound');
    await compound.createIndex({ category: 1, title: 'text' });
    await compound.insertOne({ _id: 1, category: 'drinks', title: 'Coffee' } as never);
    const prefixed = await compound.find({ category: 'drinks', $text: { $search: 'coffee' } }).explain('queryPlanner');
    expect(stageNamed(prefixed.queryPlanner.winningPlan, 'TEXT_MATCH')).toMatchObject({
      indexPrefix: { category: 'drinks' },
      indexName: 'category_1_title_text',
      inputStage: {
        stage: 'FETCH',
        inputStage: { stage: 'IXSCAN', keyPattern: { category: 1, _fts: 'text', _ftsx: 1 }, isMultiKey: false },
      },
    });
  });

  it('indexes each document in its language_override language', async () => {
    const l = await fx.fresh('languages');
    await l.createIndex({ title: 'text' });
    await l.insertMany([
      { _id: 1, title: 'running the race' },
      { _id: 2, title: 'running the race', language: 'none' },
    ] as never[]);
    expect(await ids(l, { $text: { $search: 'run' } })).toEqual([1]);
    expect(await ids(l, { $text: { $search: 'running', $language: 'none' } })).toEqual([2]);
    expect(await ids(l, { $text: { $search: 'the', $language: 'none' } })).toEqual([2]);
    const unsupported = await rejection(l.insertOne({ title: 'hello', language: 'Hindi' }));
    expect({ code: unsupported.code, message: unsupported.message }).toEqual({
      code: 17262,
      message: 'language override unsupported: Hindi',
    });
    const notString = await rejection(l.updateOne({ _id: 1 as never }, { $set: { language: 5 } }));
    expect(notString.code).toBe(17261);
    expect(await l.countDocuments({ language: { $exists: true } })).toBe(1);
  });

  it('bounds hostile input: a huge search of many terms, a deep document', async () => {
    const search = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(' ') + ' coffee';
    expect(await ids(c, { $text: { $search: search } })).toEqual([1, 2, 4]);
    const d = await fx.fresh('deep');
    await d.createIndex({ '$**': 'text' });
    let deep: Document = { note: 'buried treasure' };
    for (let i = 0; i < 90; i++) deep = { level: deep };
    await d.insertOne({ _id: 1, doc: deep } as never);
    // One "word" of a million letters: stemmed, it would hold the server for minutes.
    await d.insertOne({ _id: 2, note: `${'y'.repeat(1_000_000)} treasure` } as never);
    expect(await ids(d, { $text: { $search: 'treasure' } })).toEqual([1, 2]);
  });
});

describe('$text in other languages', () => {
  it('stems French and drops French stop words in a French index', async () => {
    const c = await fx.fresh('french');
    await c.createIndex({ body: 'text' }, { default_language: 'french' });
    await c.insertMany([
      { _id: 1, body: 'Les gâteaux au chocolat sont délicieux' },
      { _id: 2, body: 'Un gâteau aux pommes' },
      { _id: 3, body: 'Le pain et le fromage' },
    ] as never[]);
    expect(await ids(c, { $text: { $search: 'gâteau' } })).toEqual([1, 2]);
    expect(await ids(c, { $text: { $search: 'délicieuse' } })).toEqual([1]);
    expect(await ids(c, { $text: { $search: 'gateaux', $diacriticSensitive: true } })).toEqual([]);
    expect(await ids(c, { $text: { $search: 'les sont' } })).toEqual([]);
    expect(await ids(c, { $text: { $search: 'les sont', $language: 'none' } })).toEqual([]);
    expect(await ids(c, { $text: { $search: 'gâteaux -chocolat' } })).toEqual([2]);
  });

  it('indexes a document in German by its language field, and searches in German with $language', async () => {
    const c = await fx.fresh('german');
    await c.createIndex({ title: 'text' });
    await c.insertMany([
      { _id: 1, title: 'Die Häuser am See', language: 'german' },
      { _id: 2, title: 'Das Haus im Wald', language: 'de' },
      { _id: 3, title: 'The Gardens of the house' },
      { _id: 4, title: 'Die Gärten', language: 'german' },
    ] as never[]);
    expect(await ids(c, { $text: { $search: 'Häuser', $language: 'german' } })).toEqual([1, 2]);
    expect(await ids(c, { $text: { $search: 'hauses', $language: 'de' } })).toEqual([1, 2]);
    expect(await ids(c, { $text: { $search: 'Garten', $language: 'german' } })).toEqual([4]);
    expect(await ids(c, { $text: { $search: 'gardens' } })).toEqual([3]);
    // "die" is a German stop word, so neither the documents nor a German search hold it.
    expect(await ids(c, { $text: { $search: 'die', $language: 'german' } })).toEqual([]);
    expect(await ids(c, { $text: { $search: 'die' } })).toEqual([]);
    expect(await ids(c, { $text: { $search: 'die', $language: 'none' } })).toEqual([]);
  });

  it('searches a French document in French with $language, not in the index default', async () => {
    const c = await fx.fresh('mixed');
    await c.createIndex({ body: 'text' });
    await c.insertMany([
      { _id: 1, body: 'Une tarte délicieuse', language: 'fr' },
      { _id: 2, body: 'A tasty pie' },
    ] as never[]);
    expect(await ids(c, { $text: { $search: 'délicieux', $language: 'fr' } })).toEqual([1]);
    expect(await ids(c, { $text: { $search: 'délicieux' } })).toEqual([]);
    expect(await ids(c, { $text: { $search: 'une', $language: 'french' } })).toEqual([]);
    expect(await ids(c, { $text: { $search: 'une' } })).toEqual([]);
  });
});

describe('$text errors', () => {
  it.each([
    ['no text index', 'plain', { $text: { $search: 'x' } }, 27, 'text index required for $text query'],
    [
      'two $text',
      'articles',
      { $and: [{ $text: { $search: 'a' } }, { $text: { $search: 'b' } }] },
      2,
      'Too many text expressions',
    ],
    ['$text under $nor', 'articles', { $nor: [{ $text: { $search: 'a' } }] }, 2, 'text expression not allowed in nor'],
    ['a non-object $text', 'articles', { $text: 'coffee' }, 2, '$text expects an object'],
    ['no $search', 'articles', { $text: {} }, 4, 'Missing expected field "$search"'],
    [
      'a number $search',
      'articles',
      { $text: { $search: 5 } },
      14,
      '"$search" had the wrong type. Expected string, found int',
    ],
    ['an extra field', 'articles', { $text: { $search: 'a', $foo: 1 } }, 2, 'extra fields in $text'],
    [
      'an unknown $language',
      'articles',
      { $text: { $search: 'a', $language: 'klingon' } },
      2,
      'unsupported language: "klingon" for text index version 3',
    ],
  ])('%s', async (_label, name, filter, code, message) => {
    const c = fx.db.collection(name);
    if (name === 'plain') await c.insertOne({ a: 1 });
    else if (!(await c.indexExists('title_text_body_text'))) await articles();
    const error = await rejection(c.find(filter as Document).toArray());
    expect({ code: error.code, message: error.message }).toEqual({ code, message });
  });

  it('needs the other $or branches indexed, and equalities on a compound index prefix (NoQueryExecutionPlans)', async () => {
    const c = await articles(undefined, 'branches');
    const or = await rejection(c.find({ $or: [{ $text: { $search: 'coffee' } }, { title: 'Tea' }] }).toArray());
    expect(or.code).toBe(291);
    expect(or.message).toContain(
      'Failed to produce a solution for TEXT under OR - other non-TEXT clauses under OR have to be indexed as well.',
    );
    const p = await fx.fresh('prefixed');
    await p.createIndex({ category: 1, title: 'text' });
    await p.insertMany([
      { category: 'drinks', title: 'coffee' },
      { category: 'food', title: 'coffee cake' },
    ]);
    const prefix = await rejection(p.find({ $text: { $search: 'coffee' } }).toArray());
    expect(prefix.code).toBe(291);
    expect(prefix.message).toContain('are equality predicates given for all prefix fields?');
    const food = await p.find({ category: 'food', $text: { $search: 'coffee' } }).toArray();
    expect(food.map((doc) => doc.title)).toEqual(['coffee cake']);
  });
});

describe('mongoose', () => {
  it('find({ $text }) sorted by textScore', async () => {
    const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
    try {
      const schema = new mongoose.Schema({ title: String, body: String });
      schema.index({ title: 'text', body: 'text' }, { weights: { title: 5 } });
      const Post = conn.model('Post', schema);
      await Post.init();
      await Post.create([
        { title: 'Tea time', body: 'A cup of coffee instead' },
        { title: 'Coffee roasting', body: 'Roasting coffee beans at home' },
        { title: 'Gardening', body: 'Nothing about drinks' },
      ]);
      const found = await Post.find({ $text: { $search: 'coffee' } }, { score: { $meta: 'textScore' } })
        .sort({ score: { $meta: 'textScore' } })
        .lean<{ title: string; score: number }[]>();
      expect(found.map((post) => post.title)).toEqual(['Coffee roasting', 'Tea time']);
      expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
      // The listed text index reads back as the schema's: nothing to drop and rebuild.
      expect(await Post.syncIndexes()).toEqual([]);
    } finally {
      await conn.close();
    }
  });
});
