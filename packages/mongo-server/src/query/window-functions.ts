/**
 * The window functions of `$setWindowFields` that are not accumulators, as
 * mongod 7.0 computes them over one partition (in `sortBy` order):
 *
 * - `$rank`, `$denseRank` (accumulator_rank.cpp): documents tie when their
 *   `sortBy` values compare equal in BSON order (`1`, `NumberLong(1)`,
 *   `1.0` tie; null and missing tie; an array by its sort key). mingo told them apart by JavaScript
 *   identity, so a `NumberLong(1)` after a `1` ranked apart.
 * - `$documentNumber`: the position in the partition, from 1.
 * - `$shift` (window_function_exec_first_last.h): `output` of the document
 *   `by` positions away, `default` (null unless given) past the partition.
 * - `$locf` (accumulator_locf.cpp): the last value that is neither null nor
 *   missing so far, null before the first. mingo's failed ("Cannot read
 *   properties of undefined") when the first value was missing.
 * - `$linearFill` (window_function_exec_linear_fill.cpp): a null or
 *   missing value between two present ones interpolated on the `sortBy`
 *   values, null where no present value is on both sides.
 * - `$expMovingAvg` (accumulator_exp_moving_avg.cpp): in Decimal128 as
 *   mongod computes it, a double unless an input is a Decimal128; a
 *   non-numeric value leaves the average as it was.
 * - `$derivative` (window_function_exec_derivative.cpp): (last − first
 *   value) / (last − first `sortBy` value) over the window, times the
 *   milliseconds of `unit`; null when the window has one `sortBy` value.
 * - `$integral` (window_function_integral.cpp): the trapezoids between
 *   consecutive documents of the window, divided by the milliseconds of
 *   `unit`; 0 for one document, null for an empty window (mingo answered 0).
 */
import type { Document } from 'bson';
import type { Options } from 'mingo/types';

import { compareBson, isBsonNumber, isNaNNumber } from '../bson/bson-compare.js';
import { Decimal128 } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';
import { decimalArithmetic } from './decimal-arithmetic.js';
import { typeAlias } from './element-operators.js';
import { numericType, storedDouble, toDouble } from './numeric-types.js';
import type { Endpoints } from './window-bounds.js';
import { valuesOf } from './window-values.js';

/** What a window function is given: the partition and how to read its windows. */
export interface WindowFunctionInput {
  readonly partition: readonly Document[];
  /** The function's argument, as the output field gives it. */
  readonly args: unknown;
  /** The `sortBy` path of a one-field `sortBy`, and whether it is descending. */
  readonly sortPath: string | undefined;
  readonly descending: boolean;
  /** The `sortBy` value of each document (read once, on first use). */
  readonly sortValues: () => readonly unknown[];
  /** The window of each document. */
  readonly endpoints: (index: number) => Endpoints;
  readonly options: Options;
}

/** A window function: its result for each document of the partition (undefined leaves the field unset). */
type WindowFunction = (input: WindowFunctionInput) => unknown[];

/** Milliseconds per `unit` of `$derivative` and `$integral` (mongod refuses month and longer for them). */
const UNIT_MILLIS: Readonly<Record<string, number>> = {
  week: 7 * 24 * 3600 * 1000,
  day: 24 * 3600 * 1000,
  hour: 3600 * 1000,
  minute: 60 * 1000,
  second: 1000,
  millisecond: 1,
};

const isNullish = (value: unknown) => value === null || value === undefined;

/** The argument's document form (`{ input, unit, … }`), or `{}`. */
function argsOf(args: unknown): Document {
  return args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Document) : {};
}

/** An array's sort key, as a sort reads it: its least element ascending, its greatest descending; [] below all. */
function sortKeyOf(value: unknown, descending: boolean): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 0) return EMPTY_ARRAY;
  let key: unknown = value[0] ?? null;
  for (const item of value) if (compareBson(item ?? null, key) * (descending ? -1 : 1) < 0) key = item ?? null;
  return key;
}

/** The sort key of an empty array: equal to itself only. */
const EMPTY_ARRAY = Symbol('empty array');

/** mongod's isSameValue for ranks: nullish values tie, arrays by their sort key, others by BSON order. */
function sameRank(a: unknown, b: unknown, descending: boolean): boolean {
  if (isNullish(a) && isNullish(b)) return true;
  const [x, y] = [sortKeyOf(a, descending), sortKeyOf(b, descending)];
  if (x === EMPTY_ARRAY || y === EMPTY_ARRAY) return x === y;
  if (isNullish(x) && isNullish(y)) return true;
  return compareBson(x, y) === 0;
}

function ranks(dense: boolean): WindowFunction {
  return ({ partition, sortValues, descending }) => {
    const values = sortValues();
    let rank = 0;
    return partition.map((_, i) => {
      // A new value starts a rank: the next one ($denseRank), or the document's position ($rank).
      if (i === 0 || !sameRank(values[i - 1], values[i], descending)) rank = dense ? rank + 1 : i + 1;
      return rank;
    });
  };
}

const documentNumber: WindowFunction = ({ partition }) => partition.map((_, i) => i + 1);

const shift: WindowFunction = ({ partition, args, options }) => {
  const spec = argsOf(args);
  const by = toDouble(spec.by);
  const outputs = valuesOf(partition, spec.output, options);
  // `default` is a constant (mongod refuses any other): evaluated once.
  const fallback =
    spec.default === undefined ? null : (valuesOf(partition.slice(0, 1), spec.default, options)[0] ?? null);
  return partition.map((_, i) => {
    const j = i + by;
    return j < 0 || j >= partition.length ? fallback : outputs[j];
  });
};

const locf: WindowFunction = ({ partition, args, options }) => {
  let last: unknown = null;
  return valuesOf(partition, args, options).map((value) => {
    if (!isNullish(value)) last = value;
    return last;
  });
};

/** `a op b` with mongod's arithmetic on numbers: doubles, or Decimal128 when one is. */
function arithmetic(op: '$add' | '$subtract' | '$multiply' | '$divide', a: unknown, b: unknown): unknown {
  if (numericType(a) === 'decimal' || numericType(b) === 'decimal') return decimalArithmetic(op, [a, b]);
  const x = toDouble(a);
  const y = toDouble(b);
  switch (op) {
    case '$add':
      return x + y;
    case '$subtract':
      return x - y;
    case '$multiply':
      return x * y;
    case '$divide':
      return x / y;
  }
}

/** A number (or a Date as its milliseconds) for the arithmetic above. */
function asNumber(value: unknown): unknown {
  return value instanceof Date ? value.getTime() : value;
}

/** A computed double as the server stores it; a Decimal128 as it is. */
function numericResult(value: unknown): unknown {
  return typeof value === 'number' ? storedDouble(value) : value;
}

const linearFill: WindowFunction = ({ partition, args, sortValues, options }) => {
  const ys = valuesOf(partition, args, options);
  const xs = sortValues();
  for (let i = 0; i < partition.length; i++) {
    const [x, y] = [xs[i], ys[i]];
    if (!isBsonNumber(y) && !isNullish(y)) {
      throw new CommandError(
        'TypeMismatch',
        `Value to be filled must be numeric or nullish, but found ${typeAlias(y)}`,
      );
    }
    if (!isBsonNumber(x) && !(x instanceof Date)) {
      throw new CommandError(
        'TypeMismatch',
        `Value of the sortBy field must be numeric or a date, but found ${typeAlias(x)}`,
      );
    }
    if (i > 0 && compareBson(xs[i - 1], x) === 0) {
      throw new CommandError('Location6050106', 'There can be no repeated values in the sort field');
    }
  }
  let left = -1;
  return partition.map((_, i) => {
    if (!isNullish(ys[i])) {
      left = i;
      return ys[i];
    }
    let right = i + 1;
    while (right < partition.length && isNullish(ys[right])) right++;
    if (left < 0 || right >= partition.length) return null;
    const [x1, y1, x2, y2, x] = [asNumber(xs[left]), ys[left], asNumber(xs[right]), ys[right], asNumber(xs[i])];
    // y1 + (x - x1) * ((y2 - y1) / (x2 - x1)), each step as mongod's $add/$subtract/$multiply/$divide.
    const slope = arithmetic('$divide', arithmetic('$subtract', y2, y1), arithmetic('$subtract', x2, x1));
    return numericResult(arithmetic('$add', y1, arithmetic('$multiply', arithmetic('$subtract', x, x1), slope)));
  });
};

const expMovingAvg: WindowFunction = ({ partition, args, options }) => {
  const spec = argsOf(args);
  const alpha =
    spec.N !== undefined
      ? decimalArithmetic('$divide', [2, decimalArithmetic('$add', [spec.N, 1])])
      : decimalArithmetic('$add', [spec.alpha, 0]);
  const complement = decimalArithmetic('$subtract', [1, alpha]);
  let current: Decimal128 | undefined;
  let decimal = false;
  return valuesOf(partition, spec.input, options).map((value) => {
    if (isBsonNumber(value)) {
      if (numericType(value) === 'decimal') decimal = true;
      current =
        current === undefined
          ? decimalArithmetic('$add', [value, 0])
          : decimalArithmetic('$add', [
              decimalArithmetic('$multiply', [value, alpha]),
              decimalArithmetic('$multiply', [current, complement]),
            ]);
    }
    if (current === undefined) return null;
    return decimal ? current : storedDouble(Number(current.toString()));
  });
};

/** The milliseconds per `unit`, or undefined without one. */
function unitMillis(unit: unknown): number | undefined {
  return typeof unit === 'string' ? UNIT_MILLIS[unit] : undefined;
}

const derivative: WindowFunction = ({ partition, args, sortValues, endpoints, options }) => {
  const spec = argsOf(args);
  const millis = unitMillis(spec.unit);
  const ys = valuesOf(partition, spec.input, options);
  const xs = sortValues();
  return partition.map((_, i) => {
    const window = endpoints(i);
    if (window === undefined) return null;
    const [lo, hi] = window;
    const [left, right] = [xs[lo], xs[hi]];
    if (millis !== undefined) {
      if (!(left instanceof Date && right instanceof Date)) {
        throw new CommandError('Location5624900', "$derivative with 'unit' expects the sortBy field to be a Date");
      }
    } else {
      if (left instanceof Date || right instanceof Date) {
        throw new CommandError('Location5624901', "$derivative where the sortBy is a Date requires an 'unit'");
      }
      if (!isBsonNumber(left) || !isBsonNumber(right)) {
        throw new CommandError(
          'Location5624902',
          "$derivative (with no 'unit') expects the sortBy field to be numeric",
        );
      }
    }
    if (isNullish(ys[lo]) || isNullish(ys[hi])) {
      throw new CommandError('Location5624903', '$derivative input must not be null or missing');
    }
    const run = arithmetic('$subtract', asNumber(right), asNumber(left));
    // Divide by zero is no error: a window of one document has no run.
    if (toDouble(run) === 0) return null;
    const rate = arithmetic('$divide', arithmetic('$subtract', ys[hi], ys[lo]), run);
    return numericResult(millis === undefined ? rate : arithmetic('$multiply', rate, millis));
  });
};

/** Adds doubles as mongod's DoubleDoubleSummation does (a compensated sum), read back as one double. */
class CompensatedSum {
  private sum = 0;
  private compensation = 0;

  add(value: number): void {
    const total = this.sum + value;
    // Neumaier's step: the low-order part the addition lost.
    if (Math.abs(this.sum) >= Math.abs(value)) this.compensation += this.sum - total + value;
    else this.compensation += value - total + this.sum;
    this.sum = total;
  }

  get value(): number {
    return this.sum + this.compensation;
  }
}

const integral: WindowFunction = ({ partition, args, sortValues, endpoints, options }) => {
  const spec = argsOf(args);
  const millis = unitMillis(spec.unit);
  const ys = valuesOf(partition, spec.input, options);
  const xs = sortValues();
  partition.forEach((_, i) => {
    const [x, y] = [xs[i], ys[i]];
    if (!isBsonNumber(y) || !(isBsonNumber(x) || x instanceof Date)) {
      throw new CommandError(
        'Location5423900',
        'The input value of $integral window function must be a vector of 2 value, the first value must be numeric or date type and the second must be numeric.',
      );
    }
    if (millis !== undefined && !(x instanceof Date)) {
      throw new CommandError('Location5423901', "$integral with 'outputUnit' expects the sortBy field to be a Date");
    }
    if (millis === undefined && !isBsonNumber(x)) {
      throw new CommandError(
        'Location5423902',
        "$integral (with no 'outputUnit') expects the sortBy field to be numeric",
      );
    }
  });
  /** The trapezoid between documents `k - 1` and `k`; NaN on either side adds nothing. */
  const trapezoid = (k: number): unknown => {
    const [x1, y1, x2, y2] = [xs[k - 1], ys[k - 1], xs[k], ys[k]];
    if ([x1, y1, x2, y2].some(isNaNNumber)) return 0;
    const delta = arithmetic('$subtract', asNumber(x2), asNumber(x1));
    return arithmetic('$divide', arithmetic('$multiply', arithmetic('$add', y2, y1), delta), 2);
  };
  return partition.map((_, i) => {
    const window = endpoints(i);
    if (window === undefined) return null;
    const [lo, hi] = window;
    if (ys.slice(lo, hi + 1).some(isNaNNumber) || xs.slice(lo, hi + 1).some(isNaNNumber)) return NaN;
    const areas: unknown[] = [];
    for (let k = lo + 1; k <= hi; k++) areas.push(trapezoid(k));
    let total: unknown;
    if (areas.some((area) => numericType(area) === 'decimal')) {
      total = areas.reduce((sum, area) => arithmetic('$add', sum, area), 0);
    } else if (areas.length === 0) {
      // mongod's sum of nothing is the integer 0.
      total = 0;
    } else {
      const sum = new CompensatedSum();
      for (const area of areas) sum.add(toDouble(area));
      total = sum.value;
    }
    if (millis !== undefined) total = arithmetic('$divide', total, millis);
    return areas.length === 0 && millis === undefined ? total : numericResult(total);
  });
};

/** The window functions by name. */
export const WINDOW_FUNCTIONS: Readonly<Record<string, WindowFunction>> = {
  $rank: ranks(false),
  $denseRank: ranks(true),
  $documentNumber: documentNumber,
  $shift: shift,
  $locf: locf,
  $linearFill: linearFill,
  $expMovingAvg: expMovingAvg,
  $derivative: derivative,
  $integral: integral,
};

/** The window functions that read the `sortBy` values (a one-field `sortBy`). */
export const SORT_READING_FUNCTIONS: ReadonlySet<string> = new Set([
  '$rank',
  '$denseRank',
  '$linearFill',
  '$derivative',
  '$integral',
]);
