/**
 * The elements a query path reaches in a document, walked as mongod 7's
 * matcher walks it (`BSONElementIterator` in src/mongo/db/matcher/path.cpp),
 * for the query operators that compare them.
 */
import { bsonTag } from '../bson/bson-compare.js';

/** Where a document lacks the path's next field: mongod's EOO element, which compares as missing. */
export const MISSING: unique symbol = Symbol('missing');

/** A sub-document: an object that is no array, Date, RegExp, buffer or bson value. */
export function isPlainDocument(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    bsonTag(value) === undefined &&
    !(value instanceof Date) &&
    !(value instanceof RegExp) &&
    !(value instanceof Uint8Array)
  );
}

/** A query path split at its dots once, when its operator is compiled. */
export interface QueryPath {
  readonly parts: readonly string[];
  /** Per part, the array index it spells ("0", "12"; not "01"), or -1. */
  readonly offsets: readonly number[];
}

/** `selector` as a {@link QueryPath}. */
export function queryPath(selector: string): QueryPath {
  const parts = selector.split('.');
  // mongod compares a part with an array element's field name ("0", "1", …): "01" is no offset.
  return { parts, offsets: parts.map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : -1)) };
}

/**
 * The elements `path` reaches in `doc`, {@link MISSING} for each document on the way
 * that lacks the next field:
 * - through sub-documents field by field, until the path ends or meets an array;
 * - in an array with path left: each document element is walked on (it may
 *   give MISSING), and the element whose index the next part spells (`a.0`)
 *   too: that element itself when the path ends there, never its contents, or
 *   walked on when it is a document or an array. Other elements, an array
 *   inside the array among them, give nothing;
 * - an array at the end of the path gives its elements (when
 *   `expandLeafArrays`; `$size` reads the array only) and then itself.
 *
 * An array whose elements give nothing makes the path reach nothing at all,
 * which no operator matches, not even equality to null (`{ 'a.b': null }`
 * does not match `{ a: [1, 2] }` before MongoDB 8's null semantics).
 */
export function pathElements(doc: unknown, path: QueryPath, expandLeafArrays: boolean): unknown[] {
  if (leafArraysWhole) expandLeafArrays = false;
  if (path.parts.length === 1) {
    // A top-level field, the common case, without the walk's bookkeeping.
    const key = path.parts[0]!;
    if (!isPlainDocument(doc) || !Object.hasOwn(doc, key)) return [MISSING];
    const value = doc[key];
    if (!Array.isArray(value)) return [value];
    return expandLeafArrays ? [...(value as unknown[]), value] : [value];
  }
  const out: unknown[] = [];
  fromDocument({ out, path, expandLeafArrays }, doc, 0);
  return out;
}

/** Set while `$elemMatch`'s value form tests an element (see {@link withLeafArraysWhole}). */
let leafArraysWhole = false;

/**
 * Runs `fn` (which matches synchronously) with arrays at the end of a path read
 * whole, never by their elements, when `whole`. `$elemMatch`'s value form tests
 * each element of the array as one value, as mongod's matchesSingleElement does:
 * `{ $elemMatch: { $gt: 4 } }` does not match `[[1, 5]]`. Its object form tests
 * its documents' fields as any query does, so it sets `whole` back to false.
 */
export function withLeafArraysWhole<T>(whole: boolean, fn: () => T): T {
  const before = leafArraysWhole;
  leafArraysWhole = whole;
  try {
    return fn();
  } finally {
    leafArraysWhole = before;
  }
}

/** One walk: where its elements go, and the path. */
interface Walk {
  readonly out: unknown[];
  readonly path: QueryPath;
  readonly expandLeafArrays: boolean;
}

/** mongod's getFieldDottedOrArray from part `from` of the path, then the iteration of what it found. */
function fromDocument(walk: Walk, document: unknown, from: number): void {
  const { out } = walk;
  const { parts } = walk.path;
  const last = parts.length - 1;
  let current = document;
  for (let i = from; ; i++) {
    const key = parts[i]!;
    if (!isPlainDocument(current) || !Object.hasOwn(current, key)) {
      out.push(MISSING);
      return;
    }
    const value = current[key];
    if (Array.isArray(value)) {
      if (i < last) {
        inArray(walk, value, i + 1);
        return;
      }
      if (walk.expandLeafArrays) for (const element of value) out.push(element);
      out.push(value);
      return;
    }
    if (i === last) {
      out.push(value);
      return;
    }
    current = value;
  }
}

/** The elements of `array`, with the path left from part `next` on. */
function inArray(walk: Walk, array: unknown[], next: number): void {
  const last = walk.path.parts.length - 1;
  const offset = walk.path.offsets[next]!;
  for (let index = 0; index < array.length; index++) {
    const element = array[index];
    if (isPlainDocument(element)) fromDocument(walk, element, next);
    if (index !== offset) continue;
    if (next === last) walk.out.push(element);
    else if (isPlainDocument(element)) fromDocument(walk, element, next + 1);
    else if (Array.isArray(element)) inArray(walk, element, next + 1);
  }
}

/** The values {@link pathElements} reaches, without the misses. */
export function pathValues(doc: unknown, path: QueryPath, expandLeafArrays: boolean): unknown[] {
  return pathElements(doc, path, expandLeafArrays).filter((value) => value !== MISSING);
}
