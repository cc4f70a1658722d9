/**
 * `$unwind` with mongod's `includeArrayIndex` (document_source_unwind.cpp):
 * the index is a long (null for a value that was not an array) set at the
 * field path it names. mingo wrote an int under the literal dotted name.
 */
import type { Document } from 'bson';
import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { isSubDocument } from '../bson/bson-compare.js';
import { defineField } from '../bson/define-field.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

/** Where mingo's `$unwind` leaves the index for this stage to move (a NUL byte: no stored name holds one). */
const INDEX_FIELD = '\u0000includeArrayIndex';

/**
 * Sets `value` at `path` in `doc`, copying the documents on the way: the
 * documents one array made share them. A value on the way that is not a
 * document is replaced by one.
 */
function setAtPath(doc: Document, path: readonly string[], value: unknown): void {
  let target = doc;
  for (const key of path.slice(0, -1)) {
    const current: unknown = Object.hasOwn(target, key) ? target[key] : undefined;
    const next: Document = isSubDocument(current) ? { ...current } : {};
    defineField(target, key, next);
    target = next;
  }
  defineField(target, path[path.length - 1]!, value);
}

/** `$unwind` whose `includeArrayIndex` mongod's way; `original` (mingo's) unwinds. */
export function unwindStage(original: PipelineOperator): PipelineOperator {
  return (collection, expr, options) => {
    const name = typeof expr === 'object' && expr !== null ? (expr as Document).includeArrayIndex : undefined;
    if (typeof name !== 'string') return original(collection, expr, options);
    const path = name.split('.');
    return original(collection, { ...(expr as Document), includeArrayIndex: INDEX_FIELD }, options).map(
      (doc: Document) => {
        const index: unknown = doc[INDEX_FIELD];
        delete doc[INDEX_FIELD];
        setAtPath(doc, path, typeof index === 'number' ? BigInt(index) : null);
        return doc;
      },
    );
  };
}
