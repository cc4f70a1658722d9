/**
 * The update errors shared by conformance-update-errors.spec.ts (through an
 * update statement) and conformance-find-and-modify-errors.spec.ts (through
 * findAndModify): the cases and answers an independent MongoDB-compatible
 * server's integration suite asserts against a real MongoDB, on the few
 * documents they match. findAndModify prefixes the errors raised on the
 * matched document (`onDocument`), not those raised while parsing.
 */
import type { Document } from 'mongodb';

export const NESTED = { _id: 'array-documents-nested', v: [{ foo: [{ bar: 'hello' }, { bar: 'world' }] }] };
export const MAX_INT64 = 9223372036854775807n;
/** What each case's collection holds. */
export const UPDATE_ERROR_DOCUMENTS: Document[] = [NESTED, { _id: 'int32', v: 42 }, { _id: 'int64-max', v: MAX_INT64 }];

export const NESTED_ELEMENT = '{v: [ { foo: [ { bar: "hello" }, { bar: "world" } ] } ]}';
export const CREATE_FOO = `Cannot create field 'foo' in element ${NESTED_ELEMENT}`;
export const EMPTY_V_PART = "The update path 'v.' contains an empty field name, which is not allowed.";

/** One update and what mongod answers; `onDocument`: raised while applying it to the matched document. */
export interface UpdateErrorCase {
  readonly label: string;
  readonly filter: Document;
  readonly update: Document;
  readonly code: number;
  readonly message: string;
  readonly onDocument: boolean;
}

const on =
  (filter: Document) =>
  (label: string, update: Document, code: number, message: string, onDocument: boolean): UpdateErrorCase => ({
    label,
    filter,
    update,
    code,
    message,
    onDocument,
  });
export const onNested = on({ _id: NESTED._id });
export const onInt32 = on({ _id: 'int32' });
const onInt64Max = on({ _id: 'int64-max' });

/** The cases both suites assert. */
export const SHARED_UPDATE_ERRORS: UpdateErrorCase[] = [
  onNested('renaming an empty field name', { $rename: { '': 'v' } }, 56, 'An empty update path is not valid.', false),
  onNested('renaming a path ending with a dot', { $rename: { 'v.': 'v' } }, 56, EMPTY_V_PART, false),
  onNested(
    'renaming through a negative array index',
    { $rename: { 'v.-1': 'f' } },
    28,
    `cannot use the part (v of v.-1) to traverse the element (${NESTED_ELEMENT})`,
    true,
  ),
  onNested(
    'renaming through a string',
    { $rename: { 'v.0.foo.0.bar.z': 'f' } },
    28,
    'cannot use the part (bar of v.0.foo.0.bar.z) to traverse the element ({bar: "hello"})',
    true,
  ),
  onNested(
    'incrementing by a string',
    { $inc: { v: 'string' } },
    14,
    'Cannot increment with non-numeric argument: {v: "string"}',
    false,
  ),
  onNested('incrementing a field inside an array of documents', { $inc: { 'v.foo': 1 } }, 28, CREATE_FOO, true),
  onNested(
    'incrementing a string',
    { $inc: { 'v.0.foo.0.bar': 1 } },
    14,
    'Cannot apply $inc to a value of non-numeric type. ' +
      `{_id: "array-documents-nested"} has the field 'bar' of non-numeric type string`,
    true,
  ),
  onInt64Max(
    'incrementing the largest Int64 past its range',
    { $inc: { v: MAX_INT64 } },
    2,
    'Failed to apply $inc operations to current value ((NumberLong)9223372036854775807) for document {_id: "int64-max"}',
    true,
  ),
  onInt32(
    'incrementing an Int32 past the Int64 range',
    { $inc: { v: MAX_INT64 } },
    2,
    'Failed to apply $inc operations to current value ((NumberInt)42) for document {_id: "int32"}',
    true,
  ),
  onNested('$max of a field inside an array of documents', { $max: { 'v.foo': 1 } }, 28, CREATE_FOO, true),
  onNested('$min of a field inside an array of documents', { $min: { 'v.foo': 1 } }, 28, CREATE_FOO, true),
  onNested(
    'multiplying by a string',
    { $mul: { v: 'string' } },
    14,
    'Cannot multiply with non-numeric argument: {v: "string"}',
    false,
  ),
  onNested(
    'multiplying a missing field by a string',
    { $mul: { 'non-existent': 'string' } },
    14,
    'Cannot multiply with non-numeric argument: {non-existent: "string"}',
    false,
  ),
  onNested('multiplying a field inside an array of documents', { $mul: { 'v.foo': 1 } }, 28, CREATE_FOO, true),
  onNested(
    'multiplying a string',
    { $mul: { 'v.0.foo.0.bar': 1 } },
    14,
    'Cannot apply $mul to a value of non-numeric type. ' +
      `{_id: "array-documents-nested"} has the field 'bar' of non-numeric type string`,
    true,
  ),
  onInt64Max(
    'multiplying the largest Int64 past its range',
    { $mul: { v: MAX_INT64 } },
    2,
    'Failed to apply $mul operations to current value ((NumberLong)9223372036854775807) for document {_id: "int64-max"}',
    true,
  ),
  onInt32(
    'multiplying an Int32 past the Int64 range',
    { $mul: { v: MAX_INT64 } },
    2,
    'Failed to apply $mul operations to current value ((NumberInt)42) for document {_id: "int32"}',
    true,
  ),
  onNested('multiplying a path ending with a dot', { $mul: { 'v.': 'v' } }, 56, EMPTY_V_PART, false),
];
