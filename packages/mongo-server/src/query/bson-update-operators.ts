import type { Document } from 'bson';
import { updateOne } from 'mingo/updater';
import type { Modifier } from 'mingo/updater';

import { compareBson } from '../bson/bson-compare.js';
import { Timestamp } from '../bson/bson-library.cjs';
import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import type { PathOperation } from './array-update-operators.js';
import { formatDocumentId } from './document-paths.js';
import { typeAlias } from './element-operators.js';
import { applyIncrement, checkIncrement } from './inc-operator.js';
import { mingoOptions, withMingoErrors } from './query-context.js';
import {
  cloneValue,
  element,
  existingParent,
  isContainer,
  overlaps,
  parentOf,
  read,
  remove,
  write,
} from './update-paths.js';

/** `$set` (and `$setOnInsert` on insert): the value, copied, at the path. */
export function set(value: unknown): PathOperation {
  return (doc, path) => {
    const { target, leaf } = parentOf(doc, path);
    write(target, leaf, cloneValue(value));
  };
}

/** `$unset`: removes the field; a path that cannot exist is left alone. */
export function unset(): PathOperation {
  return (doc, path) => {
    const parent = existingParent(doc, path);
    if (parent && read(parent.target, parent.leaf) !== undefined) remove(parent.target, parent.leaf);
  };
}

/** `$inc`, with MongoDB's numeric types (see inc-operator.ts). */
export function inc(path: string, value: unknown): PathOperation {
  // Refuses a non-numeric amount before any document is touched.
  checkIncrement(path, value);
  return (doc, path) => applyIncrement(doc, { [path]: value });
}

/**
 * `$max` (sign 1) / `$min` (sign -1): replaces the field when `value` is
 * greater / smaller in BSON order (numbers by value across
 * int32/Int64/double/Decimal128, then type order), or when it is missing.
 * The stored value is `value` itself, so the winner keeps its type.
 */
export function extreme(value: unknown, sign: 1 | -1): PathOperation {
  return (doc, path) => {
    const { target, leaf } = parentOf(doc, path);
    const current = read(target, leaf);
    if (current === undefined || compareBson(value, current) * sign > 0) write(target, leaf, cloneValue(value));
  };
}

/** `$currentDate`: `true` or `{ $type: 'date' }` stores the time as a Date, `{ $type: 'timestamp' }` as a Timestamp. */
export function currentDate(value: unknown): PathOperation {
  const type = typeAlias(value) === 'object' ? (value as Document).$type : value === true ? 'date' : undefined;
  const valid =
    value === true ||
    value === false ||
    (typeAlias(value) === 'object' &&
      Object.keys(value as Document).length === 1 &&
      (type === 'date' || type === 'timestamp'));
  if (!valid) {
    throw new CommandError(
      'BadValue',
      typeAlias(value) === 'object'
        ? "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}"
        : `${typeAlias(value)} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`,
    );
  }
  return (doc, path) => {
    const now = Date.now();
    const { target, leaf } = parentOf(doc, path);
    write(target, leaf, type === 'timestamp' ? new Timestamp({ t: Math.floor(now / 1000), i: 1 }) : new Date(now));
  };
}

/**
 * mongod's PathNotViable (28) for a `$rename` source whose path runs into a
 * value it cannot step through: an array met by a name that is no index, or
 * a scalar with more of the path after it (a path that merely does not
 * exist is no error: there is nothing to move).
 */
function checkRenameSource(doc: Document, source: string): void {
  const parts = source.split('.');
  let target: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const value = read(target as Document, parts[i]!);
    if (value === undefined) return;
    const next = parts[i + 1]!;
    if (Array.isArray(value) ? !/^\d+$/.test(next) : !isContainer(value)) {
      throw new CommandError(
        'PathNotViable',
        `cannot use the part (${parts[i]} of ${source}) to traverse the element (${element(parts[i]!, value)})`,
      );
    }
    target = value;
  }
}

/** `$rename`: moves a field; neither end may be inside an array. */
export function rename(source: string, to: unknown): PathOperation {
  const describe = `${source}: ${formatKeyValue(to)}`;
  if (typeof to !== 'string') {
    throw new CommandError('BadValue', `The 'to' field for $rename must be a string: ${describe}`);
  }
  if (to.includes('\0')) {
    throw new CommandError('BadValue', "The 'to' field for $rename cannot contain an embedded null byte");
  }
  if (to === source) {
    throw new CommandError('BadValue', `The source and target field for $rename must differ: ${describe}`);
  }
  if (overlaps(source, to)) {
    throw new CommandError(
      'BadValue',
      `The source and target field for $rename must not be on the same path: ${describe}`,
    );
  }
  return (doc) => {
    checkRenameSource(doc, source);
    const from = existingParent(doc, source);
    const value = from && read(from.target, from.leaf);
    if (value === undefined) return;
    if (Array.isArray(from!.target)) {
      throw new CommandError(
        'BadValue',
        `The source field cannot be an array element, '${source}' in doc with _id: ${formatDocumentId(doc)} has an array field called '${source.split('.').slice(0, -1).join('.')}'`,
      );
    }
    const into = parentOf(doc, to);
    if (Array.isArray(into.target)) {
      throw new CommandError(
        'BadValue',
        `The destination field cannot be an array element, '${to}' in doc with _id: ${formatDocumentId(doc)} has an array field called '${to.split('.').slice(0, -1).join('.')}'`,
      );
    }
    remove(from!.target, from!.leaf);
    write(into.target, into.leaf, value);
  };
}

/** `$mul` and `$bit`, through mingo at a plain path whose sub-documents exist. */
export function viaMingo(op: string, value: unknown): PathOperation {
  return (doc, path) => {
    parentOf(doc, path);
    withMingoErrors(() =>
      updateOne([doc], {}, { [op]: { [path]: value } } as Modifier<Document>, { cloneMode: 'deep' }, mingoOptions()),
    );
  };
}
