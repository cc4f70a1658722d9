/**
 * The documents of a `$setWindowFields` window, as mongod's
 * PartitionIterator finds them (partition_iterator.cpp):
 *
 * - `documents: [lo, hi]`: positions around the current document, clamped
 *   to the partition; empty when shifted wholly out of it.
 * - `range: [lo, hi]`: the documents whose `sortBy` value lies within
 *   `value + lo` and `value + hi` (with `unit`, `$dateAdd` of that many
 *   units to a Date), read at the `sortBy` path (a dotted one too). A
 *   `'current'` bound is the current document itself (offset 0, not the
 *   documents tied with it); an `'unbounded'` one the first or last
 *   document whose value has the window's type (a number, or a Date with
 *   `unit`).
 *
 * mingo read a range's `sortBy` value with `doc[path]` (a dotted path gave
 * nothing, so every window was empty) and compared with JavaScript `<`.
 */
import type { Document } from 'bson';
import type { Options } from 'mingo/types';

import { compareBson, isBsonNumber } from '../bson/bson-compare.js';
import { CommandError } from '../commands/command-error.js';
import { dateAdd, type TimeUnit } from './date-arithmetic.js';
import { TimeZone } from './date-time-zones.js';
import { typeAlias } from './element-operators.js';
import { toDouble } from './numeric-types.js';
import { valuesOf } from './window-values.js';

/** A bound of a window: `'unbounded'`, `'current'` or an offset. */
export type Bound = 'unbounded' | 'current' | number;

/** The `window` of an output field, as the stage's spec gives it. */
export interface WindowSpec {
  readonly documents?: readonly [Bound, Bound];
  readonly range?: readonly [Bound, Bound];
  readonly unit?: TimeUnit;
}

/** The first and last positions of a window in its partition, inclusive; undefined for an empty window. */
export type Endpoints = readonly [number, number] | undefined;

/** Whether `window` is the whole partition (no window, or unbounded on both sides). */
export function isWholePartition(window: WindowSpec | undefined): boolean {
  const bounds = window?.documents ?? window?.range;
  return bounds === undefined || (bounds[0] === 'unbounded' && bounds[1] === 'unbounded');
}

/** Whether `window` starts at the partition's first document whatever the current one (mongod's non-removable windows). */
export function isLeftUnbounded(window: WindowSpec | undefined): boolean {
  const bounds = window?.documents ?? window?.range;
  return bounds === undefined || bounds[0] === 'unbounded';
}

/** A bound given as an Int64 or a double marker, as a JavaScript number. */
function offsetOf(bound: Bound): Bound {
  return typeof bound === 'string' ? bound : toDouble(bound);
}

/** The endpoints of a `documents` window around `index` in a partition of `length` documents. */
function documentEndpoints(bounds: readonly [Bound, Bound], index: number, length: number): Endpoints {
  const [lower, upper] = bounds.map(offsetOf) as [Bound, Bound];
  const lo = lower === 'unbounded' ? 0 : index + (lower === 'current' ? 0 : lower);
  const hi = upper === 'unbounded' ? length - 1 : index + (upper === 'current' ? 0 : upper);
  if (lo > length - 1 || hi < 0 || lo > hi) return undefined;
  return [Math.max(lo, 0), Math.min(hi, length - 1)];
}

/** The `sortBy` value of each document of a partition, as the field path `$<path>` reads it. */
export function sortValues(partition: readonly Document[], path: string, options: Options): unknown[] {
  return valuesOf(partition, `$${path}`, options);
}

/** mongod's range window: endpoints by the `sortBy` values (`values`) of the partition. */
function rangeEndpoints(
  bounds: readonly [Bound, Bound],
  unit: TimeUnit | undefined,
  values: readonly unknown[],
  index: number,
): Endpoints {
  const base = values[index];
  const isDate = (value: unknown) => value instanceof Date;
  if (unit !== undefined) {
    if (!isDate(base)) {
      throw new CommandError(
        'Location5429513',
        `Invalid range: Expected the sortBy field to be a Date, but it was ${typeAlias(base)}`,
      );
    }
  } else {
    if (isDate(base)) {
      throw new CommandError(
        'Location5429413',
        'Invalid range: For windows that involve date or time ranges, a unit must be provided.',
      );
    }
    if (!isBsonNumber(base)) {
      throw new CommandError(
        'Location5429414',
        `Invalid range: Expected the sortBy field to be a number, but it was ${typeAlias(base)}`,
      );
    }
  }
  const expected = (value: unknown) => (unit !== undefined ? isDate(value) : isBsonNumber(value));
  const threshold = (delta: number): unknown =>
    unit !== undefined
      ? new Date(dateAdd((base as Date).getTime(), unit, Math.trunc(delta), TimeZone.UTC))
      : toDouble(base) + delta;
  const [lower, upper] = bounds.map(offsetOf) as [Bound, Bound];
  let lo: number | undefined;
  if (lower === 'current') lo = index;
  else if (lower === 'unbounded') {
    const first = values.findIndex(expected);
    lo = first < 0 ? undefined : first;
  } else {
    const limit = threshold(lower);
    const first = values.findIndex((value) => compareBson(value, limit) >= 0);
    // The first document past the threshold opens the window only if it has the window's type.
    lo = first >= 0 && expected(values[first]) ? first : undefined;
  }
  if (lo === undefined) return undefined;
  let hi: number | undefined;
  if (upper === 'current') hi = index;
  else if (upper === 'unbounded') {
    let last = Math.max(lo, 0);
    while (last + 1 < values.length && expected(values[last + 1])) last++;
    hi = last;
  } else {
    const limit = threshold(upper);
    let next = lo;
    while (next < values.length && compareBson(limit, values[next]) >= 0) next++;
    hi = next === lo ? undefined : next - 1;
  }
  if (hi === undefined || lo > hi) return undefined;
  return [lo, hi];
}

/**
 * The endpoints of `window` for each document of a partition (`values`:
 * the partition's `sortBy` values, needed by a `range` window only).
 */
export function windowEndpoints(
  window: WindowSpec | undefined,
  length: number,
  values: () => readonly unknown[],
): (index: number) => Endpoints {
  if (window?.range !== undefined) {
    const range = window.range;
    const sorted = values();
    return (index) => rangeEndpoints(range, window.unit, sorted, index);
  }
  const documents = window?.documents ?? (['unbounded', 'unbounded'] as const);
  return (index) => documentEndpoints(documents, index, length);
}
