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
import {
  CREATE_FOO,
  EMPTY_V_PART,
  NESTED_ELEMENT,
  onInt32,
  onNested,
  SHARED_UPDATE_ERRORS,
  UPDATE_ERROR_DOCUMENTS,
  type UpdateErrorCase,
} from './update-error-cases.fixture.js';

const fx = useDriverFixture();

const CASES: UpdateErrorCase[] = [
  onNested(
    'renaming a field inside an array of documents',
    { $rename: { 'v.foo': 'foo' } },
    28,
    `cannot use the part (v of v.foo) to traverse the element (${NESTED_ELEMENT})`,
    true,
  ),
  onNested(
    'setting _id',
    { $set: { _id: 'another-id' } },
    66,
    "Performing an update on the path '_id' would modify the immutable field '_id'",
    true,
  ),
  ...SHARED_UPDATE_ERRORS,
  onInt32(
    '$bit with an unknown operation',
    { $bit: { v: { not: 1 } } },
    2,
    "The $bit modifier only supports 'and', 'or', and 'xor', not 'not' which is an unknown operator: {not: 1}",
    false,
  ),
  onNested('$bit of a path ending with a dot', { $bit: { 'v.': { and: 1 } } }, 56, EMPTY_V_PART, false),
  onNested(
    '$bit with no operation',
    { $bit: { v: {} } },
    2,
    'You must pass in at least one bitwise operation. The format is: {$bit: {field: {and/or/xor: #}}',
    false,
  ),
  onNested('$bit of a field inside an array of documents', { $bit: { 'v.foo': { or: 1 } } }, 28, CREATE_FOO, true),
  onNested(
    '$bit of an array',
    { $bit: { 'v.0.foo': { and: 1 } } },
    2,
    'Cannot apply $bit to a value of non-integral type.' +
      '_id: "array-documents-nested" has the field foo of non-integer type array',
    true,
  ),
  onNested(
    '$bit of a string',
    { $bit: 'string' },
    9,
    'Modifiers operate on fields but we found type string instead. ' +
      'For example: {$mod: {<field>: ...}} not {$bit: "string"}',
    false,
  ),
  onInt32(
    '$bit with a string for its operations',
    { $bit: { test: 'and' } },
    2,
    'The $bit modifier is not compatible with a string. ' +
      'You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}',
    false,
  ),
  onInt32(
    '$bit with a string operand',
    { $bit: { v: { and: 'test' } } },
    2,
    'The $bit modifier field must be an Integer(32/64 bit); a \'string\' is not supported here: {and: "test"}',
    false,
  ),
];

describe('update errors', () => {
  it.each(CASES)('should refuse $label', async ({ filter, update, code, message }) => {
    const collection = await fx.fresh('update_errors');
    await collection.insertMany(UPDATE_ERROR_DOCUMENTS.map((document) => ({ ...document })));
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
