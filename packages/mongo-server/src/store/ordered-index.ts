import type { Document } from 'bson';
import * as sortedBtree from 'sorted-btree';

import { bsonTag, compareStrings, isSubDocument } from '../bson/bson-compare.js';
import type { StringOrder } from '../bson/string-order.js';
import { hashedIndexKey } from '../query/hashed-index-key.js';
import { compareIndexValues } from './index-key-order.js';
import { DB_REF_FIELDS } from '../query/db-ref-fields.js';

/** What this file uses of sorted-btree's `BTree`. */
interface SortedTree<K, V> {
  readonly size: number;
  set(key: K, value: V): boolean;
  delete(key: K): boolean;
  entries(lowestKey?: K): IterableIterator<[K, V]>;
  entriesReversed(highestKey?: K): IterableIterator<[K, V]>;
}
type SortedTreeClass = new <K, V>(entries: undefined, compare: (a: K, b: K) => number) => SortedTree<K, V>;

// sorted-btree is CommonJS with `exports.default`: Node's ESM loader hands over the whole
// `exports` object as the default export, the CommonJS build unwraps it.
const loaded = sortedBtree.default as unknown as SortedTreeClass | { default: SortedTreeClass };
const BTree: SortedTreeClass = typeof loaded === 'function' ? loaded : loaded.default;

/**
 * An index entry: the indexed values in the index's field order, then the
 * document's natural-order number, which makes every entry unique and puts
 * equal keys in insertion order.
 */
export type IndexEntryKey = unknown[];

/** An index's fields as the planner sees them. */
export interface IndexField {
  readonly path: string;
  /** 1 ascending, -1 descending; 1 for a hashed field, whose entries are in hash order. */
  readonly direction: 1 | -1;
  /** A `'hashed'` field: its entries hold the value's hashed index key (an Int64), not the value. */
  readonly hashed: boolean;
}

/**
 * Set by {@link collectValues} when it met an array directly inside an
 * array: the keys then hold values the matcher never compares (MongoDB
 * indexes `[[2]]` under `[2]`, the matcher does not take it for `2`).
 * Reset and read by `entriesOf`, around its calls.
 */
let sawNestedArray = false;

function pushFlattened(values: readonly unknown[], out: unknown[]): void {
  for (const value of values) {
    if (Array.isArray(value)) {
      sawNestedArray = true;
      pushFlattened(value, out);
    } else out.push(value);
  }
}

/**
 * Every value the matcher may compare at `parts` (missing as `undefined`),
 * descending through arrays at any level and flattening arrays at the end:
 * a superset of MongoDB's multikey keys, so that no document the matcher
 * accepts is missing from a scan. Returns whether an array was met.
 */
function collectValues(value: unknown, parts: readonly string[], at: number, out: unknown[]): boolean {
  if (Array.isArray(value)) {
    const before = out.length;
    if (at === parts.length) pushFlattened(value, out);
    else {
      for (const element of value) {
        if (Array.isArray(element)) sawNestedArray = true;
        collectValues(element, parts, at, out);
      }
    }
    if (out.length === before) out.push(undefined);
    return true;
  }
  if (at === parts.length) {
    out.push(value);
    return false;
  }
  if (!isSubDocument(value)) {
    out.push(undefined);
    return false;
  }
  return collectValues(Object.hasOwn(value, parts[at]!) ? value[parts[at]!] : undefined, parts, at + 1, out);
}

/**
 * The value a hashed index hashes at `parts`: missing (and so hashed as null)
 * past a scalar; at an array, `array` is set instead. Writes refuse an array
 * on the path (16766), so none is stored; if one were, the field would count
 * as multikey and the planner would give it no bounds.
 */
function hashedValueAt(doc: Document, parts: readonly string[]): { value: unknown; array: boolean } {
  let value: unknown = doc;
  for (const part of parts) {
    if (Array.isArray(value)) return { value: undefined, array: true };
    if (!isSubDocument(value)) return { value: undefined, array: false };
    value = Object.hasOwn(value, part) ? value[part] : undefined;
  }
  return Array.isArray(value) ? { value: undefined, array: true } : { value, array: false };
}

/** A document's entries in one index, per field whether its path met an array, and whether one held another. */
interface Entries {
  readonly keys: IndexEntryKey[];
  readonly arrays: boolean[];
  readonly nested: boolean;
}

/**
 * Whether two index values are the same value of the same type: an entry
 * holding either sorts, bounds-checks and reports alike. Identical primitives,
 * equal dates, equal BSON values of one type (ObjectId, Long, Decimal128…);
 * anything else (sub-documents, arrays, regexes) counts as changed.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  const tag = bsonTag(a);
  return tag !== undefined && tag === bsonTag(b) && compareIndexValues(a, b, compareStrings) === 0;
}

function sameEntries(a: Entries, b: Entries): boolean {
  if (a.keys.length !== b.keys.length || a.nested !== b.nested || a.arrays.some((array, i) => array !== b.arrays[i])) {
    return false;
  }
  return a.keys.every((key, k) => {
    const other = b.keys[k]!;
    return key.length === other.length && key.every((value, i) => sameValue(value, other[i]));
  });
}

/**
 * One index kept in key order (a B+ tree): the `_id` index or a secondary
 * one, ascending or descending per field, compound and multikey. The query
 * planner walks it between bounds; the documents themselves stay in the
 * collection's map.
 */
export class OrderedIndex {
  readonly fields: readonly IndexField[];
  private readonly parts: readonly string[][];
  private readonly tree: SortedTree<IndexEntryKey, string>;
  private readonly compare: (a: IndexEntryKey, b: IndexEntryKey) => number;
  /** Per field: how many stored documents met an array on its path. */
  private readonly multikeyDocs: number[];
  /** How many stored documents met an array directly inside an array on a field's path. */
  private nestedDocs = 0;

  constructor(
    readonly name: string,
    readonly keyPattern: Document,
    readonly sparse = false,
    /** How the index orders strings: its collation's order, else binary (never the command's). */
    strings: StringOrder = compareStrings,
  ) {
    this.fields = Object.entries(keyPattern).map(([path, direction]) => ({
      path,
      direction: direction !== 'hashed' && Number(direction) < 0 ? -1 : 1,
      hashed: direction === 'hashed',
    }));
    this.parts = this.fields.map((field) => field.path.split('.'));
    this.multikeyDocs = this.fields.map(() => 0);
    const directions = this.fields.map((field) => field.direction);
    const n = directions.length;
    this.compare = (a, b) => {
      for (let i = 0; i < n; i++) {
        const c = compareIndexValues(a[i], b[i], strings);
        if (c !== 0) return c * directions[i]!;
      }
      return (a[n] as number) - (b[n] as number);
    };
    this.tree = new BTree<IndexEntryKey, string>(undefined, this.compare);
  }

  /**
   * Whether a key pattern can be kept in order: ascending or descending
   * numbers, and `'hashed'` (kept in the order of its hashes), not `text` or
   * `2dsphere`; on paths without positional parts (`a.0` means an element or
   * a field named "0", which only the matcher can tell apart).
   */
  static supports(keyPattern: Document): boolean {
    return Object.entries(keyPattern).every(
      ([path, direction]) =>
        (direction === 'hashed' ||
          ((typeof direction === 'number' || typeof direction === 'bigint' || bsonTag(direction) !== undefined) &&
            Number(direction) !== 0 &&
            !Number.isNaN(Number(direction)))) &&
        path
          .split('.')
          .every(
            (part) => part.length > 0 && !/^\d+$/.test(part) && (!part.startsWith('$') || DB_REF_FIELDS.has(part)),
          ),
    );
  }

  /** Number of entries (keys), for explain and the benchmark. */
  get size(): number {
    return this.tree.size;
  }

  /** Whether some stored document has an array on field `i`'s path. */
  isMultikey(i: number): boolean {
    return this.multikeyDocs[i]! > 0;
  }

  /** Whether some stored document has an array on any field's path (explain's `isMultiKey`). */
  isMultikeyOnAnyField(): boolean {
    return this.multikeyDocs.some((count) => count > 0);
  }

  /**
   * Whether some stored document has an array directly inside an array on
   * a field's path: its keys then take in values the matcher does not
   * compare, so only a fetch and match can tell which documents match.
   */
  hasNestedArrays(): boolean {
    return this.nestedDocs > 0;
  }

  /** MongoDB's `multiKeyPaths`: for each field, the path prefixes that hold arrays (approximated by the field itself). */
  multiKeyPaths(): Document {
    return Object.fromEntries(this.fields.map((field, i) => [field.path, this.isMultikey(i) ? [field.path] : []]));
  }

  private entriesOf(doc: Document, seq: number): Entries {
    const perField: unknown[][] = [];
    const arrays: boolean[] = [];
    sawNestedArray = false;
    // Whether the document lacks every field: asked only of a sparse index, which then leaves it out.
    let missing = this.sparse;
    this.parts.forEach((parts, i) => {
      if (this.fields[i]!.hashed) {
        const { value, array } = hashedValueAt(doc, parts);
        if (missing && value !== undefined) missing = false;
        arrays.push(array);
        perField.push([hashedIndexKey(value)]);
        return;
      }
      const values: unknown[] = [];
      arrays.push(collectValues(doc, parts, 0, values));
      if (missing && values.some((v) => v !== undefined)) missing = false;
      perField.push(values);
    });
    const nested = sawNestedArray;
    if (missing) return { keys: [], arrays, nested };
    let keys: IndexEntryKey[] = [[]];
    for (const values of perField) keys = keys.flatMap((key) => values.map((v) => [...key, v]));
    for (const key of keys) key.push(seq);
    return { keys, arrays, nested };
  }

  /** Adds the entries of `doc`, stored as `idKey` with natural-order number `seq`. */
  add(idKey: string, seq: number, doc: Document): void {
    this.addEntries(idKey, this.entriesOf(doc, seq));
  }

  /** Removes the entries {@link add} made for the same `doc` and `seq`. */
  remove(seq: number, doc: Document): void {
    this.removeEntries(this.entriesOf(doc, seq));
  }

  /**
   * Swaps the entries of `before` for those of `after`, the same document
   * (`idKey`, `seq`) rewritten. When the index's fields kept their values, the
   * usual update, the tree is left alone: removing and re-adding the same
   * entries cost two descents of a tree that deepens with the collection.
   */
  replace(idKey: string, seq: number, before: Document, after: Document): void {
    const old = this.entriesOf(before, seq);
    const next = this.entriesOf(after, seq);
    if (sameEntries(old, next)) return;
    this.removeEntries(old);
    this.addEntries(idKey, next);
  }

  private addEntries(idKey: string, { keys, arrays, nested }: Entries): void {
    arrays.forEach((array, i) => {
      if (array) this.multikeyDocs[i]!++;
    });
    if (nested) this.nestedDocs++;
    for (const key of keys) this.tree.set(key, idKey);
  }

  private removeEntries({ keys, arrays, nested }: Entries): void {
    arrays.forEach((array, i) => {
      if (array) this.multikeyDocs[i]!--;
    });
    if (nested) this.nestedDocs--;
    for (const key of keys) this.tree.delete(key);
  }

  /**
   * The entries between `low` and `high` (keys whose field values may be
   * {@link IndexEdge}s), in index order or, with `reverse`, backwards.
   */
  *range(low: IndexEntryKey, high: IndexEntryKey, reverse = false): Generator<[IndexEntryKey, string]> {
    const { compare } = this;
    if (!reverse) {
      for (const entry of this.tree.entries(low)) {
        if (compare(entry[0], high) > 0) return;
        yield entry;
      }
    } else {
      for (const entry of this.tree.entriesReversed(high)) {
        if (compare(entry[0], low) < 0) return;
        yield entry;
      }
    }
  }
}
