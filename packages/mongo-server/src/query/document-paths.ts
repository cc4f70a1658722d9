import type { Document } from 'bson';

import { bsonTag } from '../bson/bson-compare.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { isPlainDocument } from './path-elements.js';

export { bsonTag };

/** `_id` rendered for error messages. */
export function formatDocumentId(doc: Document): string {
  return formatKeyValue(doc._id);
}

/** Sets a dotted path on a plain document, creating sub-documents on the way. */
export function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let target: Document = doc;
  for (const part of parts.slice(0, -1)) {
    const next: unknown = target[part];
    if (next === null || typeof next !== 'object') target[part] = {};
    target = target[part] as Document;
  }
  target[parts[parts.length - 1]!] = value;
}

/**
 * mongod's `Document::getNestedField`: the value at a dotted path through
 * sub-documents only (an array, or anything else, on the way: missing), by
 * own fields (a field named `__proto__` is a field).
 */
export function nestedField(doc: Document, path: string | readonly string[]): unknown {
  let value: unknown = doc;
  for (const name of typeof path === 'string' ? path.split('.') : path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || bsonTag(value) !== undefined) {
      return undefined;
    }
    if (value instanceof Date || !Object.hasOwn(value, name)) return undefined;
    value = (value as Document)[name];
  }
  return value;
}

/** Returns a copy of `doc` with `_id` as its first field, as mongod stores it. */
export function idFirst(doc: Document): Document {
  if (!('_id' in doc) || Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/**
 * The first field name `test` accepts in `value`'s documents, at any depth
 * (through arrays too), or undefined; walked with a stack, not recursion.
 */
export function findFieldName(value: unknown, test: (name: string) => boolean): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (Array.isArray(next)) {
      for (const element of next) stack.push(element);
    } else if (isPlainDocument(next)) {
      for (const key of Object.keys(next)) {
        if (test(key)) return key;
        stack.push(next[key]);
      }
    }
  }
  return undefined;
}
