/**
 * Conformance: `$sortByCount` is mongod's `$group` by the expression with a
 * `count`, then a `$sort` on `count` descending
 * (document_source_sort_by_count.cpp): values mongod takes as equal (numbers
 * by value across their types, strings by the collation) are one group.
 * Written to hold against a real MongoDB 7 (MONGO_URL) too.
 */
import { Decimal128, type Document, Long } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

describe('conformance: $sortByCount', () => {
  it('should count numbers equal by value as one group, most frequent first', async () => {
    const items = await fx.fresh('sort_by_count');
    await items.insertMany([
      { v: 1 },
      { v: Long.fromNumber(1) },
      { v: Decimal128.fromString('1.0') },
      { v: 2 },
      { v: 2 },
      { v: 'x' },
    ] as Document[]);
    const results = await items.aggregate([{ $sortByCount: '$v' }]).toArray();
    expect(results.map((doc) => [typeof doc._id === 'string' ? doc._id : Number(doc._id), doc.count])).toEqual([
      [1, 3],
      [2, 2],
      ['x', 1],
    ]);
  });

  it('should count strings equal under the collation as one group', async () => {
    const items = await fx.fresh('sort_by_count');
    await items.insertMany([{ v: 'a' }, { v: 'A' }, { v: 'b' }] as Document[]);
    const results = await items
      .aggregate([{ $sortByCount: '$v' }], { collation: { locale: 'en', strength: 2 } })
      .toArray();
    expect(results.map((doc) => [(doc._id as string).toLowerCase(), doc.count])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });
});
