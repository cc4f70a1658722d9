import type { Binary, Document } from 'bson';

import { isSubDocument } from '../bson/bson-compare.js';
import { typeAlias } from '../query/element-operators.js';
import { CommandError } from './command-error.js';
import { missingField, wrongFieldType } from './idl-fields.js';

/** The collection name in `cmd[commandName]`, validated as mongod does. */
export function collectionName(
  cmd: Document,
  commandName: string,
  typeError: 'InvalidNamespace' | 'BadValue' = 'InvalidNamespace',
): string {
  const name: unknown = cmd[commandName];
  if (typeof name !== 'string') {
    // mongod's words, naming the BSON type; the IDL-parsed index commands answer BadValue.
    throw new CommandError(typeError, `collection name has invalid type ${bsonTypeName(name)}`);
  }
  checkCollectionName(String(cmd.$db), name);
  return name;
}

/** Longest `<db>.<collection>` mongod takes (NamespaceString::MaxNsLen). */
export const MAX_NAMESPACE_LENGTH = 255;

/** What a database name in a namespace may not hold (`NamespaceString::validDBName`; `.` and NUL are refused earlier). */
const INVALID_NAMESPACE_DATABASE = /[/\\ "]/;

/** Whether database name `db` (checked as a command's `$db` already) can be part of a namespace. */
export function isNamespaceDatabase(db: string): boolean {
  return !INVALID_NAMESPACE_DATABASE.test(db);
}

/**
 * Refuses a namespace mongod would not create: a database name holding `/`,
 * `\`, a space or `"`, and a collection name that is empty, holds a NUL byte
 * or a `$`, or starts with `.` (the command naming it, `$out`/`$merge`'s
 * target).
 */
export function checkCollectionName(db: string, name: string): void {
  if (
    !isNamespaceDatabase(db) ||
    name.length === 0 ||
    name.includes('\0') ||
    name.startsWith('.') ||
    name.includes('$')
  ) {
    throw new CommandError('InvalidNamespace', `Invalid namespace specified '${db}.${name}'`);
  }
}

/**
 * Refuses a database name mongod 7 refuses when it dispatches a command (its
 * DatabaseName): 64 characters or more, a `.` or a NUL byte, or empty. Other
 * characters (`/`, `\`, a space, `"`) are refused where a command names a
 * collection in it ({@link checkCollectionName}), as mongod 7 does.
 */
export function checkDatabaseName(db: string): void {
  if (db.length >= 64) {
    throw new CommandError('InvalidNamespace', `db name must be at most 63 characters, found: ${db.length}`);
  }
  if (db.includes('.')) throw new CommandError('InvalidNamespace', `'.' is an invalid character in a db name: ${db}`);
  if (db.length === 0 || db.includes('\0')) {
    throw new CommandError('InvalidNamespace', `Invalid database name: '${db}'`);
  }
}

/** An optional document argument; TypeMismatch when present but not a document. */
export function optionalDocument(cmd: Document, field: string, label?: string): Document | undefined {
  const value: unknown = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
    if (label !== undefined) throw wrongType(label, value, 'object');
    throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type, expected type 'object'`);
  }
  return value as Document;
}

/**
 * An IDL `optionalBool` field (find's `showRecordId`): a boolean, or absent
 * (false); anything else, null and numbers included, is TypeMismatch in
 * mongod's words.
 */
export function optionalBool(cmd: Document, field: string): boolean {
  const value: unknown = cmd[field];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw new CommandError(
      'TypeMismatch',
      `Field '${field}' should be a boolean value, but found: ${bsonTypeName(value)}`,
    );
  }
  return value;
}

/**
 * An IDL `safeBool` field (findAndModify's `remove`, `new`, `upsert`): a
 * boolean or a number (non-zero is true); TypeMismatch for anything else.
 */
export function safeBool(cmd: Document, field: string, label: string): boolean {
  const value: unknown = cmd[field];
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (bsonTypeName(value) === 'decimal') return Number(String(value)) !== 0;
  throw new CommandError(
    'TypeMismatch',
    `BSON field '${label}' is the wrong type '${bsonTypeName(value)}', expected types '[bool, long, int, decimal, double']`,
  );
}

/** An optional non-negative integer argument (int32, Int64 or integral double). */
export function optionalCount(cmd: Document, field: string): number | undefined {
  const value: unknown = cmd[field];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type, expected a number`);
  }
  return n;
}

/** A required array of documents (e.g. insert's `documents`). */
export function documentArray(cmd: Document, field: string): Document[] {
  const value: unknown = cmd[field];
  if (!Array.isArray(value)) {
    throw new CommandError(
      'FailedToParse',
      `BSON field '${field}' is missing or not an array; send an array of documents`,
    );
  }
  checkDocuments(value, `${Object.keys(cmd)[0] ?? ''}.${field}`);
  return value as Document[];
}

/** TypeMismatch naming `label.<index>`, as mongod answers, for the first item of `items` that is not a document. */
function checkDocuments(items: unknown[], label: string): void {
  for (const [index, item] of items.entries()) {
    if (!isSubDocument(item)) {
      throw new CommandError(
        'TypeMismatch',
        `BSON field '${label}.${index}' is the wrong type '${bsonTypeName(item)}', expected type 'object'`,
      );
    }
  }
}

/** The BSON type name MongoDB's messages use for `value` (`$type`'s alias: 'int', 'long', 'binData', …). */
function bsonTypeName(value: unknown): string {
  return typeAlias(value);
}

/** An optional array of documents (e.g. `arrayFilters`); TypeMismatch naming `label` otherwise, as mongod answers. */
export function optionalDocumentArray(value: unknown, label: string): Document[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${label}' is the wrong type '${bsonTypeName(value)}', expected type 'array'`,
    );
  }
  checkDocuments(value, label);
  return value as Document[];
}

/** A required array of cursor ids, as killCursors takes them: Int64s only (an int32 or a double is TypeMismatch, as in mongod). */
export function cursorIdArray(value: unknown, label: string): bigint[] {
  if (!Array.isArray(value)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${label}' is the wrong type '${bsonTypeName(value)}', expected type 'array'`,
    );
  }
  return value.map((item, index) => {
    if (typeof item === 'bigint') return item;
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${label}.${index}' is the wrong type '${bsonTypeName(item)}', expected type 'long'`,
    );
  });
}

/** INT_MAX: mongod keeps maxTimeMS in an int. */
const MAX_TIME_MS_LIMIT = 2 ** 31 - 1;

/** The BSON types an IDL `safeInt64` field takes, as its TypeMismatch lists them (with mongod's misplaced quote). */
const SAFE_INT64_TYPES = "'[long, int, decimal, double']";

/**
 * A number as mongod's `safeNumberLong` reads it: truncated toward zero,
 * clamped to the Int64 range (NaN is 0); undefined for anything else.
 */
function safeNumberLong(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  let n: number;
  if (typeof value === 'number') n = value;
  else if (bsonTypeName(value) === 'decimal') n = Number(String(value));
  else return undefined;
  if (Number.isNaN(n)) return 0n;
  if (n >= 2 ** 63) return 2n ** 63n - 1n;
  if (n <= -(2 ** 63)) return -(2n ** 63n);
  return BigInt(Math.trunc(n));
}

/**
 * An IDL `safeInt64` field with a `gte: 0` validator (aggregate's
 * `maxTimeMS`, `cursor.batchSize`): TypeMismatch for another type, 51024
 * below 0; null passes as absent. `label` is the field as the TypeMismatch
 * names it, `name` as the validator does.
 */
export function checkNonNegativeInt64(value: unknown, label: string, name: string): bigint | undefined {
  return checkSafeInt64(value, label, name, 0n);
}

/**
 * An IDL `safeInt64` field (a number of any type, a double truncated), with
 * a `gte: min` validator when `min` is given; see {@link checkNonNegativeInt64}.
 */
export function checkSafeInt64(value: unknown, label: string, name: string, min?: bigint): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  const n = safeNumberLong(value);
  if (n === undefined) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${label}' is the wrong type '${bsonTypeName(value)}', expected types ${SAFE_INT64_TYPES}`,
    );
  }
  if (min !== undefined && n < min) {
    throw new CommandError('Location51024', `BSON field '${name}' value must be >= ${min}, actual value '${n}'`);
  }
  return n;
}

/** Commands whose IDL types `maxTimeMS` before parseMaxTimeMS reads it. */
const IDL_MAX_TIME_MS = new Set(['aggregate']);

/**
 * The command's `maxTimeMS` as mongod's parseMaxTimeMS reads it (after an
 * aggregate's IDL checks): a number from 0 to 2^31 - 1, integral when it is
 * a double; 0 or absent means no limit.
 */
export function optionalMaxTimeMS(cmd: Document): number | undefined {
  const value: unknown = cmd.maxTimeMS;
  if (value === undefined) return undefined;
  const name = Object.keys(cmd)[0] ?? '';
  if (IDL_MAX_TIME_MS.has(name)) checkNonNegativeInt64(value, `${name}.maxTimeMS`, 'maxTimeMS');
  const n = safeNumberLong(value);
  if (n === undefined) throw new CommandError('BadValue', 'maxTimeMS must be a number');
  if (n < 0n || n > BigInt(MAX_TIME_MS_LIMIT)) {
    throw new CommandError('BadValue', `${n} value for maxTimeMS is out of range [0, ${MAX_TIME_MS_LIMIT}]`);
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    throw new CommandError('BadValue', 'maxTimeMS has non-integral value');
  }
  return n === 0n ? undefined : Number(n);
}

/**
 * An aggregate's `cursor` and its `batchSize`, as mongod's IDL reads them:
 * TypeMismatch for a cursor that is not a document, a batchSize checked as a
 * non-negative Int64 (a double is truncated: 1.9 is 1). Undefined without a
 * cursor (whether one is required is the caller's to say).
 */
export function aggregateCursor(cmd: Document): { batchSize?: number } | undefined {
  const cursor: unknown = cmd.cursor;
  if (cursor === undefined) return undefined;
  if (bsonTypeName(cursor) !== 'object') {
    throw new CommandError('TypeMismatch', 'cursor field must be missing or an object');
  }
  const batchSize = checkNonNegativeInt64((cursor as Document).batchSize, 'cursor.batchSize', 'batchSize');
  return { batchSize: batchSize === undefined ? undefined : Number(batchSize) };
}

/** mongod's names of binData subtypes (`typeName(BinDataType)`), by subtype number. */
const BIN_DATA_TYPES = [
  'general',
  'function',
  'byte(deprecated)',
  'UUID(deprecated)',
  'UUID',
  'MD5',
  'encrypt',
  'column',
  'sensitive',
  'vector',
];

/** mongod's IDL answer for a field of the wrong type: TypeMismatch naming the field and both types. */
export function wrongType(label: string, value: unknown, expected: string): CommandError {
  return wrongFieldType(label, value, `type '${expected}'`);
}

/** Fields every command may carry besides its own (sessions, read/write concern, API version). */
export const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  '$clusterTime',
  'txnNumber',
  'autocommit',
  'startTransaction',
  'writeConcern',
  'readConcern',
  '$readPreference',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'comment',
  'maxTimeMS',
]);

/**
 * A logical session id (`lsid`, or an `endSessions` entry) checked as mongod's
 * LogicalSessionFromClient parser does: a document whose `id` is a 16-byte UUID.
 */
export function checkSessionId(value: unknown, label: string): void {
  if (bsonTypeName(value) !== 'object') throw wrongType(label, value, 'object');
  const id: unknown = (value as Document).id;
  if (id === undefined || id === null) {
    throw missingField(`${label}.id`);
  }
  if (bsonTypeName(id) !== 'binData') throw wrongType(`${label}.id`, id, 'binData');
  const subtype = (id as Binary).sub_type;
  if (subtype !== 4) {
    const name = BIN_DATA_TYPES[subtype] ?? (subtype >= 128 ? 'Custom' : 'invalid');
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${label}.id' is the wrong binData type '${name}', expected type 'UUID'`,
    );
  }
  if ((id as Binary).length() !== 16) {
    throw new CommandError('InvalidUUID', 'uuid must be a 16-byte binary field with UUID (4) subtype');
  }
}

/**
 * The session fields any command may carry, checked before anything uses
 * them, as mongod's OperationSessionInfo parser does: a `txnNumber` that is
 * not an Int64 (or an `lsid` that is not a session id) is a TypeMismatch,
 * not an exception from converting it. Null counts as absent.
 */
export function checkSessionFields(cmd: Document): void {
  if (cmd.lsid !== undefined && cmd.lsid !== null) checkSessionId(cmd.lsid, 'OperationSessionInfo.lsid');
  for (const [field, type] of [
    ['txnNumber', 'long'],
    ['autocommit', 'bool'],
    ['startTransaction', 'bool'],
  ] as const) {
    const value: unknown = cmd[field];
    if (value !== undefined && value !== null && bsonTypeName(value) !== type) {
      throw wrongType(`OperationSessionInfo.${field}`, value, type);
    }
  }
}
