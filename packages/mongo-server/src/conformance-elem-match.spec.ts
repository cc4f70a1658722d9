/**
 * Conformance: `$elemMatch` and `$all` over the arrays a path reaches. The
 * path is walked as for every query operator (its documents through an array
 * on the way), an array at its end is what `$elemMatch` looks into, and its
 * elements are tested one by one: as values when the criteria's first field
 * is an operator (`{ $gte: 80, $lt: 85 }`), as documents otherwise. `$all`
 * is either all `$elemMatch`es or none, with mongod's errors. Through the
 * driver only, so it passes unchanged against a real MongoDB (MONGO_URL).
 * @see https://www.mongodb.com/docs/manual/reference/operator/query/elemMatch/
 * @see https://www.mongodb.com/docs/manual/reference/operator/query/all/
 */
import type { Collection } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();
let c: Collection<{ _id: string }>;

beforeAll(async () => {
  c = (await fx.fresh('elem_match')) as unknown as Collection<{ _id: string }>;
  await c.insertMany([
    {
      _id: 'lines with discounts',
      lines: [{ discounts: [{ code: 'A', pct: 5 }] }, { discounts: [{ code: 'B', pct: 20 }] }],
    },
    {
      _id: 'one line, two discounts',
      lines: [
        {
          discounts: [
            { code: 'A', pct: 20 },
            { code: 'B', pct: 5 },
          ],
        },
      ],
    },
    { _id: 'lines with scalar discounts', lines: [{ discounts: 20 }, { discounts: 'B' }] },
    { _id: 'nested under a document', order: { lines: [{ discounts: [{ code: 'B', pct: 20 }] }] } },
    { _id: 'scores', scores: [82, 95] },
    { _id: 'scores in an array', scores: [[82, 95]] },
    {
      _id: 'results',
      results: [
        { product: 'abc', score: 10 },
        { product: 'xyz', score: 5 },
      ],
    },
    { _id: 'results in an array', results: [[{ product: 'xyz', score: 10 }]] },
  ] as never[]);
});

async function matched(filter: object): Promise<string[]> {
  return (await c.find(filter as never).toArray()).map((doc) => doc._id).sort();
}

describe('$elemMatch', () => {
  it.each<[string, object, string[]]>([
    // Through an array of documents, each document's array is looked into.
    [
      "{ 'lines.discounts': { $elemMatch: { code: 'B', pct: 20 } } }",
      { 'lines.discounts': { $elemMatch: { code: 'B', pct: 20 } } },
      ['lines with discounts'],
    ],
    // The two conditions hold for one element, not for two.
    [
      "{ 'lines.discounts': { $elemMatch: { code: 'A', pct: 20 } } }",
      { 'lines.discounts': { $elemMatch: { code: 'A', pct: 20 } } },
      ['one line, two discounts'],
    ],
    [
      "{ 'order.lines.discounts': { $elemMatch: { pct: { $gt: 10 } } } }",
      { 'order.lines.discounts': { $elemMatch: { pct: { $gt: 10 } } } },
      ['nested under a document'],
    ],
    // A field that holds no array matches no $elemMatch, even when an array led to it.
    ["{ 'lines.discounts': { $elemMatch: { $eq: 20 } } }", { 'lines.discounts': { $elemMatch: { $eq: 20 } } }, []],
    [
      '{ scores: { $elemMatch: { $gte: 80, $lt: 85 } } }',
      { scores: { $elemMatch: { $gte: 80, $lt: 85 } } },
      ['scores'],
    ],
    [
      "{ results: { $elemMatch: { product: 'xyz', score: { $gte: 8 } } } }",
      { results: { $elemMatch: { product: 'xyz', score: { $gte: 8 } } } },
      [],
    ],
    [
      "{ results: { $elemMatch: { product: 'abc', score: { $gte: 8 } } } }",
      { results: { $elemMatch: { product: 'abc', score: { $gte: 8 } } } },
      ['results'],
    ],
    // An array element is read as the document of its indexes.
    [
      "{ results: { $elemMatch: { '0.product': 'xyz' } } }",
      { results: { $elemMatch: { '0.product': 'xyz' } } },
      ['results in an array'],
    ],
    ['{ scores: { $elemMatch: { $size: 2 } } }', { scores: { $elemMatch: { $size: 2 } } }, ['scores in an array']],
  ])('%s', async (_label, filter, expected) => {
    expect(await matched(filter)).toEqual([...expected].sort());
  });

  it('refuses criteria that are no document', async () => {
    const error = await rejection(c.find({ scores: { $elemMatch: 5 } } as never).toArray());
    expect([error.code, error.message]).toEqual([2, '$elemMatch needs an Object']);
  });

  // mongod parses an $elemMatch object as a sub-document (kUserSubDocument), where these are refused.
  it.each<[string, object]>([
    ['$expr', { $expr: { $gt: ['$score', 5] } }],
    ['$sampleRate', { $sampleRate: 0.5 }],
    ['$text', { $text: { $search: 'abc' } }],
    ['$expr', { $or: [{ product: 'abc' }, { $expr: { $gt: ['$score', 5] } }] }],
    ['$sampleRate', { $and: [{ $nor: [{ $sampleRate: 1 }] }] }],
  ])('refuses %s in its criteria (%j)', async (operator, criteria) => {
    const error = await rejection(c.find({ results: { $elemMatch: criteria } } as never).toArray());
    expect([error.code, error.message]).toEqual([2, `${operator} can only be applied to the top-level document`]);
  });
});

describe('$all', () => {
  it.each<[string, object, string[]]>([
    [
      "{ 'lines.discounts': { $all: [{ $elemMatch: { code: 'A' } }, { $elemMatch: { code: 'B' } }] } }",
      { 'lines.discounts': { $all: [{ $elemMatch: { code: 'A' } }, { $elemMatch: { code: 'B' } }] } },
      ['lines with discounts', 'one line, two discounts'],
    ],
    [
      "{ 'lines.discounts': { $all: [20, 'B'] } }",
      { 'lines.discounts': { $all: [20, 'B'] } },
      ['lines with scalar discounts'],
    ],
    ['{ scores: { $all: [95, 82] } }', { scores: { $all: [95, 82] } }, ['scores']],
    ['{ scores: { $all: [] } }', { scores: { $all: [] } }, []],
  ])('%s', async (_label, filter, expected) => {
    expect(await matched(filter)).toEqual([...expected].sort());
  });

  it.each<[string, unknown[], string]>([
    ['a value after an $elemMatch', [{ $elemMatch: { a: 1 } }, 5], '$all/$elemMatch has to be consistent'],
    ['an $elemMatch after a value', [5, { $elemMatch: { a: 1 } }], 'no $ expressions in $all'],
    ['an operator', [{ $gt: 5 }], 'no $ expressions in $all'],
  ])('refuses %s', async (_label, operand, message) => {
    const error = await rejection(c.find({ scores: { $all: operand } } as never).toArray());
    expect([error.code, error.message]).toEqual([2, message]);
  });
});
