import type { Document } from 'bson';

import { CommandError } from './command-error.js';

/** The collection name in `cmd[commandName]`, validated as mongod does. */
export function collectionName(cmd: Document, commandName: string): string {
  const name: unknown = cmd[commandName];
  if (typeof name !== 'string') {
    throw new CommandError(
      'InvalidNamespace',
      `collection name has invalid type ${name === null ? 'null' : typeof name}; pass the collection name as a string`,
    );
  }
  if (name.length === 0 || name.includes('\0') || name.startsWith('.') || name.includes('$')) {
    throw new CommandError('InvalidNamespace', `Invalid namespace specified '${String(cmd.$db)}.${name}'`);
  }
  return name;
}

/** An optional document argument; TypeMismatch when present but not a document. */
export function optionalDocument(cmd: Document, field: string): Document | undefined {
  const value: unknown = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
    throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type, expected type 'object'`);
  }
  return value as Document;
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
  return value as Document[];
}

/** The BSON type name MongoDB's messages use for `value`. */
function bsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'bigint') return 'long';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  return 'object';
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
  for (const [index, item] of value.entries()) {
    if (item === null || typeof item !== 'object' || Array.isArray(item) || item instanceof Date) {
      throw new CommandError(
        'TypeMismatch',
        `BSON field '${label}.${index}' is the wrong type '${bsonTypeName(item)}', expected type 'object'`,
      );
    }
  }
  return value as Document[];
}

/** A required array of cursor ids (int64 or integral numbers), as killCursors takes them. */
export function cursorIdArray(value: unknown, label: string): bigint[] {
  if (!Array.isArray(value)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${label}' is the wrong type '${bsonTypeName(value)}', expected type 'array'`,
    );
  }
  return value.map((item, index) => {
    if (typeof item === 'bigint') return item;
    if (typeof item === 'number' && Number.isSafeInteger(item)) return BigInt(item);
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${label}.${index}' is the wrong type '${bsonTypeName(item)}', expected type 'long'`,
    );
  });
}
