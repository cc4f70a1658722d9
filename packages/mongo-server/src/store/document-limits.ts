import type { Document } from 'bson';

import { BSON } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';
import { DB_REF_FIELDS } from '../query/db-ref-fields.js';
import { findFieldName } from '../query/document-paths.js';

/** MongoDB's largest document, 16 MiB. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** mongod's largest document it will put in a reply (`BSONObjMaxInternalSize`, 16 MiB + 16 KiB). */
export const MAX_REPLY_DOCUMENT_BYTES = MAX_DOCUMENT_BYTES + 16 * 1024;

/** The start of mongod's message for a document of `bytes` past {@link MAX_REPLY_DOCUMENT_BYTES}. */
export function replySizeInvalid(bytes: number): string {
  return `BSONObj size: ${bytes} (0x${bytes.toString(16).toUpperCase()}) is invalid. Size must be between 0 and ${MAX_REPLY_DOCUMENT_BYTES}(16MB)`;
}

/**
 * MongoDB's deepest stored document (`BSONDepth::getMaxDepthForUserStorage()`,
 * 200 levels less 20 kept for the server's own wrapping), counted in nested
 * documents and arrays, the document itself being the first.
 */
export const MAX_STORAGE_DEPTH = 180;

/**
 * The BSON size of each document {@link checkStorable} passed. A stored
 * document is never changed in place (an update stores a new object, and a
 * cursor's batches rely on that too), so a reply reads a stored document's
 * size here instead of walking the document once more before bson walks it
 * to encode it: about a tenth of the server's work for a keyset page of 20.
 */
const checkedSizes = new WeakMap<Document, number>();

/** The BSON size of `doc`: remembered for a document {@link checkStorable} passed, else measured. */
export function bsonSize(doc: Document): number {
  return checkedSizes.get(doc) ?? BSON.calculateObjectSize(doc);
}

/** What a write is about to store, for the wording of MongoDB's refusal. */
export type StoredBy = 'insert' | 'update';

/**
 * How deep `doc` nests, in containers (the document itself is 1) and in
 * elements (a top-level field is 1), stopping once past the limit; walked
 * with an explicit stack, as the document may be far deeper than the call
 * stack allows.
 */
function nesting(doc: Document): { containers: number; elements: number } {
  let containers = 1;
  let elements = 0;
  const pending: [unknown, number][] = [[doc, 1]];
  // A container one past the limit holds an element past it, so deeper never changes the answer.
  while (pending.length > 0 && containers <= MAX_STORAGE_DEPTH + 1 && elements <= MAX_STORAGE_DEPTH) {
    const [container, depth] = pending.pop()!;
    const children: unknown[] = Array.isArray(container) ? container : valuesOf(container as Document);
    if (children.length > 0) elements = Math.max(elements, depth);
    for (const child of children) {
      if (isContainer(child)) {
        containers = Math.max(containers, depth + 1);
        pending.push([child, depth + 1]);
      }
    }
  }
  return { containers, elements };
}

/**
 * The values of `doc`, refusing a field name holding a NUL byte: BSON ends
 * names at one, so such a document (built by `$setField` in a pipeline
 * update, `$out` or `$merge`) could be stored but never sent, and every
 * read of its collection failed.
 */
function valuesOf(doc: Document): unknown[] {
  const keys = Object.keys(doc);
  const values = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key.includes('\0')) {
      throw new CommandError(
        'BadValue',
        `Document field names cannot contain a NUL byte: "${key.replaceAll('\0', '\\0')}" cannot be stored`,
      );
    }
    values[i] = doc[key];
  }
  return values;
}

function isContainer(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A `$`-prefixed name other than a DBRef field's. */
const isUnstorableIdField = (key: string): boolean => key.startsWith('$') && !DB_REF_FIELDS.has(key);

/**
 * mongod's validIdField for a document `_id`: no `$`-prefixed field name at
 * any depth of it (DollarPrefixedFieldName, 52), a DBRef's fields aside. The
 * rest of a document may hold such names since MongoDB 5.0; an `_id` may not.
 */
function checkStorableId(id: unknown): void {
  const name = findFieldName(id, isUnstorableIdField);
  if (name !== undefined) {
    throw new CommandError(
      'DollarPrefixedFieldName',
      `_id fields may not contain '$'-prefixed fields: ${name} is not valid for storage.`,
    );
  }
}

/**
 * Refuses a document MongoDB could not store, with its messages: one nested
 * deeper than {@link MAX_STORAGE_DEPTH} (an `$inc` on a 5,000-part path
 * built one, and every later aggregation over the collection then overflowed
 * the call stack copying it), or one over 16 MiB (every reply carrying it
 * would break the connection), or one whose `_id` holds a `$`-prefixed field.
 * Depth is checked first: measuring the size walks the document recursively.
 */
export function checkStorable(doc: Document, by: StoredBy): Document {
  checkStorableId(doc._id);
  const { containers, elements } = nesting(doc);
  if (by === 'insert' && containers > MAX_STORAGE_DEPTH) {
    throw new CommandError(
      'Overflow',
      `cannot insert document because it exceeds ${MAX_STORAGE_DEPTH} levels of nesting`,
    );
  }
  if (by === 'update' && elements > MAX_STORAGE_DEPTH) {
    throw new CommandError('Overflow', `Document exceeds maximum nesting depth of ${MAX_STORAGE_DEPTH}`);
  }
  const bytes = BSON.calculateObjectSize(doc);
  if (bytes > MAX_DOCUMENT_BYTES) {
    throw new CommandError(
      'BSONObjectTooLarge',
      by === 'insert'
        ? `object to insert too large. size in bytes: ${bytes}, max size: ${MAX_DOCUMENT_BYTES}`
        : `Resulting document after update is larger than ${MAX_DOCUMENT_BYTES}`,
    );
  }
  checkedSizes.set(doc, bytes);
  return doc;
}
