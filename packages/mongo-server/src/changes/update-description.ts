import type { Document } from 'bson';

import { bsonTag, compareBson, isSubDocument } from '../bson/bson-compare.js';
import { defineField } from '../bson/define-field.js';
import { OperationBudget } from '../query/operation-budget.js';

/** An `update` event's `updateDescription`, as mongod 7 reports it. */
export interface UpdateDescription {
  updatedFields: Document;
  removedFields: string[];
  truncatedArrays: { field: string; newSize: number }[];
}

/** The same BSON value, type included (an int 1 and a double 1 differ, as in mongod's diff). */
function sameValue(a: unknown, b: unknown): boolean {
  if (isSubDocument(a) || Array.isArray(a) || isSubDocument(b) || Array.isArray(b)) return false;
  return bsonTag(a) === bsonTag(b) && typeof a === typeof b && compareBson(a, b) === 0;
}

/**
 * What an update changed, computed as mongod computes its oplog diff
 * (`doc_diff`): changed and new fields by path, sub-documents compared
 * field by field, arrays element by element (`arr.3`), shortened arrays in
 * `truncatedArrays`. Walks with an explicit stack, so a deep document cannot
 * overflow the call stack.
 */
export function describeUpdate(before: Document, after: Document): UpdateDescription {
  const description: UpdateDescription = { updatedFields: {}, removedFields: [], truncatedArrays: [] };
  const pending: { before: unknown; after: unknown; path: string }[] = [{ before, after, path: '' }];
  while (pending.length > 0) {
    OperationBudget.tick();
    const { before: old, after: now, path } = pending.pop()!;
    const prefix = path === '' ? '' : `${path}.`;
    if (Array.isArray(old) && Array.isArray(now)) {
      const shared = Math.min(old.length, now.length);
      for (let i = 0; i < now.length; i++) {
        if (i < shared) pending.push({ before: old[i] as unknown, after: now[i] as unknown, path: `${prefix}${i}` });
        else defineField(description.updatedFields, `${prefix}${i}`, now[i]);
      }
      if (now.length < old.length) description.truncatedArrays.push({ field: path, newSize: now.length });
      continue;
    }
    if (isSubDocument(old) && isSubDocument(now)) {
      for (const key of Object.keys(old)) if (!Object.hasOwn(now, key)) description.removedFields.push(prefix + key);
      const keys = Object.keys(now);
      // Reversed onto the stack so fields come out in document order.
      for (let k = keys.length - 1; k >= 0; k--) {
        const key = keys[k]!;
        if (!Object.hasOwn(old, key)) defineField(description.updatedFields, prefix + key, now[key]);
        else pending.push({ before: old[key] as unknown, after: now[key] as unknown, path: prefix + key });
      }
      continue;
    }
    if (path !== '' && !sameValue(old, now)) defineField(description.updatedFields, path, now);
  }
  return description;
}
