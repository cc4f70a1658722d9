/**
 * Conformance: the errors mongod 7 answers for malformed or impossible
 * `createIndexes` and `dropIndexes` commands: a missing, null or mistyped
 * `indexes`/`index` field, index specifications without a key or a name,
 * options the _id index refuses, indexes that clash by name or by key within
 * one command, indexes to drop that do not exist or may not be dropped, a
 * mistyped, empty or missing collection, and a unique index built over
 * duplicate data. The cases and answers are those an independent
 * MongoDB-compatible server's integration suite asserts against a real
 * MongoDB. `dropIndexes` without `index` is left to
 * conformance-argument-types.spec.ts. Passes against MONGO_URL too.
 */
import type { Collection, Document } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

const NAME = 'index_errors';

/** What a case needs before its command: the collection with documents (the default), with indexes too, or none. */
type Setup = 'documents' | 'missing' | ((collection: Collection) => Promise<unknown>);

type Message = string | RegExp | ((db: string) => string | RegExp);

type Case = [label: string, command: Document, code: number, message: Message, setup?: Setup];

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const escape = (text: string): string => text.replace(/[$.[\]()*+?^{}|\\]/g, '\\$&');

const drop = (label: string, index: unknown, code: number, message: Message, setup?: Setup): Case => [
  `dropIndexes ${label}`,
  { dropIndexes: NAME, index },
  code,
  message,
  setup,
];
const create = (label: string, indexes: unknown, code: number, message: Message, setup?: Setup): Case => [
  `createIndexes ${label}`,
  { createIndexes: NAME, indexes },
  code,
  message,
  setup,
];

const V_1 = [{ key: { v: 1 }, name: 'v_1' }];

const CASES: Case[] = [
  drop(
    'with a boolean index',
    true,
    14,
    "BSON field 'dropIndexes.index' is the wrong type 'bool', expected types '[string, object']",
  ),
  drop(
    'with an array of index keys',
    [{ v: -1 }, { 'v.foo': -1 }],
    14,
    "BSON field 'dropIndexes.index' is the wrong type 'array', expected types '[string']",
    (c) => c.createIndexes([{ key: { v: -1 } }, { key: { 'v.foo': -1 } }]),
  ),
  drop(
    'with an array of index names that do not exist',
    ['non-existent', 'invalid'],
    27,
    'index not found with name [non-existent]',
  ),
  drop(
    'with an array holding a number',
    [1],
    14,
    "BSON field 'dropIndexes.index' is the wrong type 'array', expected types '[string']",
  ),
  drop('with a key holding a string', { invalid: 'invalid' }, 27, 'can\'t find index with key: { invalid: "invalid" }'),
  drop('with a key no index has', { 'non-existent': 1 }, 27, "can't find index with key: { non-existent: 1 }"),
  drop('with the _id index key', { _id: 1 }, 72, 'cannot drop _id index'),
  drop('with a descending _id key', { _id: -1 }, 27, "can't find index with key: { _id: -1 }"),
  drop(
    'with a compound key no index has',
    { 'non-existent1': -1, 'non-existent2': -1 },
    27,
    "can't find index with key: { non-existent1: -1, non-existent2: -1 }",
  ),
  [
    'dropIndexes on a missing collection',
    { dropIndexes: `${NAME}_missing`, index: 'index' },
    26,
    (db) => `ns not found ${db}.${NAME}_missing`,
  ],
  [
    'dropIndexes with a numeric collection',
    { dropIndexes: 42, index: 'index' },
    2,
    'collection name has invalid type int',
  ],
  [
    'dropIndexes with a null collection',
    { dropIndexes: null, index: 'index' },
    2,
    'collection name has invalid type null',
  ],
  [
    'dropIndexes with an empty collection name',
    { dropIndexes: '', index: 'index' },
    73,
    (db) => `Invalid namespace specified '${db}.'`,
  ],

  create('with no index', [], 2, 'Must specify at least one index to create'),
  [
    'createIndexes without indexes',
    { createIndexes: NAME },
    40414,
    "BSON field 'createIndexes.indexes' is missing but a required field",
  ],
  create('with null indexes', null, 10065, 'invalid parameter: expected an object (indexes)'),
  create(
    'with an object for indexes',
    {},
    14,
    "BSON field 'createIndexes.indexes' is the wrong type 'object', expected type 'array'",
  ),
  create(
    'with a number for indexes',
    42,
    14,
    "BSON field 'createIndexes.indexes' is the wrong type 'int', expected type 'array'",
  ),
  create(
    'with a string among indexes',
    ['invalid'],
    14,
    "BSON field 'createIndexes.indexes.0' is the wrong type 'string', expected type 'object'",
  ),
  create(
    'with a unique _id index',
    [{ key: { _id: 1 }, name: '_id_', unique: true }],
    197,
    "The field 'unique' is not valid for an _id index specification. " +
      'Specification: { key: { _id: 1 }, name: "_id_", unique: true, v: 2 }',
  ),
  create(
    'without a name',
    [{ key: { v: 1 } }],
    9,
    "Error in specification { key: { v: 1 } } :: caused by :: The 'name' field is a required property of an index specification",
  ),
  create(
    'with an empty name',
    [{ key: { v: -1 }, name: '' }],
    67,
    'Error in specification { key: { v: -1 }, name: "", v: 2 } :: caused by :: index name cannot be empty',
  ),
  create(
    'without a key',
    [{}],
    9,
    "Error in specification {} :: caused by :: The 'key' field is a required property of an index specification",
  ),
  create('with the same index twice', [...V_1, ...V_1], 68, 'Identical index already exists: v_1', 'missing'),
  create(
    'with two keys under one name',
    [
      { key: { foo: -1 }, name: 'index-name' },
      { key: { bar: -1 }, name: 'index-name' },
    ],
    86,
    'An existing index has the same name as the requested index. When index names are not specified, they are auto ' +
      'generated and can cause conflicts. Please refer to our documentation. Requested index: { v: 2, key: { bar: -1 }, ' +
      'name: "index-name" }, existing index: { v: 2, key: { foo: -1 }, name: "index-name" }',
    'missing',
  ),
  create(
    'with one key under two names',
    [
      { key: { v: -1 }, name: 'foo' },
      { key: { v: -1 }, name: 'bar' },
    ],
    85,
    'Index already exists with a different name: foo',
    'missing',
  ),
  create(
    'with a document for unique',
    [{ key: { v: 1 }, name: 'unique_index', unique: {} }],
    14,
    'Error in specification { key: { v: 1 }, name: "unique_index", unique: {} } :: caused by :: ' +
      "The field 'unique has value unique: {}, which is not convertible to bool",
  ),
  // The same check for a string (our case, worded as mongod words the one above): a string is no boolean.
  create(
    'with a string unique option',
    [{ key: { v: 1 }, name: 'unique_index', unique: 'yes' }],
    14,
    'Error in specification { key: { v: 1 }, name: "unique_index", unique: "yes" } :: caused by :: ' +
      'The field \'unique has value unique: "yes", which is not convertible to bool',
  ),
  create(
    'with a unique index over documents missing its field',
    [{ key: { v: 1 }, name: 'v_1', unique: true }],
    11000,
    (db) =>
      new RegExp(
        `^Index build failed: ${UUID}: Collection ${escape(`${db}.${NAME}`)} \\( ${UUID} \\) :: caused by :: ` +
          `E11000 duplicate key error collection: ${escape(`${db}.${NAME}`)} index: v_1 dup key: \\{ v: null \\}$`,
      ),
  ),
  [
    'createIndexes with a numeric collection',
    { createIndexes: 42, indexes: V_1 },
    2,
    'collection name has invalid type int',
  ],
  [
    'createIndexes with a null collection',
    { createIndexes: null, indexes: V_1 },
    2,
    'collection name has invalid type null',
  ],
  [
    'createIndexes with an empty collection name',
    { createIndexes: '', indexes: V_1 },
    73,
    (db) => `Invalid namespace specified '${db}.'`,
  ],
];

describe('index command errors', () => {
  it.each(CASES)('should refuse %s', async (_label, command, code, message, setup = 'documents') => {
    const collection = await fx.fresh(NAME);
    if (setup !== 'missing') await collection.insertMany([{ _id: 1 }, { _id: 2, w: 1 }] as never[]);
    if (typeof setup === 'function') await setup(collection);
    const expected = typeof message === 'function' ? message(fx.db.databaseName) : message;
    const error = await rejection(fx.db.command(command));
    expect({ code: error.code, message: error.message }).toEqual({
      code,
      message: typeof expected === 'string' ? expected : expect.stringMatching(expected),
    });
  });
});

describe('hashed indexes', () => {
  // index_key_validate / HashAccessMethod / ExpressionKeysPrivate::getHashKeys.
  const ARRAY = 'Error: hashed indexes do not currently support array values. Found array at path: ';

  it.each<[string, Document, number, string]>([
    [
      'two hashed fields',
      { x: 'hashed', y: 'hashed' },
      31303,
      `A maximum of one index field is allowed to be hashed but found 2 for 'key' { x: "hashed", y: "hashed" }`,
    ],
  ])('should refuse %s', async (_label, key, code, message) => {
    const collection = await fx.fresh('hashed_index');
    const error = await rejection(collection.createIndex(key));
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('should refuse a unique hashed index (16764)', async () => {
    const collection = await fx.fresh('hashed_index');
    const error = await rejection(collection.createIndex({ z: 'hashed' }, { unique: true }));
    expect([error.code, error.message]).toEqual([
      16764,
      'Currently hashed indexes cannot guarantee uniqueness. Use a regular index.',
    ]);
  });

  it.each<[string, Document, string]>([
    ['an array at the hashed field', { a: [1, 2] }, 'a'],
    ['an array on the way to it', { b: [{ c: 1 }] }, 'b'],
    ['an empty array', { a: [] }, 'a'],
  ])('should refuse a document with %s (16766), inserted or updated, and keep it out', async (_label, doc, path) => {
    const collection = await fx.fresh('hashed_index');
    await collection.createIndexes([{ key: { a: 'hashed' } }, { key: { 'b.c': 'hashed', d: 1 } }]);
    const inserted = await rejection(collection.insertOne({ _id: 1, ...doc } as Document));
    expect([inserted.code, inserted.message]).toEqual([16766, `${ARRAY}${path}`]);
    await collection.insertOne({ _id: 2, a: 1 } as Document);
    const updated = await rejection(collection.updateOne({ _id: 2 } as Document, { $set: doc }));
    expect([updated.code, updated.message]).toEqual([16766, `${ARRAY}${path}`]);
    expect(await collection.find({}).toArray()).toEqual([{ _id: 2, a: 1 }]);
  });

  it('should fail to build over a document holding an array there (16766)', async () => {
    const collection = await fx.fresh('hashed_index');
    await collection.insertOne({ _id: 1, a: [1] } as Document);
    const error = await rejection(collection.createIndex({ a: 'hashed' }));
    expect(error.code).toBe(16766);
    expect((await collection.indexes()).map((index) => index.name)).toEqual(['_id_']);
  });

  it('should take scalars, documents and missing values, and a compound hashed index', async () => {
    const collection = await fx.fresh('hashed_index');
    await collection.createIndexes([{ key: { a: 'hashed' } }, { key: { 'b.c': 'hashed', d: 1 } }]);
    await collection.insertMany([{ a: 1 }, { a: { x: [1] } }, { b: 5 }, { b: { c: 'x' }, d: [1, 2] }, {}]);
    expect(await collection.countDocuments({})).toBe(5);
  });
});
