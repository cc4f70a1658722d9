/**
 * Conformance: `$lookup` with `let` and `pipeline` joins each local document
 * to exactly the foreign documents its sub-pipeline keeps, by the definition
 * (document_source_lookup.cpp): the pipeline runs over the foreign
 * collection with the `let` variables bound to the local document's values.
 * The same join is done here with one `find` per local document, its filter
 * the pipeline's `$match` and its `let` the variable's value; both must give
 * the same documents, over random documents holding numbers of four types
 * (NaN too), strings equal under a collation, null, arrays, nested arrays and
 * documents, with and without a collation, for pipelines that correlate by
 * an `$expr` equality (alone, reversed, in an `$and`, beside other
 * conditions, on a dotted path) and pipelines that read no variable. Written
 * to hold against a real MongoDB 7 (MONGO_URL) too.
 */
import fc from 'fast-check';
import { type CollationOptions, Decimal128, type Document, Double, Long, ObjectId } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const LOCAL = 'lookup_pipeline_local';
const FOREIGN = 'lookup_pipeline_foreign';

/** Values that meet often (equal numbers of four types, strings equal under the collation, null), and the rest. */
const scalar = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(2, new Double(2), new Long(2), Decimal128.fromString('2'), 'a', 'A', null),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      1,
      2.5,
      Number.NaN,
      'b',
      '',
      true,
      new ObjectId('65a000000000000000000001'),
      new Date('2026-01-02T00:00:00Z'),
    ),
  },
);
const value = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.array(fc.array(scalar, { maxLength: 2 }), { maxLength: 2 }) },
  { weight: 1, arbitrary: scalar.map((y) => ({ y })) },
);
const foreignDocs = fc
  .array(fc.record({ k: value, n: fc.constantFrom(0, 1, 2) }, { requiredKeys: ['n'] }), { maxLength: 25 })
  .map((docs) => docs.map((doc, i) => ({ _id: i, ...doc })));

/** A sub-pipeline's `$match` (the whole pipeline), and whether it reads the variable `v`. */
const match = fc.constantFrom<Document>(
  { $expr: { $eq: ['$k', '$$v'] } },
  { $expr: { $eq: ['$$v', '$k'] } },
  { $expr: { $and: [{ $eq: ['$k', '$$v'] }, { $gte: ['$n', 1] }] } },
  { $expr: { $and: [{ $gte: ['$n', 1] }, { $eq: ['$$v', '$k'] }] } },
  { $expr: { $eq: ['$k', '$$v'] }, n: { $ne: 2 } },
  { $expr: { $eq: ['$k.y', '$$v'] } },
  { $expr: { $or: [{ $eq: ['$k', '$$v'] }, { $eq: ['$n', 2] }] } },
  { k: 'a' },
  { n: { $gte: 1 } },
  { $expr: { $eq: ['$k', 'A'] } },
);
const join = fc.record({
  locals: fc.array(value, { minLength: 1, maxLength: 4 }),
  match,
  collation: fc.option(fc.constant<CollationOptions>({ locale: 'en', strength: 2 }), { nil: undefined }),
});
type Join = typeof join extends fc.Arbitrary<infer T> ? T : never;

/** The `_id`s of the foreign documents the join's `$match` keeps with `v` bound to `local`, in order. */
async function joinByFind(local: unknown, spec: Join): Promise<unknown[]> {
  const found = await fx.db
    .collection(FOREIGN)
    .find(spec.match, { let: { v: { $literal: local } }, ...(spec.collation ? { collation: spec.collation } : {}) })
    .toArray();
  return found.map((doc) => doc._id).sort();
}

/** The `_id`s `$lookup` joined to each local document, in order. */
async function joinByLookup(spec: Join): Promise<unknown[][]> {
  const results = await fx.db
    .collection(LOCAL)
    .aggregate(
      [
        { $sort: { _id: 1 } },
        { $lookup: { from: FOREIGN, let: { v: '$x' }, pipeline: [{ $match: spec.match }], as: 'joined' } },
      ],
      spec.collation ? { collation: spec.collation } : {},
    )
    .toArray();
  return results.map((doc) => (doc.joined as Document[]).map((found) => found._id).sort());
}

describe('conformance: $lookup with let and pipeline equals a find per local document', () => {
  it('should join the documents the pipeline keeps for each local value', async () => {
    await fc.assert(
      fc.asyncProperty(foreignDocs, join, async (docs, spec) => {
        const foreign = await fx.fresh(FOREIGN);
        if (docs.length > 0) await foreign.insertMany(docs as Document[]);
        const local = await fx.fresh(LOCAL);
        await local.insertMany(spec.locals.map((x, i) => ({ _id: i, x }) as Document));
        const expected = [];
        for (const x of spec.locals) expected.push(await joinByFind(x, spec));
        expect(await joinByLookup(spec)).toEqual(expected);
      }),
      { numRuns: 80 },
    );
  });

  it('should draw a $sample for each local document, not once for all of them', async () => {
    const foreign = await fx.fresh(FOREIGN);
    await foreign.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i }) as Document));
    const local = await fx.fresh(LOCAL);
    await local.insertMany(Array.from({ length: 30 }, (_, i) => ({ _id: i }) as Document));
    const results = await local
      .aggregate([{ $lookup: { from: FOREIGN, pipeline: [{ $sample: { size: 1 } }], as: 'picked' } }])
      .toArray();
    const picked = new Set(results.map((doc) => (doc.picked as Document[])[0]!._id));
    // One draw for all would give one _id; 30 draws of 50 give one _id with a chance of 50^-29.
    expect(picked.size).toBeGreaterThan(1);
  });

  it('should set a dotted as as a path, correlated or not', async () => {
    const local = await fx.fresh(LOCAL);
    await local.insertMany([{ _id: 0, x: 1, out: 5 }] as Document[]);
    const foreign = await fx.fresh(FOREIGN);
    await foreign.insertMany([{ _id: 7, k: 1 }] as Document[]);
    const [correlated] = await local
      .aggregate([
        {
          $lookup: {
            from: FOREIGN,
            let: { v: '$x' },
            pipeline: [{ $match: { $expr: { $eq: ['$k', '$$v'] } } }],
            as: 'out.joined',
          },
        },
      ])
      .toArray();
    expect(correlated).toEqual({ _id: 0, x: 1, out: { joined: [{ _id: 7, k: 1 }] } });
    const [uncorrelated] = await local
      .aggregate([{ $lookup: { from: FOREIGN, pipeline: [{ $project: { _id: 1 } }], as: 'a.b' } }])
      .toArray();
    expect(uncorrelated).toEqual({ _id: 0, x: 1, out: 5, a: { b: [{ _id: 7 }] } });
  });
});
