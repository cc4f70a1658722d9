import type { Document } from 'bson';
import { cloneDeep } from 'mingo/util';

import { bsonEquals, compareBson } from '../bson/bson-compare.js';
import { CommandError } from '../commands/command-error.js';
import { formatDocumentId } from './document-paths.js';
import { parseSortSpec, sortDocuments } from './sort-documents.js';

type Container = Document | unknown[];

const INDEX = /^\d+$/;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/**
 * The container holding the last component of a plain dotted `path`,
 * creating missing sub-documents on the way as mongod does; numeric
 * components index into arrays.
 */
function parentOf(doc: Document, path: string): { target: Container; leaf: string } {
  const parts = path.split('.');
  let target: Container = doc;
  for (const [i, part] of parts.slice(0, -1).entries()) {
    if (Array.isArray(target) && !INDEX.test(part)) {
      throw new CommandError('PathNotViable', `Cannot create field '${part}' in element {${parts[i - 1]}: [...]}`);
    }
    const container = target as Document;
    const next: unknown = container[part];
    if (next === undefined) {
      container[part] = {};
    } else if (next === null || typeof next !== 'object' || next instanceof Date || '_bsontype' in next) {
      throw new CommandError(
        'PathNotViable',
        `Cannot create field '${parts[i + 1]}' in element {${part}: ${String(next as string)}}`,
      );
    }
    target = container[part] as Container;
  }
  const leaf = parts[parts.length - 1]!;
  if (Array.isArray(target) && !INDEX.test(leaf)) {
    throw new CommandError('PathNotViable', `Cannot create field '${leaf}' in element {${parts.at(-2)}: [...]}`);
  }
  return { target, leaf };
}

function read(target: Container, leaf: string): unknown {
  return (target as Document)[leaf];
}

function write(target: Container, leaf: string, value: unknown): void {
  if (Array.isArray(target)) {
    // Writing past the end pads with nulls, as mongod does.
    const index = Number(leaf);
    while (target.length < index) target.push(null);
    target[index] = value;
  } else {
    target[leaf] = value;
  }
}

/**
 * `$max` (sign 1) / `$min` (sign -1) at a plain path: replaces the field when
 * `value` is greater / smaller in BSON order (numbers by value across
 * int32/Int64/double/Decimal128, then type order), or when it is missing.
 * The stored value is `value` itself, so the winner keeps its type.
 */
export function applyExtreme(doc: Document, path: string, value: unknown, sign: 1 | -1): void {
  const { target, leaf } = parentOf(doc, path);
  const current = read(target, leaf);
  if (current === undefined || compareBson(value, current) * sign > 0) write(target, leaf, cloneDeep(value));
}

function modifiers(value: unknown, allowed: readonly string[], op: string): Document | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('$each' in value)) return undefined;
  const spec = value as Document;
  for (const key of Object.keys(spec)) {
    if (!allowed.includes(key)) {
      throw new CommandError('BadValue', `Unrecognized clause in ${op}: ${key}`);
    }
  }
  if (!Array.isArray(spec.$each)) {
    throw new CommandError(
      'BadValue',
      `The argument to $each in ${op} must be an array but it was of type: ${typeName(spec.$each)}`,
    );
  }
  return spec;
}

function arrayAt(doc: Document, path: string, op: string): { target: Container; leaf: string; array: unknown[] } {
  const { target, leaf } = parentOf(doc, path);
  const current = read(target, leaf);
  if (current === undefined) return { target, leaf, array: [] };
  if (!Array.isArray(current)) {
    const message =
      op === '$addToSet'
        ? `Cannot apply $addToSet to non-array field. Field named '${leaf}' has non-array type ${typeName(current)}`
        : `The field '${leaf}' must be an array but is of type ${typeName(current)} in document {_id: ${formatDocumentId(doc)}}`;
    throw new CommandError(op === '$addToSet' ? 'TypeMismatch' : 'BadValue', message);
  }
  return { target, leaf, array: current };
}

/** `$addToSet` (with optional `$each`) at a plain path, with MongoDB's value equality (`1` equals `1n`). */
export function applyAddToSet(doc: Document, path: string, value: unknown): void {
  const each = modifiers(value, ['$each'], '$addToSet');
  const { target, leaf, array } = arrayAt(doc, path, '$addToSet');
  const values = each ? (each.$each as unknown[]) : [value];
  const result = [...array];
  for (const candidate of values) {
    if (!result.some((existing) => bsonEquals(existing, candidate))) result.push(cloneDeep(candidate));
  }
  if (result.length !== array.length || read(target, leaf) === undefined) write(target, leaf, result);
}

/** True for a `$push` argument that uses `$sort` (the only `$push` form mingo gets wrong). */
export function pushSorts(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && '$each' in value && '$sort' in value;
}

function integer(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new CommandError(
      'BadValue',
      `The value for ${name} must be an integer value but was given type: ${typeName(value)}`,
    );
  }
  return n;
}

function sortElements(elements: unknown[], sort: unknown): unknown[] {
  if (sort === 1 || sort === -1 || typeof sort === 'bigint') {
    const direction = Number(sort);
    if (direction !== 1 && direction !== -1)
      throw new CommandError('BadValue', 'The $sort element value must be either 1 or -1');
    // Array.prototype.sort is stable, as mongod's $push sort is.
    return [...elements].sort((a, b) => compareBson(a, b) * direction);
  }
  if (sort === null || typeof sort !== 'object' || Array.isArray(sort)) {
    throw new CommandError(
      'BadValue',
      'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
    );
  }
  parseSortSpec(sort as Document);
  const wrapped = elements.map((element) => ({ element }));
  const spec = Object.fromEntries(Object.entries(sort as Document).map(([k, v]) => [`element.${k}`, v]));
  return sortDocuments(wrapped, spec).map((w) => w.element);
}

/** `$push` with `$each`/`$position`/`$sort`/`$slice` at a plain path, sorting in BSON order. */
export function applyPush(doc: Document, path: string, value: unknown): void {
  const spec = modifiers(value, ['$each', '$position', '$sort', '$slice'], '$push')!;
  const { target, leaf, array } = arrayAt(doc, path, '$push');
  const each = (spec.$each as unknown[]).map((v) => cloneDeep(v));
  const position = integer(spec.$position, '$position');
  const slice = integer(spec.$slice, '$slice');
  let result = [...array];
  const at =
    position === undefined
      ? result.length
      : position < 0
        ? Math.max(0, result.length + position)
        : Math.min(position, result.length);
  result.splice(at, 0, ...each);
  if (spec.$sort !== undefined) result = sortElements(result, spec.$sort);
  if (slice !== undefined)
    result = slice >= 0 ? result.slice(0, slice) : result.slice(Math.max(0, result.length + slice));
  write(target, leaf, result);
}
