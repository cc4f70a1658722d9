/**
 * Conformance: the array accumulators as mongod's (accumulator_push.cpp,
 * accumulator_add_to_set.cpp, accumulator_multi.cpp) in `$group`,
 * `$bucket` and `$setWindowFields`: a missing value is left out of `$push`
 * and `$addToSet` (a null is kept), `$addToSet` keeps one of the values
 * mongod takes as equal (numbers by value across their types, strings by
 * the collation); `$firstN`/`$lastN` take the first or last documents'
 * values (null for a missing one), `$minN`/`$maxN` the least or greatest in
 * BSON order without nulls, `$top`/`$bottom` one value and
 * `$topN`/`$bottomN` a list, by `sortBy` in BSON order. Written to hold
 * against a real MongoDB 7 (MONGO_URL) too.
 */
import { Decimal128, type Document, Double, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** `accumulator` over `docs` in each stage that takes one, as `{ group, bucket, window }`. */
async function accumulated(docs: Document[], accumulator: Document, options: Document = {}): Promise<Document> {
  const collection = await fx.fresh('array_accumulators');
  await collection.insertMany(docs);
  const run = async (stage: Document) =>
    ((await collection.aggregate([stage, { $limit: 1 }], options).toArray())[0] as Document).out as unknown;
  return {
    group: await run({ $group: { _id: null, out: accumulator } }),
    bucket: await run({ $bucket: { groupBy: { $literal: 1 }, boundaries: [0, 2], output: { out: accumulator } } }),
    window: await run({ $setWindowFields: { sortBy: { _id: 1 }, output: { out: accumulator } } }),
  };
}

/** The same answer from each stage. */
const everywhere = (value: unknown) => ({ group: value, bucket: value, window: value });

describe('conformance: $push and $addToSet accumulators', () => {
  it('should leave a missing value out of $push and keep a null', async () => {
    const docs = [{ _id: 0, v: 1 }, { _id: 1 }, { _id: 2, v: null }];
    expect(await accumulated(docs, { $push: '$v' })).toEqual(everywhere([1, null]));
  });

  it('should push nothing when every value is missing', async () => {
    expect(await accumulated([{ _id: 0 }, { _id: 1 }], { $push: '$v' })).toEqual(everywhere([]));
    expect(await accumulated([{ _id: 0 }, { _id: 1 }], { $addToSet: '$v' })).toEqual(everywhere([]));
  });

  it('should keep one of the numbers $addToSet takes as equal across their types', async () => {
    const docs = [
      { _id: 0, v: 1 },
      { _id: 1, v: new Double(1) },
      { _id: 2, v: Long.fromNumber(1) },
      { _id: 3, v: Decimal128.fromString('1.0') },
      { _id: 4, v: 2 },
    ];
    const result = await accumulated(docs, { $addToSet: '$v' });
    for (const values of Object.values(result)) {
      expect((values as unknown[]).map(Number).sort()).toEqual([1, 2]);
    }
  });

  it('should keep one of the strings equal under the collation', async () => {
    const docs = [
      { _id: 0, v: 'a' },
      { _id: 1, v: 'A' },
      { _id: 2, v: 'b' },
    ];
    const result = await accumulated(docs, { $addToSet: '$v' }, { collation: { locale: 'en', strength: 2 } });
    for (const values of Object.values(result)) {
      expect((values as string[]).map((v) => v.toLowerCase()).sort()).toEqual(['a', 'b']);
    }
  });

  it('should give null for $first and $last of a missing value', async () => {
    const docs = [{ _id: 0 }, { _id: 1, v: 2 }, { _id: 2 }];
    expect(await accumulated(docs, { $first: '$v' })).toEqual(everywhere(null));
    expect(await accumulated(docs, { $last: '$v' })).toEqual(everywhere(null));
  });

  it('should merge the values of $mergeObjects, a missing one adding nothing; not a window function in 7.0', async () => {
    const docs: Document[] = [{ _id: 0, d: { a: 1, b: 1 } }, { _id: 1 }, { _id: 2, d: { b: 2 } }];
    const collection = await fx.fresh('array_accumulators');
    await collection.insertMany(docs);
    const run = async (stage: Document) =>
      ((await collection.aggregate([stage]).toArray())[0] as Document).out as unknown;
    expect(await run({ $group: { _id: null, out: { $mergeObjects: '$d' } } })).toEqual({ a: 1, b: 2 });
    const bucket = { groupBy: { $literal: 1 }, boundaries: [0, 2], output: { out: { $mergeObjects: '$d' } } };
    expect(await run({ $bucket: bucket })).toEqual({ a: 1, b: 2 });
    // jstests/aggregation/sources/setWindowFields/parse.js: 7.0 has no $mergeObjects window function.
    const window = { sortBy: { _id: 1 }, output: { out: { $mergeObjects: '$d' } } };
    const error = await rejection(collection.aggregate([{ $setWindowFields: window }]).toArray());
    expect([error.code, error.message]).toEqual([9, 'Unrecognized window function, $mergeObjects']);
  });

  describe('the n family', () => {
    const mixed = [
      { _id: 0, v: 5 },
      { _id: 1, v: Long.fromNumber(3) },
      { _id: 2, v: Decimal128.fromString('10') },
      { _id: 3, v: null },
      { _id: 4 },
    ];
    const numbers = (value: unknown) => (value as unknown[]).map((v) => (v === null ? null : Number(v)));

    it.each([
      ['$firstN', { $firstN: { n: 2, input: '$v' } }, [5, 3]],
      ['$lastN (null for a missing value)', { $lastN: { n: 2, input: '$v' } }, [null, null]],
      ['$minN (in BSON order, without nulls)', { $minN: { n: 2, input: '$v' } }, [3, 5]],
      ['$maxN (in BSON order, without nulls)', { $maxN: { n: 4, input: '$v' } }, [10, 5, 3]],
    ])('%s', async (_, accumulator, expected) => {
      const result = await accumulated(mixed, accumulator);
      expect(Object.fromEntries(Object.entries(result).map(([stage, value]) => [stage, numbers(value)]))).toEqual(
        everywhere(expected),
      );
    });

    const ranked = mixed.slice(0, 3);
    it.each([
      ['$top (one value)', { $top: { sortBy: { v: -1 }, output: '$_id' } }, 2],
      ['$bottom (one value)', { $bottom: { sortBy: { v: -1 }, output: '$_id' } }, 1],
      ['$topN', { $topN: { n: 2, sortBy: { v: 1 }, output: '$_id' } }, [1, 0]],
      ['$bottomN (in sort order)', { $bottomN: { n: 2, sortBy: { v: 1 }, output: '$_id' } }, [0, 2]],
    ])('%s by sortBy in BSON order', async (_, accumulator, expected) => {
      expect(await accumulated(ranked, accumulator)).toEqual(everywhere(expected));
    });
  });
});
