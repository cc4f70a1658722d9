import type { Document } from 'bson';
import { resolve } from 'mingo/util';

import { compareBson } from '../bson/bson-compare.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { approximateSize } from '../bson/approximate-size.js';
import { CommandError } from '../commands/command-error.js';
import { sortMemoryExceeded, STAGE_MEMORY_LIMIT } from './bounded-stages.js';
import { typeAlias } from './element-operators.js';
import { OperationBudget } from './operation-budget.js';
import { hasProtoPart, ownPathValue } from './proto-paths.js';

/** A `{ field: 1 | -1 }` sort specification. */
export type SortSpec = Record<string, unknown>;

/** Marker that sorts below every value, used for empty arrays. */
const EMPTY_ARRAY_KEY = Symbol('empty-array');

function sortKey(doc: Document, path: string, direction: number): unknown {
  const value = hasProtoPart(path) ? ownPathValue(doc, path.split('.')) : resolve(doc, path);
  if (!Array.isArray(value)) return value;
  const elements = value.flat(Infinity);
  if (elements.length === 0) return EMPTY_ARRAY_KEY;
  // MongoDB sorts an array by its smallest element ascending, largest descending.
  let best: unknown = elements[0];
  for (const element of elements) {
    const c = compareBson(element, best);
    if (direction > 0 ? c < 0 : c > 0) best = element;
  }
  return best;
}

function compareKeys(a: unknown, b: unknown): number {
  if (a === EMPTY_ARRAY_KEY || b === EMPTY_ARRAY_KEY) return a === b ? 0 : a === EMPTY_ARRAY_KEY ? -1 : 1;
  return compareBson(a, b);
}

/** Validates a sort specification and returns `[path, direction]` pairs. */
export function parseSortSpec(spec: SortSpec): [string, number][] {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    throw new CommandError('BadValue', 'Expected field sort to be an object');
  }
  return Object.entries(spec).map(([path, raw]) => {
    // Only numbers: Number() on a document with its own `toString` key throws a TypeError.
    const direction = typeof raw === 'number' || typeof raw === 'bigint' ? Number(raw) : NaN;
    // mongod's SortPattern: what is neither a number nor a document is no key at all (15974).
    if (Number.isNaN(direction) && typeof raw !== 'number' && typeAlias(raw) !== 'object') {
      throw new CommandError('Location15974', `Illegal key in $sort specification: ${path}: ${formatKeyValue(raw)}`);
    }
    if (direction !== 1 && direction !== -1) {
      throw new CommandError('Location15975', `$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
    }
    return [path, direction];
  });
}

/** MongoDB's 100 MiB for the documents a sort holds, enforced when the command sent `allowDiskUse: false`. */
function checkSortMemory(docs: readonly Document[]): void {
  if (!OperationBudget.diskUseForbidden()) return;
  let bytes = 0;
  for (const doc of docs) {
    bytes += approximateSize(doc, STAGE_MEMORY_LIMIT);
    if (bytes > STAGE_MEMORY_LIMIT) throw sortMemoryExceeded();
  }
}

/**
 * Stable sort in MongoDB's BSON order (numbers by value across types, arrays
 * by their min/max element). Ties keep natural (insertion) order. Ticks the
 * command's clock per comparison, so maxTimeMS interrupts a long sort.
 */
export function sortDocuments<T extends Document>(docs: readonly T[], spec: SortSpec): T[] {
  const fields = parseSortSpec(spec).filter(([path]) => path !== '$natural');
  const natural = Number(spec.$natural ?? 1);
  const ordered = natural === -1 ? [...docs].reverse() : [...docs];
  if (fields.length === 0) return ordered;
  checkSortMemory(ordered);
  const keyed = ordered.map((doc) => ({ doc, keys: fields.map(([path, dir]) => sortKey(doc, path, dir)) }));
  keyed.sort((x, y) => {
    OperationBudget.tick();
    for (let i = 0; i < fields.length; i++) {
      const c = compareKeys(x.keys[i], y.keys[i]);
      if (c !== 0) return c * fields[i]![1];
    }
    return 0;
  });
  return keyed.map((entry) => entry.doc);
}
