import type { Document } from 'bson';

import { bsonEquals, compareBson } from '../bson/bson-compare.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { formatDocumentId } from './document-paths.js';
import { typeAlias } from './element-operators.js';
import { compileFilter } from './query-context.js';
import { parseSortSpec, sortDocuments } from './sort-documents.js';
import { cloneValue, type Container, existingParent, parentOf, read, write } from './update-paths.js';
import { PATH_OPERATORS } from './path-operators.js';

/** An update operator applied at one plain dotted path of a document, in place. */
export type PathOperation = (doc: Document, path: string) => void;

function modifiers(value: unknown, allowed: readonly string[], op: string): Document | undefined {
  if (typeAlias(value) !== 'object' || !Object.hasOwn(value as Document, '$each')) return undefined;
  const spec = value as Document;
  for (const key of Object.keys(spec)) {
    if (!allowed.includes(key)) throw new CommandError('BadValue', `Unrecognized clause in ${op}: ${key}`);
  }
  if (!Array.isArray(spec.$each)) {
    throw new CommandError(
      'BadValue',
      `The argument to $each in ${op} must be an array but it was of type: ${typeAlias(spec.$each)}`,
    );
  }
  return spec;
}

/** The array at `path` (created empty when missing), or mongod's error for another type there. */
function arrayAt(doc: Document, path: string, op: string): { target: Container; leaf: string; array: unknown[] } {
  const { target, leaf } = parentOf(doc, path);
  const current = read(target, leaf);
  if (current === undefined) return { target, leaf, array: [] };
  if (!Array.isArray(current)) {
    const message =
      op === '$addToSet'
        ? `Cannot apply $addToSet to non-array field. Field named '${leaf}' has non-array type ${typeAlias(current)}`
        : `The field '${leaf}' must be an array but is of type ${typeAlias(current)} in document {_id: ${formatDocumentId(doc)}}`;
    throw new CommandError(op === '$addToSet' ? 'TypeMismatch' : 'BadValue', message);
  }
  return { target, leaf, array: current };
}

/**
 * Whether `sorted` (in {@link compareBson} order) holds a value equal to
 * `value`, by binary search: `$addToSet`, `$pullAll` and `$pull` with `$in`
 * compared each value with every other, which took 27 s for 40,000 values.
 */
export function sortedHas(sorted: readonly unknown[], value: unknown): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareBson(sorted[middle], value);
    if (order === 0) return bsonEquals(sorted[middle], value);
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return false;
}

/** `$addToSet` (with optional `$each`), with MongoDB's value equality (`1` equals `1n`). */
export function addToSet(value: unknown): PathOperation {
  const each = modifiers(value, ['$each'], '$addToSet');
  const values = each ? (each.$each as unknown[]) : [value];
  return (doc, path) => {
    const { target, leaf, array } = arrayAt(doc, path, '$addToSet');
    // Sorted here, not once: strings compare under the collation of the command applying it.
    const present = [...array].sort(compareBson);
    // Of equal candidates only the first met is added: a stable sort puts it first among them.
    const order = values.map((_, i) => i).sort((i, j) => compareBson(values[i], values[j]));
    const repeated = new Set<number>();
    for (let k = 1; k < order.length; k++) {
      if (bsonEquals(values[order[k - 1]!], values[order[k]!])) repeated.add(order[k]!);
    }
    const result = [...array];
    for (const [i, candidate] of values.entries()) {
      if (!repeated.has(i) && !sortedHas(present, candidate)) result.push(cloneValue(candidate));
    }
    if (result.length !== array.length || read(target, leaf) === undefined) write(target, leaf, result);
  };
}

function integer(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new CommandError(
      'BadValue',
      `The value for ${name} must be an integer value but was given type: ${typeAlias(value)}`,
    );
  }
  return n;
}

function sortElements(elements: unknown[], sort: unknown): unknown[] {
  if (typeof sort === 'number' || typeof sort === 'bigint') {
    // Array.prototype.sort is stable, as mongod's $push sort is.
    return [...elements].sort((a, b) => compareBson(a, b) * Number(sort));
  }
  const wrapped = elements.map((element) => ({ element }));
  const spec = Object.fromEntries(Object.entries(sort as Document).map(([k, v]) => [`element.${k}`, v]));
  return sortDocuments(wrapped, spec).map((w) => w.element);
}

function checkSort(sort: unknown): void {
  if (sort === undefined) return;
  if (typeof sort === 'number' || typeof sort === 'bigint') {
    if (Number(sort) !== 1 && Number(sort) !== -1) {
      throw new CommandError('BadValue', 'The $sort element value must be either 1 or -1');
    }
    return;
  }
  if (typeAlias(sort) !== 'object') {
    throw new CommandError(
      'BadValue',
      'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
    );
  }
  parseSortSpec(sort as Document);
}

/** `$push`, plain or with `$each`/`$position`/`$sort`/`$slice`, sorting in BSON order. */
export function push(value: unknown): PathOperation {
  const spec = modifiers(value, ['$each', '$position', '$sort', '$slice'], '$push') ?? { $each: [value] };
  const position = integer(spec.$position, '$position');
  const slice = integer(spec.$slice, '$slice');
  checkSort(spec.$sort);
  return (doc, path) => {
    const { target, leaf, array } = arrayAt(doc, path, '$push');
    let result = array;
    const at =
      position === undefined
        ? result.length
        : position < 0
          ? Math.max(0, result.length + position)
          : Math.min(position, result.length);
    // A new array rather than splice(at, 0, ...each): as arguments, a huge $each would overflow the stack.
    result = [...result.slice(0, at), ...(spec.$each as unknown[]).map((v) => cloneValue(v)), ...result.slice(at)];
    if (spec.$sort !== undefined) result = sortElements(result, spec.$sort);
    if (slice !== undefined) {
      result = slice >= 0 ? result.slice(0, slice) : result.slice(Math.max(0, result.length + slice));
    }
    write(target, leaf, result);
  };
}

/** The values of a `$pull` condition that is only `{ $in: [...] }` without regular expressions, else undefined. */
function plainIn(condition: unknown): unknown[] | undefined {
  if (typeAlias(condition) !== 'object') return undefined;
  const keys = Object.keys(condition as Document);
  const values: unknown = (condition as Document).$in;
  if (keys.length !== 1 || !Array.isArray(values)) return undefined;
  return values.some((v) => ['regex', 'object', 'array'].includes(typeAlias(v))) ? undefined : values;
}

/**
 * mongod's three readings of a `$pull` condition (`PullNode`): a document
 * whose first field is not a path operator is a query each document element
 * must match as a whole document (`{ score: 8, item: 'B' }`, `{ $or: […] }`);
 * a regex or an operator document is a condition on each value
 * (`{ $gte: 6 }`); anything else removes the values equal to it.
 */
function pullMatcher(condition: unknown): (value: unknown) => boolean {
  const inValues = plainIn(condition);
  if (inValues) {
    // A binary search per element (the matcher compared each element with every value): sorted on
    // first use, under the collation of the command applying it. An array element matches by any item.
    let sorted: unknown[] | undefined;
    const has = (value: unknown): boolean => sortedHas((sorted ??= [...inValues].sort(compareBson)), value);
    return (value) => has(value) || (Array.isArray(value) && value.some(has));
  }
  if (typeAlias(condition) === 'object') {
    const first = Object.keys(condition as Document)[0];
    if (first === undefined || !PATH_OPERATORS.has(first)) {
      const matches = compileFilter(condition as Document);
      return (value) => typeAlias(value) === 'object' && matches(value as Document);
    }
  }
  if (typeAlias(condition) === 'object' || condition instanceof RegExp || typeAlias(condition) === 'regex') {
    const matches = compileFilter({ v: condition });
    return (value) => matches({ v: value });
  }
  return (value) => bsonEquals(value, condition);
}

function cull(doc: Document, path: string, remove: (value: unknown) => boolean): void {
  const parent = existingParent(doc, path);
  if (!parent) return;
  const current = read(parent.target, parent.leaf);
  if (current === undefined) return;
  if (!Array.isArray(current)) throw new CommandError('BadValue', 'Cannot apply $pull to a non-array value');
  const kept = current.filter((value) => !remove(value));
  if (kept.length !== current.length) write(parent.target, parent.leaf, kept);
}

/** `$pull`: removes the elements matching a condition or equal to a value. */
export function pull(condition: unknown): PathOperation {
  const matches = pullMatcher(condition);
  return (doc, path) => cull(doc, path, matches);
}

/** `$pullAll`: removes the elements equal to any of the given values. */
export function pullAll(values: unknown): PathOperation {
  if (!Array.isArray(values)) {
    throw new CommandError('BadValue', `$pullAll requires an array argument but was given a ${typeAlias(values)}`);
  }
  return (doc, path) => {
    const sorted = [...(values as unknown[])].sort(compareBson);
    cull(doc, path, (value) => sortedHas(sorted, value));
  };
}

/** `$pop`: 1 removes the last element, -1 the first. */
export function pop(value: unknown): PathOperation {
  const end = typeof value === 'number' || typeof value === 'bigint' ? Number(value) : Number.NaN;
  if (end !== 1 && end !== -1) {
    throw new CommandError('FailedToParse', `$pop expects 1 or -1, found: ${formatKeyValue(value)}`);
  }
  return (doc, path) => {
    const parent = existingParent(doc, path);
    const current = parent && read(parent.target, parent.leaf);
    if (current === undefined) return;
    if (!Array.isArray(current)) {
      throw new CommandError(
        'TypeMismatch',
        `Path '${path}' contains an element of non-array type '${typeAlias(current)}'`,
      );
    }
    if (current.length > 0) write(parent!.target, parent!.leaf, end === 1 ? current.slice(0, -1) : current.slice(1));
  };
}
