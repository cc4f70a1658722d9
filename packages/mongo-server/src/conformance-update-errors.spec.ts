/**
 * Conformance: the errors mongod 7 answers for an update statement (here
 * `updateOne`) whose field operators cannot parse ($rename, $mul and $bit of
 * empty paths, $inc and $mul by non-numbers, malformed $bit operations, an
 * unknown modifier) or cannot apply to the matched document (traversing an
 * array or a string, creating a field in an array of documents, $inc and $mul
 * of non-numbers or past the Int64 range, $bit of an array, changing `_id`).
 * The cases and answers are those an independent MongoDB-compatible server's
 * integration suite asserts against a real MongoDB; its shared data is
 * replaced by the few documents the cases match. Unlike findAndModify's, an
 * update's errors carry no "Plan executor error" prefix.
 * Passes against MONGO_URL too.
 */
import type { Document } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

const NESTED = { _id: 'array-documents-nested', v: [{ foo: [{ bar: 'hello' }, { bar: 'world' }] }] };
const MAX_INT64 = 9223372036854775807n;
const DOCUMENTS: Document[] = [NESTED, { _id: 'int32', v: 42 }, { _id: 'int64-max', v: MAX_INT64 }];

const NESTED_ELEMENT = '{v: [ { foo: [ { bar: "hello" }, { bar: "world" } ] } ]}';
const CREATE_FOO = `Cannot create field 'foo' in element ${NESTED_ELEMENT}`;
const EMPTY_V_PART = "The update path 'v.' contains an empty field name, which is not allowed.";

type Case = [label: string, filter: Document, update: Document, code: number, message: string];

const onNested = (label: string, update: Document, code: number, message: string): Case => [
  label,
  { _id: NESTED._id },
  update,
  code,
  message,
];
const onInt32 = (label: string, update: Document, code: number, message: string): Case => [
  label,
  { _id: 'int32' },
  update,
  code,
  message,
];

const CASES: Case[] = [
  onNested(
    'renaming a field inside an array of documents',
    { $rename: { 'v.foo': 'foo' } },
    28,
    `cannot use the part (v of v.foo) to traverse the element (${NESTED_ELEMENT})`,
  ),
  onNested(
    'setting _id',
    { $set: { _id: 'another-id' } },
    66,
    "Performing an update on the path '_id' would modify the immutable field '_id'",
  ),

  onNested('renaming an empty field name', { $rename: { '': 'v' } }, 56, 'An empty update path is not valid.'),
  onNested('renaming a path ending with a dot', { $rename: { 'v.': 'v' } }, 56, EMPTY_V_PART),
  onNested(
    'renaming through a negative array index',
    { $rename: { 'v.-1': 'f' } },
    28,
    `cannot use the part (v of v.-1) to traverse the element (${NESTED_ELEMENT})`,
  ),
  onNested(
    'renaming through a string',
    { $rename: { 'v.0.foo.0.bar.z': 'f' } },
    28,
    'cannot use the part (bar of v.0.foo.0.bar.z) to traverse the element ({bar: "hello"})',
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
    'Cannot apply $inc to a value of non-numeric type. ' +
      `{_id: "array-documents-nested"} has the field 'bar' of non-numeric type string`,
  ),
  [
    'incrementing the largest Int64 past its range',
    { _id: 'int64-max' },
    { $inc: { v: MAX_INT64 } },
    2,
    'Failed to apply $inc operations to current value ((NumberLong)9223372036854775807) for document {_id: "int64-max"}',
  ],
  onInt32(
    'incrementing an Int32 past the Int64 range',
    { $inc: { v: MAX_INT64 } },
    2,
    'Failed to apply $inc operations to current value ((NumberInt)42) for document {_id: "int32"}',
  ),

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
    'Cannot apply $mul to a value of non-numeric type. ' +
      `{_id: "array-documents-nested"} has the field 'bar' of non-numeric type string`,
  ),
  [
    'multiplying the largest Int64 past its range',
    { _id: 'int64-max' },
    { $mul: { v: MAX_INT64 } },
    2,
    'Failed to apply $mul operations to current value ((NumberLong)9223372036854775807) for document {_id: "int64-max"}',
  ],
  onInt32(
    'multiplying an Int32 past the Int64 range',
    { $mul: { v: MAX_INT64 } },
    2,
    'Failed to apply $mul operations to current value ((NumberInt)42) for document {_id: "int32"}',
  ),
  onNested('multiplying a path ending with a dot', { $mul: { 'v.': 'v' } }, 56, EMPTY_V_PART),

  onInt32(
    '$bit with an unknown operation',
    { $bit: { v: { not: 1 } } },
    2,
    "The $bit modifier only supports 'and', 'or', and 'xor', not 'not' which is an unknown operator: {not: 1}",
  ),
  onNested('$bit of a path ending with a dot', { $bit: { 'v.': { and: 1 } } }, 56, EMPTY_V_PART),
  onNested(
    '$bit with no operation',
    { $bit: { v: {} } },
    2,
    'You must pass in at least one bitwise operation. The format is: {$bit: {field: {and/or/xor: #}}',
  ),
  onNested('$bit of a field inside an array of documents', { $bit: { 'v.foo': { or: 1 } } }, 28, CREATE_FOO),
  onNested(
    '$bit of an array',
    { $bit: { 'v.0.foo': { and: 1 } } },
    2,
    'Cannot apply $bit to a value of non-integral type.' +
      '_id: "array-documents-nested" has the field foo of non-integer type array',
  ),
  onNested(
    '$bit of a string',
    { $bit: 'string' },
    9,
    'Modifiers operate on fields but we found type string instead. ' +
      'For example: {$mod: {<field>: ...}} not {$bit: "string"}',
  ),
  onInt32(
    '$bit with a string for its operations',
    { $bit: { test: 'and' } },
    2,
    'The $bit modifier is not compatible with a string. ' +
      'You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}',
  ),
  onInt32(
    '$bit with a string operand',
    { $bit: { v: { and: 'test' } } },
    2,
    'The $bit modifier field must be an Integer(32/64 bit); a \'string\' is not supported here: {and: "test"}',
  ),
];

describe('update errors', () => {
  it.each(CASES)('should refuse %s', async (_label, filter, update, code, message) => {
    const collection = await fx.fresh('update_errors');
    await collection.insertMany(DOCUMENTS.map((document) => ({ ...document })));
    const error = await rejection(collection.updateOne(filter, update));
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('should refuse an upsert with an unknown modifier', async () => {
    const collection = await fx.fresh('update_errors');
    await collection.insertOne({ _id: 'null', v: null } as Document);
    const error = await rejection(
      collection.updateOne({ v: { $lt: 3 } }, { $unknown: { v: 'val' } } as Document, { upsert: true }),
    );
    expect([error.code, error.message]).toEqual([
      9,
      'Unknown modifier: $unknown. Expected a valid update modifier or pipeline-style update specified as an array',
    ]);
  });
});
