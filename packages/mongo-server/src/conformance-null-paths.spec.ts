/**
 * Conformance: the elements a query path reaches and how operators compare
 * them, as MongoDB 7's matcher walks a path (its `BSONElementIterator`):
 * - equality to null along a dotted path matches a missing or null field,
 *   something other than a document where the path expects one, and a
 *   document in an array on the way that lacks the field; an array that holds
 *   no document gives nothing, which not even null matches (MongoDB 8 changed
 *   that: SERVER-36681). The expectations are those of mongod's
 *   jstests/core/null_query_semantics.js before that change, without its BSON
 *   undefined documents. `$ne`, `$in` and `$nin` with null read it the same way;
 * - positional paths (`a.0`, `a.1.b`): the element at the index itself, never
 *   its contents, and a field named "0" in the array's documents;
 * - `$exists` along a path.
 * Through the driver only, with and without an index on the path, so it
 * passes unchanged against a real MongoDB (MONGO_URL).
 * @see https://www.mongodb.com/docs/manual/tutorial/query-for-null-fields/
 * @see https://www.mongodb.com/docs/manual/tutorial/query-arrays/#query-for-an-element-by-the-array-index-position
 */
import type { Collection } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();
let c: Collection<{ _id: string; a?: unknown }>;

const DOCUMENTS: { _id: string; a?: unknown }[] = [
  { _id: 'no a' },
  { _id: 'a null', a: null },
  { _id: 'a number', a: 4 },
  { _id: 'a empty document', a: {} },
  { _id: 'a.b null', a: { b: null } },
  { _id: 'a.b string', a: { b: 'hi' } },
  { _id: 'a empty array', a: [] },
  { _id: 'a array in array', a: [[]] },
  { _id: 'a numbers', a: [1, 'string', 4] },
  { _id: 'a nulls', a: [null, null] },
  { _id: 'a numbers and null', a: [1, null] },
  { _id: 'a documents, b set', a: [{ b: 1 }, { b: 'string' }] },
  { _id: 'a documents, one b null', a: [{ b: null }, { b: 3 }] },
  { _id: 'a documents, one b missing', a: [{ b: 3 }, {}] },
  { _id: 'a document and a number', a: [{ b: 1 }, 5] },
];

/** What `{ 'a.b': null }` matches among DOCUMENTS. */
const B_NULL = [
  'no a',
  'a null',
  'a number',
  'a empty document',
  'a.b null',
  'a documents, one b null',
  'a documents, one b missing',
].sort();
const B_NOT_NULL = DOCUMENTS.map((doc) => doc._id)
  .filter((id) => !B_NULL.includes(id))
  .sort();

beforeAll(async () => {
  c = (await fx.fresh('null_paths')) as unknown as Collection<{ _id: string; a?: unknown }>;
  await c.insertMany(DOCUMENTS);
  await c.createIndex({ 'a.b': 1 });
});

async function matched(filter: object, hint?: object): Promise<string[]> {
  return (await c.find(filter as never, hint ? { hint } : {}).toArray()).map((doc) => doc._id).sort();
}

describe('null along a dotted path', () => {
  it.each<[string, object, string[]]>([
    ["{ 'a.b': null }", { 'a.b': null }, B_NULL],
    ["{ 'a.b': { $eq: null } }", { 'a.b': { $eq: null } }, B_NULL],
    ["{ 'a.b': { $ne: null } }", { 'a.b': { $ne: null } }, B_NOT_NULL],
    ["{ 'a.b': { $in: [null, 3] } }", { 'a.b': { $in: [null, 3] } }, B_NULL],
    [
      "{ 'a.b': { $nin: [null, 'string'] } }",
      { 'a.b': { $nin: [null, 'string'] } },
      [
        'a array in array',
        'a document and a number',
        'a empty array',
        'a numbers',
        'a numbers and null',
        'a nulls',
        'a.b string',
      ],
    ],
    // The top-level field: an array matches null only by holding one.
    ['{ a: null }', { a: null }, ['a null', 'a nulls', 'a numbers and null', 'no a']],
  ])('%s', async (_label, filter, expected) => {
    expect(await matched(filter, { $natural: 1 })).toEqual([...expected].sort());
    expect(await matched(filter)).toEqual([...expected].sort());
  });
});

describe('values along a dotted path', () => {
  let paths: Collection<{ _id: string; a?: unknown }>;
  beforeAll(async () => {
    paths = (await fx.fresh('dotted_paths')) as unknown as Collection<{ _id: string; a?: unknown }>;
    await paths.insertMany([
      { _id: 'array in array', a: [[1, 2], 3] },
      { _id: 'document in array in array', a: [[{ b: 2 }]] },
      { _id: 'documents, b 1 and 2', a: [{ b: 1 }, { b: 2 }] },
      { _id: 'document, b [1, 2]', a: [{ b: [1, 2] }] },
      { _id: 'document, b [[1, 2]]', a: [{ b: [[1, 2]] }] },
    ]);
  });

  it.each<[string, object, string[]]>([
    ['a field of an array inside an array', { 'a.zzz': 2 }, []],
    // An array inside an array on the way is not descended; an array at the end is, one level.
    ['a document inside an array inside an array', { 'a.b': 2 }, ['document, b [1, 2]', 'documents, b 1 and 2']],
    ['the same, by a range', { 'a.b': { $gte: 2 } }, ['document, b [1, 2]', 'documents, b 1 and 2']],
    // The fields' values are compared one by one, never as the array of them.
    [
      'an array against the fields of documents in an array',
      { 'a.b': [1, 2] },
      ['document, b [1, 2]', 'document, b [[1, 2]]'],
    ],
    ['an element of an array at the end', { 'a.b': 1 }, ['document, b [1, 2]', 'documents, b 1 and 2']],
    ['an array in an array at the end, whole', { 'a.b': [[1, 2]] }, ['document, b [[1, 2]]']],
  ])('%s', async (_label, filter, expected) => {
    const found = await paths.find(filter as never).toArray();
    expect(found.map((doc) => doc._id).sort()).toEqual(expected.sort());
  });
});

describe('positional paths and $exists', () => {
  let positions: Collection<{ _id: string; a?: unknown }>;
  beforeAll(async () => {
    positions = (await fx.fresh('positional_paths')) as unknown as Collection<{ _id: string; a?: unknown }>;
    await positions.insertMany([
      { _id: '[5]', a: [5] },
      { _id: '[[5]]', a: [[5]] },
      { _id: '[[[5]]]', a: [[[5]]] },
      { _id: "[{ '0': 5 }]", a: [{ '0': 5 }] },
      { _id: "{ '0': 5 }", a: { '0': 5 } },
      { _id: "[{ '0': [7] }]", a: [{ '0': [7] }] },
      { _id: '[{ b: 5 }]', a: [{ b: 5 }] },
      { _id: '[[{ b: 5 }]]', a: [[{ b: 5 }]] },
      { _id: '[1, [5]]', a: [1, [5]] },
      { _id: '[{ b: [5, 6] }]', a: [{ b: [5, 6] }] },
      { _id: '[{ b: 1 }, { b: 5 }]', a: [{ b: 1 }, { b: 5 }] },
      { _id: '[{ b: 1 }, {}]', a: [{ b: 1 }, {}] },
      { _id: '[[1, 2], 3]', a: [[1, 2], 3] },
      { _id: '[{ x: [{ b: 5 }] }]', a: [{ x: [{ b: 5 }] }] },
      { _id: '[]', a: [] },
      { _id: '[1, 2]', a: [1, 2] },
      { _id: '{ b: null }', a: { b: null } },
      { _id: 'no a' },
    ]);
  });

  it.each<[string, object, string[]]>([
    // The element at the index itself; a field named "0" in the array's documents too.
    ["{ 'a.0': 5 }", { 'a.0': 5 }, ['[5]', "[{ '0': 5 }]", "{ '0': 5 }"]],
    // An array at the index is compared whole, never by its elements.
    ["{ 'a.0': [5] }", { 'a.0': [5] }, ['[[5]]']],
    ["{ 'a.1': 5 }", { 'a.1': 5 }, []],
    ["{ 'a.1': 2 }", { 'a.1': 2 }, ['[1, 2]']],
    // A field named "0" that holds an array is one the path ends at: its elements count.
    ["{ 'a.0': 7 }", { 'a.0': 7 }, ["[{ '0': [7] }]"]],
    ["{ 'a.0': { $gt: 4 } }", { 'a.0': { $gt: 4 } }, ['[5]', "[{ '0': 5 }]", "[{ '0': [7] }]", "{ '0': 5 }"]],
    // Past the index, an array there is walked on: its documents, or its element at the next index.
    ["{ 'a.0.b': 5 }", { 'a.0.b': 5 }, ['[[{ b: 5 }]]', '[{ b: 5 }]', '[{ b: [5, 6] }]']],
    ["{ 'a.1.b': 5 }", { 'a.1.b': 5 }, ['[{ b: 1 }, { b: 5 }]']],
    ["{ 'a.0.1': 2 }", { 'a.0.1': 2 }, ['[[1, 2], 3]']],
    ["{ 'a.0.0': 5 }", { 'a.0.0': 5 }, ['[[5]]', "[{ '0': 5 }]"]],
    ["{ 'a.0.0': [5] }", { 'a.0.0': [5] }, ['[[[5]]]']],
    ["{ 'a.0.x.b': 5 }", { 'a.0.x.b': 5 }, ['[{ x: [{ b: 5 }] }]']],
    // $type and $size read the element at the index, an array included.
    [
      "{ 'a.0': { $type: 'array' } }",
      { 'a.0': { $type: 'array' } },
      ['[[1, 2], 3]', '[[5]]', '[[[5]]]', '[[{ b: 5 }]]', "[{ '0': [7] }]"],
    ],
    ["{ 'a.0': { $size: 1 } }", { 'a.0': { $size: 1 } }, ['[[5]]', '[[[5]]]', '[[{ b: 5 }]]', "[{ '0': [7] }]"]],
    // Null: a document of the array that lacks field "0" counts as missing there.
    [
      "{ 'a.0': null }",
      { 'a.0': null },
      [
        '[{ b: 1 }, {}]',
        '[{ b: 1 }, { b: 5 }]',
        '[{ b: 5 }]',
        '[{ b: [5, 6] }]',
        '[{ x: [{ b: 5 }] }]',
        '{ b: null }',
        'no a',
      ],
    ],
    [
      "{ 'a.1': { $exists: true } }",
      { 'a.1': { $exists: true } },
      ['[1, 2]', '[1, [5]]', '[[1, 2], 3]', '[{ b: 1 }, {}]', '[{ b: 1 }, { b: 5 }]'],
    ],
    // $exists along a dotted path: an array inside an array on the way is not descended.
    [
      "{ 'a.b': { $exists: true } }",
      { 'a.b': { $exists: true } },
      ['[{ b: 1 }, {}]', '[{ b: 1 }, { b: 5 }]', '[{ b: 5 }]', '[{ b: [5, 6] }]', '{ b: null }'],
    ],
    ["{ 'a.x.b': { $exists: true } }", { 'a.x.b': { $exists: true } }, ['[{ x: [{ b: 5 }] }]']],
    // An operand of 0 or null asks for a missing field, as false does.
    [
      "{ 'a.b': { $exists: 0 } }",
      { 'a.b': { $exists: 0 } },
      [
        '[[1, 2], 3]',
        '[[5]]',
        '[[[5]]]',
        '[[{ b: 5 }]]',
        '[1, 2]',
        '[1, [5]]',
        '[5]',
        '[]',
        "[{ '0': 5 }]",
        "[{ '0': [7] }]",
        '[{ x: [{ b: 5 }] }]',
        "{ '0': 5 }",
        'no a',
      ],
    ],
  ])('%s', async (_label, filter, expected) => {
    const found = await positions.find(filter as never).toArray();
    expect(found.map((doc) => doc._id).sort()).toEqual([...expected].sort());
  });
});
