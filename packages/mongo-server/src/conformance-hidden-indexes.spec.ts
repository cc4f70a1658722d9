/**
 * Conformance: hidden indexes (MongoDB's "Hidden Indexes" page and mongod's
 * hidden_index.js): created with `hidden: true` or hidden and shown again by
 * collMod, invisible to the planner and to hints, still maintained and still
 * enforcing `unique`; with mongod's checks and replies. Works against a real
 * MongoDB via MONGO_URL.
 */
import type { Document } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';
import { accessPath, winningPlan } from './explain-plan.fixture.js';

const fx = useDriverFixture();

async function indexNamed(name: string): Promise<Document | undefined> {
  const indexes = await fx.db.collection('hidden').listIndexes().toArray();
  return indexes.find((index) => index.name === name);
}

async function access(filter: Document) {
  return accessPath(winningPlan(await fx.db.collection('hidden').find(filter).explain('queryPlanner')));
}

const collMod = (index: Document) => fx.db.command({ collMod: 'hidden', index });

beforeEach(async () => {
  const c = await fx.fresh('hidden');
  await c.insertMany(Array.from({ length: 20 }, (_, i) => ({ a: i, b: i % 3, tm: new Date(0) })));
});

describe('hidden_index.js', () => {
  it('an index hidden by collMod is not planned, and planned again once shown', async () => {
    const c = fx.db.collection('hidden');
    await c.createIndex({ a: 1 });
    expect((await indexNamed('a_1'))?.hidden).toBeUndefined();
    expect(await access({ a: 1 })).toMatchObject({ stage: 'IXSCAN', indexName: 'a_1' });

    expect(await collMod({ name: 'a_1', hidden: true })).toMatchObject({ hidden_old: false, hidden_new: true, ok: 1 });
    expect((await indexNamed('a_1'))?.hidden).toBe(true);
    expect(await access({ a: 1 })).toEqual({ stage: 'COLLSCAN' });
    expect((await c.find({ a: 1 }).toArray()).map((doc) => doc.a)).toEqual([1]);

    expect(await collMod({ keyPattern: { a: 1 }, hidden: false })).toMatchObject({
      hidden_old: true,
      hidden_new: false,
    });
    expect((await indexNamed('a_1'))?.hidden).toBeUndefined();
    expect(await access({ a: 1 })).toMatchObject({ stage: 'IXSCAN', indexName: 'a_1' });
  });

  it('hiding a hidden index (or showing a shown one) changes nothing and says nothing', async () => {
    await fx.db.collection('hidden').createIndex({ a: 1 });
    const reply = await collMod({ name: 'a_1', hidden: false });
    expect(reply.ok).toBe(1);
    expect(reply.hidden_old).toBeUndefined();
    expect(reply.hidden_new).toBeUndefined();
  });

  it('an index created hidden is not planned; creating it again shown is an options conflict', async () => {
    const c = fx.db.collection('hidden');
    await c.createIndex({ a: 1 }, { hidden: true });
    expect((await indexNamed('a_1'))?.hidden).toBe(true);
    expect(await access({ a: 1 })).toEqual({ stage: 'COLLSCAN' });
    const error = await rejection(c.createIndex({ a: 1 }, { hidden: false }));
    expect([error.code, error.codeName]).toEqual([85, 'IndexOptionsConflict']);
    expect((await indexNamed('a_1'))?.hidden).toBe(true);
  });

  it('a hidden index cannot be hinted (BadValue)', async () => {
    const c = fx.db.collection('hidden');
    await c.createIndex({ a: 1 }, { hidden: true });
    for (const hint of [{ a: 1 }, 'a_1']) {
      const error = await rejection(c.find({}, { hint }).toArray());
      expect(error.code).toBe(2);
      expect(error.message).toContain('hint provided does not correspond to an existing index');
    }
  });

  it('a hidden text index answers no $text query (NoQueryExecutionPlans)', async () => {
    const c = fx.db.collection('hidden');
    await c.insertOne({ t: 'java coffee' });
    await c.createIndex({ t: 'text' });
    expect(await c.countDocuments({ $text: { $search: 'java' } })).toBe(1);
    await collMod({ name: 't_text', hidden: true });
    const error = await rejection(c.find({ $text: { $search: 'java' } }).toArray());
    expect(error.code).toBe(291);
    expect(error.message).toContain('need exactly one text index for $text query');
  });

  it('the hidden state is in listIndexes; "hidden: false" is never written to a spec', async () => {
    const c = fx.db.collection('hidden');
    await c.createIndex({ lsIdx: 1 }, { hidden: true });
    const reply = await fx.db.command({ listIndexes: 'hidden' });
    expect(reply.cursor.firstBatch.find((index: Document) => index.name === 'lsIdx_1').hidden).toBe(true);

    await fx.db.command({ createIndexes: 'hidden', indexes: [{ key: { y: 1 }, name: 'y', hidden: false }] });
    expect(await indexNamed('y')).not.toHaveProperty('hidden');
    await collMod({ name: 'y', hidden: true });
    expect((await indexNamed('y'))?.hidden).toBe(true);
    await collMod({ name: 'y', hidden: false });
    expect(await indexNamed('y')).not.toHaveProperty('hidden');
  });

  it("a TTL index's expireAfterSeconds and hidden state change in one collMod", async () => {
    await fx.db.collection('hidden').createIndex({ tm: 1 }, { expireAfterSeconds: 3600 });
    const reply = await collMod({ name: 'tm_1', expireAfterSeconds: 3000, hidden: true });
    expect(reply).toMatchObject({ expireAfterSeconds_old: 3600, expireAfterSeconds_new: 3000, hidden_new: true });
    expect(await indexNamed('tm_1')).toMatchObject({ hidden: true, expireAfterSeconds: 3000 });
  });
});

describe('a hidden index is still an index', () => {
  it('a hidden unique index still refuses duplicates', async () => {
    const c = fx.db.collection('hidden');
    await c.createIndex({ a: 1 }, { unique: true, hidden: true });
    const error = await rejection(c.insertOne({ a: 3 }));
    expect(error.code).toBe(11000);
    expect(error.message).toContain('index: a_1 dup key: { a: 3 }');
  });

  it('writes while hidden are in the index once it is shown', async () => {
    const c = fx.db.collection('hidden');
    await c.createIndex({ b: 1 }, { hidden: true });
    await c.insertOne({ a: 100, b: 7 });
    await c.updateOne({ a: 0 }, { $set: { b: 7 } });
    await c.deleteOne({ a: 3 });
    await collMod({ name: 'b_1', hidden: false });
    const explain = await c.find({ b: 7 }).explain('executionStats');
    expect(accessPath(winningPlan(explain))).toMatchObject({ stage: 'IXSCAN', indexName: 'b_1' });
    expect(explain.executionStats).toMatchObject({ nReturned: 2, totalKeysExamined: 2 });
    expect(await c.countDocuments({ b: 0 })).toBe(5);
  });
});

describe('refusals', () => {
  it.each<[string, Document, number, string]>([
    ['the _id index', { name: '_id_', hidden: true }, 2, "can't hide _id index"],
    ['an index that does not exist', { name: 'nope', hidden: true }, 27, 'cannot find index nope for ns'],
    ['an index named by nothing', { hidden: true }, 72, 'Must specify either index name or key pattern.'],
    [
      'an index named twice',
      { name: 'a_1', keyPattern: { a: 1 }, hidden: true },
      72,
      'Cannot specify both key pattern and name.',
    ],
    ['no change', { name: 'a_1' }, 72, 'no expireAfterSeconds, hidden, unique, or prepareUnique field'],
    [
      'a TTL on a compound index',
      { name: 'a_1_b_1', expireAfterSeconds: 5 },
      72,
      'TTL indexes are single-field indexes, compound indexes do not support TTL',
    ],
    ['a TTL on _id', { name: '_id_', expireAfterSeconds: 5 }, 72, 'the _id field does not support TTL indexes'],
    [
      'hidden that is no bool',
      { name: 'a_1', hidden: 1 },
      14,
      "BSON field 'collMod.index.hidden' is the wrong type 'int', expected type 'bool'",
    ],
    [
      'hidden that is no bool, before the missing name',
      { hidden: 'yes' },
      14,
      "BSON field 'collMod.index.hidden' is the wrong type 'string', expected type 'bool'",
    ],
    [
      'a name that is no string',
      { name: 5, hidden: true },
      14,
      "BSON field 'collMod.index.name' is the wrong type 'int', expected type 'string'",
    ],
    [
      'expireAfterSeconds that is no number',
      { name: 'a_1', expireAfterSeconds: '60' },
      14,
      "BSON field 'collMod.index.expireAfterSeconds' is the wrong type 'string', expected types '[long, int, decimal, double]'",
    ],
  ])('collMod refuses %s', async (_label, index, code, message) => {
    await fx.db.collection('hidden').createIndex({ a: 1 });
    await fx.db.collection('hidden').createIndex({ a: 1, b: 1 });
    const error = await rejection(collMod(index));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('createIndexes refuses a hidden _id index and a hidden that is no bool', async () => {
    const hiddenId = await rejection(
      fx.db.command({ createIndexes: 'hidden', indexes: [{ key: { _id: 1 }, name: '_id_', hidden: true }] }),
    );
    expect([hiddenId.code, hiddenId.message]).toEqual([2, "can't hide _id index"]);
    const notBool = await rejection(
      fx.db.command({ createIndexes: 'hidden', indexes: [{ key: { a: 1 }, name: 'a_1', hidden: 'yes' }] }),
    );
    expect(notBool.code).toBe(14);
    // mongod's own words, which name the wrong field.
    expect(notBool.message).toContain("The field 'name' must be a bool, but got string");
  });
});
