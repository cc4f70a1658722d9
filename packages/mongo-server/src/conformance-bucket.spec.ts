/**
 * Conformance: `$bucket` as mongod runs it (document_source_bucket.cpp: a
 * `$group` by a `$switch` over `[lower, upper)` ranges, then a `$sort` on
 * `_id`): a value equal to a boundary is in the bucket it starts, numbers
 * fall in by value whatever their type, only buckets holding documents are
 * emitted, in order, as `{ _id, count }` or `{ _id, ...output }`; a value
 * outside every bucket without a `default` fails (40066). The spec's
 * checks with mongod's codes, before any document is read. And
 * jstests/aggregation/sources/bucket/collation_bucket.js: buckets, their
 * order and the checks of `boundaries` and `default` follow the collation.
 * `$bucketAuto` as mongod fills its buckets (document_source_bucket_auto.cpp):
 * sorted by value in BSON order (missing as null), about round(n / buckets)
 * documents each, equal values kept in one bucket, each `max` the next
 * bucket's `min`, and its spec's codes. Written to hold against a real
 * MongoDB 7 (MONGO_URL) too.
 */
import { Decimal128, type Document, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

describe('conformance: $bucket', () => {
  it('should put a value equal to a boundary in the bucket it starts, numbers by value, and emit no empty bucket', async () => {
    const items = await fx.fresh('bucket_values');
    await items.insertMany([
      { _id: 0, v: 0 },
      { _id: 1, v: 1 },
      { _id: 2, v: 1.5 },
      { _id: 3, v: Long.fromNumber(1) },
      { _id: 4, v: Decimal128.fromString('2.0') },
      { _id: 5, v: 'x' },
      { _id: 6 },
    ] as Document[]);
    const results = await items
      .aggregate([{ $bucket: { groupBy: '$v', boundaries: [0, 1, 2, 3, 4], default: 'other' } }])
      .toArray();
    expect(results).toEqual([
      { _id: 0, count: 1 },
      { _id: 1, count: 3 },
      { _id: 2, count: 1 },
      { _id: 'other', count: 2 },
    ]);
    expect(results.map((doc) => Object.keys(doc))).toEqual(results.map(() => ['_id', 'count']));
  });

  it('should accumulate the output fields instead of a count', async () => {
    const items = await fx.fresh('bucket_output');
    await items.insertMany([
      { _id: 0, v: 5, name: 'a' },
      { _id: 1, v: 15, name: 'b' },
      { _id: 2, v: 12, name: 'c' },
    ] as Document[]);
    const results = await items
      .aggregate([
        {
          $bucket: {
            groupBy: '$v',
            boundaries: [0, 10, 20],
            output: { names: { $push: '$name' }, total: { $sum: '$v' } },
          },
        },
      ])
      .toArray();
    expect(results).toEqual([
      { _id: 0, names: ['a'], total: 5 },
      { _id: 10, names: ['b', 'c'], total: 27 },
    ]);
  });

  it('should fail for a value outside every bucket without a default (40066)', async () => {
    const items = await fx.fresh('bucket_outside');
    await items.insertMany([{ v: 1 }, { v: 50 }] as Document[]);
    const error = await rejection(items.aggregate([{ $bucket: { groupBy: '$v', boundaries: [0, 10] } }]).toArray());
    expect(error.code).toBe(40066);
  });

  it.each<[string, unknown, number]>([
    ['a spec that is not an object', 1, 40201],
    ['a groupBy that is neither a path nor an expression', { groupBy: 'v', boundaries: [0, 1] }, 40202],
    ['boundaries that are not an array', { groupBy: '$v', boundaries: 1 }, 40200],
    ['a boundary that is not constant', { groupBy: '$v', boundaries: [0, '$x'] }, 40191],
    ['fewer than 2 boundaries', { groupBy: '$v', boundaries: [0] }, 40192],
    ['boundaries of different types', { groupBy: '$v', boundaries: [0, 'a'] }, 40193],
    ['boundaries not in ascending order', { groupBy: '$v', boundaries: [0, 5, 5] }, 40194],
    ['a default that is not constant', { groupBy: '$v', boundaries: [0, 1], default: '$x' }, 40195],
    ['an output that is not an object', { groupBy: '$v', boundaries: [0, 1], output: 1 }, 40196],
    ['an unknown option', { groupBy: '$v', boundaries: [0, 1], bins: 2 }, 40197],
    ['no boundaries', { groupBy: '$v' }, 40198],
    ['no groupBy', { boundaries: [0, 1] }, 40198],
    ['a default within the boundaries', { groupBy: '$v', boundaries: [0, 10], default: 5 }, 40199],
  ])('should refuse %s before reading a document', async (_, spec, code) => {
    const items = await fx.fresh('bucket_empty');
    expect((await rejection(items.aggregate([{ $bucket: spec } as Document]).toArray())).code).toBe(code);
  });

  it('should take constant expressions as boundaries and default', async () => {
    const items = await fx.fresh('bucket_constants');
    await items.insertMany([{ v: 1 }, { v: 3 }, { v: 9 }] as Document[]);
    const results = await items
      .aggregate([
        {
          $bucket: {
            groupBy: '$v',
            boundaries: [{ $literal: 0 }, { $add: [1, 1] }, 4],
            default: { $concat: ['o', 'ther'] },
          },
        },
      ])
      .toArray();
    expect(results).toEqual([
      { _id: 0, count: 1 },
      { _id: 2, count: 1 },
      { _id: 'other', count: 1 },
    ]);
  });
});

describe('conformance: $bucket under a collation (collation_bucket.js)', () => {
  const NUMBERS = ['1', '2', '5', '10', '20', '50', '100', '200', '500'];
  const numericOrdering = { collation: { locale: 'en_US', numericOrdering: true } };
  const simple = { collation: { locale: 'simple' } };

  /** Drops the collection and fills it again, with `options` (a default collation) when given. */
  async function fill(options?: Document): Promise<void> {
    await fx.fresh('collation_bucket');
    if (options) await fx.db.createCollection('collation_bucket', options);
    await fx.db.collection('collation_bucket').insertMany(NUMBERS.map((num) => ({ num })));
  }
  const bucket = (spec: Document, options: Document = {}) =>
    fx.db
      .collection('collation_bucket')
      .aggregate([{ $bucket: { groupBy: '$num', ...spec } }], options)
      .toArray();

  it("should define and sort the buckets by the aggregate's collation", async () => {
    await fill();
    expect(await bucket({ boundaries: ['1', '10', '100', '1000'] }, numericOrdering)).toEqual([
      { _id: '1', count: 3 },
      { _id: '10', count: 3 },
      { _id: '100', count: 3 },
    ]);
    // Sorted by numeric ordering only ("50" is above "1000" byte by byte).
    expect(await bucket({ boundaries: ['1', '5', '50', '1000'] }, numericOrdering)).toEqual([
      { _id: '1', count: 2 },
      { _id: '5', count: 3 },
      { _id: '50', count: 4 },
    ]);
  });

  it("should define them by the collection's default collation, which the simple collation overrides", async () => {
    await fill(numericOrdering);
    expect(await bucket({ boundaries: ['1', '10', '100', '1000'] })).toEqual([
      { _id: '1', count: 3 },
      { _id: '10', count: 3 },
      { _id: '100', count: 3 },
    ]);
    // Under a lexicographical comparison "2" and "5" fall into no bucket.
    await rejection(bucket({ boundaries: ['1', '10', '100', '1000'] }, simple));
  });

  it('should refuse boundaries not sorted by the collation, and a default within them', async () => {
    await fill(numericOrdering);
    await rejection(bucket({ boundaries: ['100', '20', '4'] }));
    await rejection(bucket({ boundaries: ['4', '20', '100'] }, simple));
    await rejection(bucket({ boundaries: ['1', '10', '100'], default: '40' }));
    await rejection(bucket({ boundaries: ['100', '999'], default: '2' }, simple));
  });

  it('should take a default outside the boundaries by the collation', async () => {
    await fill(numericOrdering);
    expect(await bucket({ boundaries: ['100', '999'], default: '2' })).toEqual([
      { _id: '2', count: 6 },
      { _id: '100', count: 3 },
    ]);
    expect(await bucket({ boundaries: ['1', '19999'], default: '2' }, simple)).toEqual([
      { _id: '1', count: 3 },
      { _id: '2', count: 6 },
    ]);
  });
});

describe('conformance: $bucketAuto', () => {
  /** `$bucketAuto` of `spec` over documents holding `values` in `v` (undefined: no `v`). */
  async function bucketAuto(values: unknown[], spec: Document): Promise<Document[]> {
    const items = await fx.fresh('bucket_auto');
    await items.insertMany(values.map((v, i) => (v === undefined ? { _id: i } : { _id: i, v })) as Document[]);
    return items.aggregate([{ $bucketAuto: { groupBy: '$v', ...spec } }]).toArray();
  }

  it('should fill buckets in BSON order, numbers by value, a missing value as null', async () => {
    const values = [0, 1, 1.5, 2, Long.fromNumber(1), 5, undefined];
    const results = await bucketAuto(values, { buckets: 3 });
    expect(results.map((doc) => ({ ...doc, _id: { min: Number(doc._id.min), max: Number(doc._id.max) } }))).toEqual([
      { _id: { min: 0, max: 1 }, count: 2 },
      { _id: { min: 1, max: 1.5 }, count: 2 },
      { _id: { min: 1.5, max: 5 }, count: 3 },
    ]);
    expect(results[0]!._id.min).toBeNull();
    expect(results.map((doc) => Object.keys(doc))).toEqual(results.map(() => ['_id', 'count']));
  });

  it('should keep equal values in one bucket and accumulate the output fields', async () => {
    expect(await bucketAuto([1, 1, 2, 1, 1], { buckets: 2, output: { ids: { $push: '$_id' } } })).toEqual([
      { _id: { min: 1, max: 2 }, ids: [0, 1, 3, 4] },
      { _id: { min: 2, max: 2 }, ids: [2] },
    ]);
  });

  it('should make a bucket per document when there are fewer documents than buckets', async () => {
    expect(await bucketAuto(['b', 'a'], { buckets: 5 })).toEqual([
      { _id: { min: 'a', max: 'b' }, count: 1 },
      { _id: { min: 'b', max: 'b' }, count: 1 },
    ]);
  });

  it.each<[string, unknown, number]>([
    ['a spec that is not an object', 1, 40240],
    ['a groupBy that is neither a path nor an expression', { groupBy: 'v', buckets: 2 }, 40239],
    ['buckets that are not a number', { groupBy: '$v', buckets: '2' }, 40241],
    ['buckets that are not an integer', { groupBy: '$v', buckets: 1.5 }, 40242],
    ['no bucket', { groupBy: '$v', buckets: 0 }, 40243],
    ['an output that is not an object', { groupBy: '$v', buckets: 2, output: 1 }, 40244],
    ['an unknown option', { groupBy: '$v', buckets: 2, boundaries: [0, 1] }, 40245],
    ['no buckets', { groupBy: '$v' }, 40246],
    ['a granularity that is not a string', { groupBy: '$v', buckets: 2, granularity: 5 }, 40261],
  ])('should refuse %s before reading a document', async (_, spec, code) => {
    const items = await fx.fresh('bucket_auto_empty');
    expect((await rejection(items.aggregate([{ $bucketAuto: spec } as Document]).toArray())).code).toBe(code);
  });
});
