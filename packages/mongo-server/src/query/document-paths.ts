import type { Document } from 'bson';

import { bsonTag } from '../bson/bson-compare.js';
import { formatKeyValue } from '../bson/format-key-value.js';

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

/** Returns a copy of `doc` with `_id` as its first field, as mongod stores it. */
export function idFirst(doc: Document): Document {
  if (!('_id' in doc) || Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}
