/**
 * `$sum`, `$count`, `$avg`, `$min` and `$max` over windows that start at
 * the partition's first document (`['unbounded', 'current']`,
 * `['unbounded', n]`, by documents or by range: a running total) in one
 * pass over the partition. Calling the accumulator
 * over each document's window cost O(n²): a running total over 2,000
 * documents took 2 s. Each result here is what the server's accumulator
 * (numeric-expressions.ts, bson-group.ts) gives over the same documents:
 * the same values, summed in the same order, with the same result types. A
 * Decimal128 among the values hands the window back to the accumulator
 * (its decimal arithmetic is not kept incrementally).
 */
import { compareBson } from '../bson/bson-compare.js';
import { fitsInt64, numericType, storedDouble, toDouble } from './numeric-types.js';

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/** The names this file computes. */
export const RUNNING_ACCUMULATORS: ReadonlySet<string> = new Set(['$sum', '$count', '$avg', '$min', '$max']);

/**
 * The accumulator's result over each prefix of `values` (the argument's
 * value per document, undefined where missing): entry `k` is its result
 * over documents `0..k`. `slice(k)` computes one prefix through the
 * accumulator itself, for a prefix this file does not follow (decimals).
 */
export function runningResults(name: string, values: readonly unknown[], slice: (k: number) => unknown): unknown[] {
  switch (name) {
    case '$count':
      return values.map((_, k) => k + 1);
    case '$min':
      return extremes(values, -1);
    case '$max':
      return extremes(values, 1);
    default:
      return sums(name === '$avg', values, slice);
  }
}

/** `$min` (-1) or `$max` (1): null and missing never win, a tie keeps the first (bson-group.ts's fold). */
function extremes(values: readonly unknown[], sign: 1 | -1): unknown[] {
  let best: unknown = null;
  return values.map((value) => {
    if (value !== null && value !== undefined && (best === null || compareBson(value, best) * sign > 0)) best = value;
    return best;
  });
}

/** `$sum` or `$avg` of each prefix, as numeric-expressions.ts's `sum`/`avg` compute them. */
function sums(average: boolean, values: readonly unknown[], slice: (k: number) => unknown): unknown[] {
  let count = 0;
  let doubleTotal = 0;
  let integerTotal = 0n;
  let hasDouble = false;
  let hasLong = false;
  let hasDecimal = false;
  return values.map((value, k) => {
    const type = numericType(value);
    if (type !== undefined) {
      count++;
      // The double sum runs over every number in order, as `reduce` does over the prefix.
      doubleTotal += toDouble(value);
      if (type === 'decimal') hasDecimal = true;
      else if (type === 'double') hasDouble = true;
      else {
        if (type === 'long') hasLong = true;
        integerTotal += typeof value === 'bigint' ? value : BigInt(String(value));
      }
    }
    if (hasDecimal) return slice(k);
    if (average) return count === 0 ? null : storedDouble(doubleTotal / count);
    if (hasDouble) return storedDouble(doubleTotal);
    // Past Int64, MongoDB goes on in double.
    if (!fitsInt64(integerTotal)) return Number(integerTotal);
    return hasLong || integerTotal < INT32_MIN || integerTotal > INT32_MAX ? integerTotal : Number(integerTotal);
  });
}
