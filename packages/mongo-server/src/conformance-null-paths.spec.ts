/**
 * Conformance: the values a dotted path reaches, and equality to null along
 * it, as MongoDB documents it (`{ 'a.b': null }` matches a document where the field is missing): a
 * missing or null field, something other than a document where the path
 * expects one, and an array on the way that holds no document or a document
 * without the field. `$ne`, `$in` and `$nin` with null read it the same way.
 * Through the driver only, with and without an index on the path, so it
 * passes unchanged against a real MongoDB (MONGO_URL).
 * @see https://www.mongodb.com/docs/manual/tutorial/query-for-null-fields/
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
  'a empty array',
  'a array in array',
  'a numbers',
  'a nulls',
  'a numbers and null',
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
      ['a document and a number', 'a.b string'],
    ],
    // The top-level field: an array matches null only by holding one.
    ['{ a: null }', { a: null }, ['a null', 'a nulls', 'a numbers and null', 'no a']],
  ])('%s', async (_label, filter, expected) => {
    expect(await matched(filter, { $natural: 1 })).toEqual(expected);
    expect(await matched(filter)).toEqual(expected);
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
