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

/**
 * What a range window needs of a partition's `sortBy` values, found once per
 * partition: whether they ascend in BSON order (then a bound is found by
 * binary search; a descending `sortBy` is scanned as mongod scans it), the
 * first value of each type, and where each run of a type ends. Scanning for
 * every document made a window over 20,000 documents run past the 10 s limit.
 */
class RangeValues {
  readonly ascending: boolean;
  private first: number | undefined;
  /** For each position, the last position of the run of the same kind (number or not, Date or not) it is in. */
  private readonly runEnd: Int32Array;

  constructor(
    readonly values: readonly unknown[],
    readonly expected: (value: unknown) => boolean,
  ) {
    let ascending = true;
    for (let i = 1; i < values.length && ascending; i++) ascending = compareBson(values[i - 1], values[i]) <= 0;
    this.ascending = ascending;
    this.runEnd = new Int32Array(values.length);
    for (let i = values.length - 1; i >= 0; i--) {
      const same = i + 1 < values.length && expected(values[i]) && expected(values[i + 1]);
      this.runEnd[i] = same ? this.runEnd[i + 1]! : i;
    }
  }

  /** The first position of a value of the window's type, or -1. */
  firstExpected(): number {
    this.first ??= this.values.findIndex(this.expected);
    return this.first;
  }

  /** From `start`, the last position of its run of values of the window's type (start itself if none). */
  lastOfRun(start: number): number {
    return this.expected(this.values[start]) ? this.runEnd[start]! : start;
  }

  /** The first position from `start` on where `test` holds (it holds from there on in ascending values), or the length. */
  firstFrom(start: number, test: (value: unknown) => boolean): number {
    if (!this.ascending) {
      let i = start;
      while (i < this.values.length && !test(this.values[i])) i++;
      return i;
    }
    let lo = start;
    let hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (test(this.values[mid])) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** mongod's range window: endpoints by the `sortBy` values of the partition. */
function rangeEndpoints(
  bounds: readonly [Bound, Bound],
  unit: TimeUnit | undefined,
  range: RangeValues,
  index: number,
): Endpoints {
  const values = range.values;
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
  const threshold = (delta: number): unknown =>
    unit !== undefined
      ? new Date(dateAdd((base as Date).getTime(), unit, Math.trunc(delta), TimeZone.UTC))
      : toDouble(base) + delta;
  const [lower, upper] = bounds.map(offsetOf) as [Bound, Bound];
  let lo: number | undefined;
  if (lower === 'current') lo = index;
  else if (lower === 'unbounded') {
    const first = range.firstExpected();
    lo = first < 0 ? undefined : first;
  } else {
    const limit = threshold(lower);
    const first = range.firstFrom(0, (value) => compareBson(value, limit) >= 0);
    // The first document past the threshold opens the window only if it has the window's type.
    lo = first < values.length && range.expected(values[first]) ? first : undefined;
  }
  if (lo === undefined) return undefined;
  let hi: number | undefined;
  if (upper === 'current') hi = index;
  else if (upper === 'unbounded') hi = range.lastOfRun(Math.max(lo, 0));
  else {
    const limit = threshold(upper);
    const next = range.firstFrom(lo, (value) => compareBson(limit, value) < 0);
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
    const bounds = window.range;
    const unit = window.unit;
    const expected = (value: unknown) => (unit !== undefined ? value instanceof Date : isBsonNumber(value));
    const range = new RangeValues(values(), expected);
    return (index) => rangeEndpoints(bounds, unit, range, index);
  }
  const documents = window?.documents ?? (['unbounded', 'unbounded'] as const);
  return (index) => documentEndpoints(documents, index, length);
}
