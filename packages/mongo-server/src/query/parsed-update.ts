import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { addToSet, type PathOperation, pop, pull, pullAll, push } from './array-update-operators.js';
import { currentDate, extreme, inc, rename, set, unset, viaMingo } from './bson-update-operators.js';
import { bit } from './bit-operator.js';
import { multiply } from './mul-operator.js';
import { ArrayFilters, concretePaths } from './positional-paths.js';
import { comparePaths, overlaps } from './update-paths.js';

/** Options for `applyUpdate`. */
export interface ApplyUpdateOptions {
  /** The statement's filter, needed by the positional `$` operator. */
  filter?: Document;
  arrayFilters?: Document[];
  /** True when building an upserted document (`$setOnInsert` applies). */
  isInsert?: boolean;
}

/** Every path an update writes, per operator ( `$rename` writes its target too). */
function writtenPaths(update: Document): string[] {
  const paths: string[] = [];
  for (const [op, spec] of Object.entries(update)) {
    if (spec === null || typeof spec !== 'object') continue;
    for (const [path, value] of Object.entries(spec as Document)) {
      paths.push(path);
      if (op === '$rename' && typeof value === 'string') paths.push(value);
    }
  }
  return paths;
}

/** The first entry of ascending `list` above `after`, if any. */
function firstAfter(list: number[] | undefined, after: number): number | undefined {
  if (list === undefined) return undefined;
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! <= after) low = middle + 1;
    else high = middle;
  }
  return list[low];
}

/** Appends `index` to the list of `key` in `map`. */
function addIndex(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key);
  if (list) list.push(index);
  else map.set(key, [index]);
}

/**
 * mongod rejects two operators writing overlapping paths (`$inc: { n }` with
 * `$set: { n }`, or `a` with `a.b`), comparing the paths as written:
 * `items.$[].a` and `items.$[].b` are two fields of the same elements. The
 * pair reported is the first written path that overlaps a later one, with
 * the first such later one. Found through maps of the paths and of their
 * prefixes, not by comparing every pair: an update may name hundreds of
 * thousands of paths, and comparing all pairs took 18 s for 25,000 of them.
 */
function checkConflicts(update: Document): void {
  const paths = writtenPaths(update);
  // Where each path is written, and where each path is a proper prefix of a written one.
  const written = new Map<string, number[]>();
  const under = new Map<string, number[]>();
  for (const [index, path] of paths.entries()) {
    addIndex(written, path, index);
    for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) {
      addIndex(under, path.slice(0, dot), index);
    }
  }
  for (const [index, path] of paths.entries()) {
    // A later path equal to this one, under it, or above it: the first of them.
    let other = firstAfter(written.get(path), index);
    const below = firstAfter(under.get(path), index);
    if (below !== undefined && (other === undefined || below < other)) other = below;
    for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) {
      const above = firstAfter(written.get(path.slice(0, dot)), index);
      if (above !== undefined && (other === undefined || above < other)) other = above;
    }
    if (other === undefined) continue;
    // mongod names the path it was adding when it met the conflict (the later one) and the shorter of the two.
    const later = paths[other]!;
    const shorter = later.length < path.length ? later : path;
    throw new CommandError(
      'ConflictingUpdateOperators',
      `Updating the path '${later}' would create a conflict at '${shorter}'`,
    );
  }
}

/** Refuses a path mongod cannot parse: an empty component, or more than one `$`. */
function checkPath(path: string): void {
  if (path === '') throw new CommandError('EmptyFieldName', 'An empty update path is not valid.');
  const parts = path.split('.');
  if (parts.includes('')) {
    throw new CommandError(
      'EmptyFieldName',
      `The update path '${path}' contains an empty field name, which is not allowed.`,
    );
  }
  if (parts.filter((part) => part === '$').length > 1) {
    throw new CommandError('BadValue', `Too many positional (i.e. '$') elements found in path '${path}'`);
  }
}

/** One operator at one path, as written, with its argument checked. */
interface ParsedOperation {
  readonly op: string;
  readonly path: string;
  readonly apply: PathOperation;
}

function operation(op: string, path: string, value: unknown): PathOperation {
  switch (op) {
    case '$set':
    case '$setOnInsert':
      return set(value);
    case '$unset':
      return unset();
    case '$inc':
      return inc(path, value);
    case '$max':
      return extreme(value, 1);
    case '$min':
      return extreme(value, -1);
    case '$currentDate':
      return currentDate(value);
    case '$rename':
      return rename(path, value);
    case '$addToSet':
      return addToSet(value);
    case '$push':
      return push(value);
    case '$pull':
      return pull(value);
    case '$pullAll':
      return pullAll(value);
    case '$pop':
      return pop(value);
    case '$mul':
      return multiply(path, value);
    case '$bit':
      return bit(value);
    default:
      return viaMingo(op, value);
  }
}

/** An operator update, parsed and checked as mongod does before looking at any document. */
export class ParsedUpdate {
  readonly operations: ParsedOperation[] = [];
  readonly arrayFilters: ArrayFilters;

  constructor(
    readonly update: Document,
    arrayFilters: Document[] | undefined,
  ) {
    // Each path is checked as mongod parses it, before the paths are compared with each other.
    for (const spec of Object.values(update)) for (const path of Object.keys(spec as Document)) checkPath(path);
    checkConflicts(update);
    for (const [op, spec] of Object.entries(update)) {
      for (const [path, value] of Object.entries(spec as Document)) {
        this.operations.push({ op, path, apply: operation(op, path, value) });
      }
    }
    this.arrayFilters = new ArrayFilters(arrayFilters, update);
  }

  /**
   * Applies the update to `doc` in place. Positional paths are resolved on
   * the document as matched, before anything changes; then every operation
   * runs in mongod's field order (see {@link comparePaths}).
   */
  applyTo(doc: Document, options: ApplyUpdateOptions): void {
    const context = { filter: options.isInsert ? undefined : (options.filter ?? {}), arrayFilters: this.arrayFilters };
    const steps: { path: string; apply: PathOperation }[] = [];
    for (const { op, path, apply } of this.operations) {
      if (op === '$setOnInsert' && !options.isInsert) continue;
      for (const concrete of concretePaths(doc, path, context)) steps.push({ path: concrete, apply });
    }
    steps.sort((a, b) => comparePaths(a.path, b.path));
    for (const [i, step] of steps.entries()) {
      const next = steps[i + 1];
      // Two positional paths may meet at one element (`a.$[].b` and `a.$[x].b`): mongod fails there.
      if (next && overlaps(step.path, next.path)) {
        throw new CommandError('ConflictingUpdateOperators', `Update created a conflict at '${step.path}'`);
      }
    }
    for (const step of steps) step.apply(doc, step.path);
  }
}
