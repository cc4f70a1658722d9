/**
 * Conformance: the errors mongod 7 answers for a findAndModify with an empty
 * collection name, with options of the wrong type or that contradict each
 * other, and with updates that cannot parse or cannot apply to the matched
 * document. The cases and answers are those an independent MongoDB-compatible
 * server's integration suite asserts against a real MongoDB; its shared data
 * is replaced by the few documents the cases match. An update that fails on
 * the matched document prefixes its error with "Plan executor error during
 * findAndModify :: caused by :: "; one that fails to parse does not.
 * Passes against MONGO_URL too.
 */
import type { Document } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

const NESTED = { _id: 'array-documents-nested', v: [{ foo: [{ bar: 'hello' }, { bar: 'world' }] }] };
const MAX_INT64 = 9223372036854775807n;
const DOCUMENTS: Document[] = [NESTED, { _id: 'int32', v: 42 }, { _id: 'int64-max', v: MAX_INT64 }];

const EXECUTOR = 'Plan executor error during findAndModify :: caused by :: ';
const NESTED_ELEMENT = '{v: [ { foo: [ { bar: "hello" }, { bar: "world" } ] } ]}';
const CREATE_FOO = `${EXECUTOR}Cannot create field 'foo' in element ${NESTED_ELEMENT}`;
const EMPTY_V_PART = "The update path 'v.' contains an empty field name, which is not allowed.";
const wrongBool = (field: string): string =>
  `BSON field 'findAndModify.${field}' is the wrong type 'string', expected types '[bool, long, int, decimal, double']`;

type Case = [label: string, command: Document, code: number, message: string];

const onNested = (label: string, update: Document, code: number, message: string): Case => [
  label,
  { query: { _id: NESTED._id }, update },
  code,
  message,
];

const CASES: Case[] = [
  [
    'upsert together with remove',
    { upsert: true, remove: true },
    9,
    'Cannot specify both upsert=true and remove=true ',
  ],
  [
    'a string sort',
    { update: {}, sort: '123' },
    14,
    "BSON field 'findAndModify.sort' is the wrong type 'string', expected type 'object'",
  ],
  ['a string remove', { query: {}, remove: '123' }, 14, wrongBool('remove')],
  ['a string new', { query: {}, new: '123' }, 14, wrongBool('new')],
  ['a string upsert', { query: {}, upsert: '123' }, 14, wrongBool('upsert')],

  onNested('setting a field inside an array of documents', { $set: { 'v.foo': 'foo' } }, 28, CREATE_FOO),
  [
    'setting _id',
    { update: { $set: { _id: 'non-existent' } } },
    66,
    `${EXECUTOR}Performing an update on the path '_id' would modify the immutable field '_id'`,
  ],

  onNested('renaming an empty field name', { $rename: { '': 'v' } }, 56, 'An empty update path is not valid.'),
  onNested('renaming a path ending with a dot', { $rename: { 'v.': 'v' } }, 56, EMPTY_V_PART),
  onNested(
    'renaming through a negative array index',
    { $rename: { 'v.-1': 'f' } },
    28,
    `${EXECUTOR}cannot use the part (v of v.-1) to traverse the element (${NESTED_ELEMENT})`,
  ),
  onNested(
    'renaming through a string',
    { $rename: { 'v.0.foo.0.bar.z': 'f' } },
    28,
    `${EXECUTOR}cannot use the part (bar of v.0.foo.0.bar.z) to traverse the element ({bar: "hello"})`,
  ),

  onNested(
    'incrementing by a string',
    { $inc: { v: 'string' } },
    14,
    'Cannot increment with non-numeric argument: {v: "string"}',
  ),
  onNested('incrementing a field inside an array of documents', { $inc: { 'v.foo': 1 } }, 28, CREATE_FOO),
  onNested(
    'incrementing a string',
    { $inc: { 'v.0.foo.0.bar': 1 } },
    14,
    `${EXECUTOR}Cannot apply $inc to a value of non-numeric type. ` +
      `{_id: "array-documents-nested"} has the field 'bar' of non-numeric type string`,
  ),
  [
    'incrementing the largest Int64 past its range',
    { query: { _id: 'int64-max' }, update: { $inc: { v: MAX_INT64 } } },
    2,
    `${EXECUTOR}Failed to apply $inc operations to current value ((NumberLong)9223372036854775807) for document {_id: "int64-max"}`,
  ],
  [
    'incrementing an Int32 past the Int64 range',
    { query: { _id: 'int32' }, update: { $inc: { v: MAX_INT64 } } },
    2,
    `${EXECUTOR}Failed to apply $inc operations to current value ((NumberInt)42) for document {_id: "int32"}`,
  ],

  onNested('$max of a field inside an array of documents', { $max: { 'v.foo': 1 } }, 28, CREATE_FOO),
  onNested('$min of a field inside an array of documents', { $min: { 'v.foo': 1 } }, 28, CREATE_FOO),

  onNested(
    'multiplying by a string',
    { $mul: { v: 'string' } },
    14,
    'Cannot multiply with non-numeric argument: {v: "string"}',
  ),
  onNested(
    'multiplying a missing field by a string',
    { $mul: { 'non-existent': 'string' } },
    14,
    'Cannot multiply with non-numeric argument: {non-existent: "string"}',
  ),
  onNested('multiplying a field inside an array of documents', { $mul: { 'v.foo': 1 } }, 28, CREATE_FOO),
  onNested(
    'multiplying a string',
    { $mul: { 'v.0.foo.0.bar': 1 } },
    14,
    `${EXECUTOR}Cannot apply $mul to a value of non-numeric type. ` +
      `{_id: "array-documents-nested"} has the field 'bar' of non-numeric type string`,
  ),
  [
    'multiplying the largest Int64 past its range',
    { query: { _id: 'int64-max' }, update: { $mul: { v: MAX_INT64 } } },
    2,
    `${EXECUTOR}Failed to apply $mul operations to current value ((NumberLong)9223372036854775807) for document {_id: "int64-max"}`,
  ],
  [
    'multiplying an Int32 past the Int64 range',
    { query: { _id: 'int32' }, update: { $mul: { v: MAX_INT64 } } },
    2,
    `${EXECUTOR}Failed to apply $mul operations to current value ((NumberInt)42) for document {_id: "int32"}`,
  ],
  onNested('multiplying a path ending with a dot', { $mul: { 'v.': 'v' } }, 56, EMPTY_V_PART),

  [
    'setting a field and $min of a path under it',
    { query: { _id: { $exists: false } }, update: { $set: { v: 'val' }, $min: { 'v.foo': 'val' } } },
    40,
    "Updating the path 'v.foo' would create a conflict at 'v'",
  ],
  [
    'setting a path and $min of its parent',
    { query: { _id: { $exists: false } }, update: { $set: { 'v.foo': 'val' }, $min: { v: 'val' } } },
    40,
    "Updating the path 'v' would create a conflict at 'v'",
  ],
];

describe('findAndModify errors', () => {
  it.each(CASES)('should refuse %s', async (_label, command, code, message) => {
    const collection = await fx.fresh('find_and_modify_errors');
    await collection.insertMany(DOCUMENTS.map((document) => ({ ...document })));
    // As the original suite does, sort by _id unless the case sets a sort.
    const sort = 'sort' in command ? {} : { sort: { _id: 1 } };
    const error = await rejection(fx.db.command({ findAndModify: collection.collectionName, ...command, ...sort }));
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('should refuse an empty collection name', async () => {
    await fx.fresh('find_and_modify_errors');
    const error = await rejection(fx.db.command({ findAndModify: '' }));
    expect([error.code, error.message]).toEqual([73, `Invalid namespace specified '${fx.db.databaseName}.'`]);
  });
});
