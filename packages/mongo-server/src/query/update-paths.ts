import type { Document } from 'bson';

import { bsonTag } from '../bson/bson-compare.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';

/** A document or an array: what a dotted path steps through. */
export type Container = Document | unknown[];

const INDEX = /^\d+$/;

/** True for a sub-document or an array (not a Date, an ObjectId or another BSON value). */
export function isContainer(value: unknown): value is Container {
  return Array.isArray(value) || typeAlias(value) === 'object';
}

/** `{name: value}` as mongod prints an element in update errors. */
export function element(name: string, value: unknown): string {
  return `{${name}: ${formatKeyValue(value)}}`;
}

function notViable(field: string, name: string, value: unknown): CommandError {
  return new CommandError('PathNotViable', `Cannot create field '${field}' in element ${element(name, value)}`);
}

/**
 * The container holding the last component of a plain dotted `path`,
 * creating missing sub-documents on the way as mongod does (an array is
 * padded with nulls up to a numeric component). A component that cannot
 * exist — a name inside an array, anything inside a scalar or null — is
 * MongoDB's PathNotViable (28).
 */
export function parentOf(doc: Document, path: string): { target: Container; leaf: string } {
  const parts = path.split('.');
  let target: Container = doc;
  let name = '';
  for (const [i, part] of parts.entries()) {
    if (Array.isArray(target) && !INDEX.test(part)) throw notViable(part, name, target);
    if (i === parts.length - 1) break;
    let next: unknown = read(target, part);
    if (next === undefined) {
      next = {};
      write(target, part, next);
    } else if (!isContainer(next)) {
      throw notViable(parts[i + 1]!, part, next);
    }
    target = next as Container;
    name = part;
  }
  return { target, leaf: parts.at(-1)! };
}

/**
 * The container holding the last component of `path` when every step to it
 * exists, without creating or failing: `$unset`, `$pull`, `$pop` and a
 * `$rename` source treat a path that cannot exist as absent.
 */
export function existingParent(doc: Document, path: string): { target: Container; leaf: string } | undefined {
  const parts = path.split('.');
  let target: Container = doc;
  for (const part of parts.slice(0, -1)) {
    if (Array.isArray(target) && !INDEX.test(part)) return undefined;
    const next = read(target, part);
    if (!isContainer(next)) return undefined;
    target = next;
  }
  const leaf = parts.at(-1)!;
  if (Array.isArray(target) && !INDEX.test(leaf)) return undefined;
  return { target, leaf };
}

/** The value at `leaf` of `target`, own fields only (a field named `__proto__` is a field). */
export function read(target: Container, leaf: string): unknown {
  return Object.hasOwn(target, leaf) ? (target as Document)[leaf] : undefined;
}

/** Sets `leaf` of `target`; past an array's end the gap is filled with nulls, as mongod does. */
export function write(target: Container, leaf: string, value: unknown): void {
  if (Array.isArray(target)) {
    const index = Number(leaf);
    while (target.length < index) target.push(null);
    target[index] = value;
  } else if (leaf === '__proto__') {
    // Defined, not assigned: a field named "__proto__" stays an own field.
    Object.defineProperty(target, leaf, { value, enumerable: true, writable: true, configurable: true });
  } else {
    // Any other name is a plain data property (Object.prototype's one setter is `__proto__`);
    // assigning it costs a fraction of defining it, on every field an update sets.
    (target as Document)[leaf] = value;
  }
}

/** Removes `leaf` of `target`; an array element becomes null (arrays keep their length, as in mongod). */
export function remove(target: Container, leaf: string): void {
  if (Array.isArray(target)) target[Number(leaf)] = null;
  else delete (target as Document)[leaf];
}

/**
 * mongod's order of applying an update's fields (since 5.0): by path
 * component, numeric names in numeric order, others in byte order; so new
 * fields are added in lexicographic order whatever order the update names them.
 */
export function comparePaths(a: string, b: string): number {
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [p, q] = [x[i]!, y[i]!];
    if (p === q) continue;
    if (INDEX.test(p) && INDEX.test(q)) return Number(p) - Number(q);
    return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/** True when one path is the other or lies inside it. */
export function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

/**
 * A deep copy of a stored value: documents and arrays are copied, a field
 * named `__proto__` stays an own field (mingo's `cloneDeep` assigns it,
 * which sets the copy's prototype instead), Dates are copied, other BSON
 * values are immutable and shared.
 */
export function cloneValue<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneValue) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  // A DBRef is a class of its own (its fields are getters): copied, it became a plain document.
  if (bsonTag(value) === 'DBRef' || typeAlias(value) !== 'object') return value;
  const copy: Document = {};
  for (const key of Object.keys(value as Document)) write(copy, key, cloneValue((value as Document)[key]));
  return copy as T;
}

/**
 * Each of `docs` through {@link cloneValue}, copied as a pipeline reads it:
 * what mingo's `CLONE_INPUT` does, keeping fields named `__proto__`.
 */
export function* clonedEach<T>(docs: Iterable<T>): Generator<T, void, undefined> {
  for (const doc of docs) yield cloneValue(doc);
}
