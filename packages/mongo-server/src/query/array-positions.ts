/**
 * The array expressions whose arguments are int32 positions, counts or
 * bounds, as mongod evaluates them (expression.cpp): `$arrayElemAt`,
 * `$first`, `$last`, `$slice`, `$indexOfArray` and `$range`. mongod takes a
 * number of any type there when its value is a whole int32
 * (`Value::integral()`: `2.0`, `NumberLong(2)`, `NumberDecimal("2.0")`), and
 * names each wrong argument by its own code; mingo answered BadValue, read
 * an index past int32 as an index and found a value before an
 * `$indexOfArray` start past the array's end.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { bsonEquals, toExactNumber } from '../bson/bson-compare.js';
import { VALUE_BYTES } from '../bson/approximate-size.js';
import { formatValue } from '../bson/format-key-value.js';
import { INT32_MAX, INT32_MIN } from '../bson/int32.js';
import { CommandError, type ErrorCodeName } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { numericType, toDouble } from './numeric-types.js';
import { evaluatedOperands, isNullish } from './operand-lists.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/**
 * The int32 a number's value is, as mongod's `Value::integral()` accepts it
 * (any numeric type, a whole value in int32 range); undefined otherwise.
 */
export function wholeInt32(value: unknown): number | undefined {
  if (numericType(value) === undefined) return undefined;
  const exact = toExactNumber(value);
  if (exact.kind !== 'finite' || exact.num % exact.den !== 0n) return undefined;
  const whole = exact.num / exact.den;
  return whole >= BigInt(INT32_MIN) && whole <= BigInt(INT32_MAX) ? Number(whole) : undefined;
}

/** A number as mongod streams its `coerceToDouble()` into a message: `1.5`, `4.29497e+09`. */
const asDouble = (value: unknown): string => formatValue(toDouble(value));

/** mongod's arrayElemAt helper, which `$first` and `$last` share: null for null, nothing past either end. */
function elementAt(name: string, arity: number, array: unknown, index: unknown): unknown {
  if (isNullish(array) || isNullish(index)) return null;
  if (!Array.isArray(array)) {
    const which = arity === 1 ? 'argument' : 'first argument';
    throw new CommandError('Location28689', `${name}'s ${which} must be an array, but is ${typeAlias(array)}`);
  }
  if (numericType(index) === undefined) {
    throw new CommandError(
      'Location28690',
      `${name}'s second argument must be a numeric value, but is ${typeAlias(index)}`,
    );
  }
  const i = wholeInt32(index);
  if (i === undefined) {
    throw new CommandError(
      'Location28691',
      `${name}'s second argument must be representable as a 32-bit integer: ${asDouble(index)}`,
    );
  }
  // Out of range either way is missing, not null.
  return i < 0 ? array[array.length + i] : array[i];
}

function arrayElemAt(obj: unknown, expr: unknown, options: Options): unknown {
  const [array, index] = evaluatedOperands(obj, expr, options);
  return elementAt('$arrayElemAt', 2, array, index);
}

/** `$first`/`$last` of an array: its end element, nothing for an empty array, null for null or missing. */
function end(name: '$first' | '$last'): ExpressionOperator {
  return (obj, expr, options) => {
    const operand = Array.isArray(expr) && expr.length === 1 ? expr[0] : expr;
    return elementAt(name, 1, evalExpr(obj, operand, options), name === '$first' ? 0 : -1);
  };
}

/** A `$slice` count or position: a number that is a whole int32, with mongod's codes for what is not. */
function sliceArgument(value: unknown, which: 'Second' | 'Third', codes: [ErrorCodeName, ErrorCodeName]): number {
  if (numericType(value) === undefined) {
    const must = which === 'Second' ? 'must be a numeric value' : 'must be numeric';
    throw new CommandError(codes[0], `${which} argument to $slice ${must}, but is of type: ${typeAlias(value)}`);
  }
  const n = wholeInt32(value);
  if (n === undefined) {
    throw new CommandError(
      codes[1],
      `${which} argument to $slice can't be represented as a 32-bit integer: ${asDouble(value)}`,
    );
  }
  return n;
}

/** `$slice` (null for a null argument, mongod's 28724–28729). */
function slice(obj: unknown, expr: unknown, options: Options): unknown {
  const [array, second, third] = evaluatedOperands(obj, expr, options);
  const args = Array.isArray(expr) ? expr.length : 1;
  if (isNullish(array) || isNullish(second)) return null;
  if (!Array.isArray(array)) {
    throw new CommandError(
      'Location28724',
      `First argument to $slice must be an array, but is of type: ${typeAlias(array)}`,
    );
  }
  const first = sliceArgument(second, 'Second', ['Location28725', 'Location28726']);
  if (args === 2) return first >= 0 ? array.slice(0, first) : array.slice(Math.max(0, array.length + first));
  if (isNullish(third)) return null;
  const count = sliceArgument(third, 'Third', ['Location28727', 'Location28728']);
  if (count <= 0) throw new CommandError('Location28729', `Third argument to $slice must be positive: ${count}`);
  const start = first >= 0 ? Math.min(first, array.length) : Math.max(0, array.length + first);
  return array.slice(start, start + count);
}

/** An `$indexOfArray` bound: a whole, nonnegative int32 (mongod's uassertIfNotIntegralAndNonNegative). */
function indexBound(value: unknown, which: 'starting index' | 'ending index'): number {
  const n = wholeInt32(value);
  if (n === undefined) {
    // mongod's message has no space after the operator's name.
    throw new CommandError(
      'Location40096',
      `$indexOfArrayrequires an integral ${which}, found a value of type: ${typeAlias(value)}, with value: ${formatValue(value)}`,
    );
  }
  if (n < 0) {
    throw new CommandError(
      'Location40097',
      `$indexOfArray requires a nonnegative ${which}, found: ${formatValue(value)}`,
    );
  }
  return n;
}

/**
 * `$indexOfArray`: the first position in [start, end) holding a value equal
 * (as mongod compares values, under the collation) to the searched one; -1.
 * The array is read first, then the bounds, then the searched value.
 */
function indexOfArray(obj: unknown, expr: unknown, options: Options): unknown {
  const operands = expr as unknown[];
  const array: unknown = evalExpr(obj, operands[0], options);
  if (isNullish(array)) return null;
  if (!Array.isArray(array)) {
    throw new CommandError(
      'Location40090',
      `$indexOfArray requires an array as a first argument, found: ${typeAlias(array)}`,
    );
  }
  const start = operands.length > 2 ? indexBound(evalExpr(obj, operands[2], options), 'starting index') : 0;
  const stop =
    operands.length > 3
      ? Math.min(array.length, indexBound(evalExpr(obj, operands[3], options), 'ending index'))
      : array.length;
  const target: unknown = evalExpr(obj, operands[1], options);
  for (let i = start; i < stop; i++) {
    if (bsonEquals(array[i], target)) return i;
  }
  return -1;
}

/** mongod's `internalQueryMaxRangeBytes`, the memory `$range` may use. */
const RANGE_MEMORY_LIMIT = 100 * 1024 * 1024;
/** What mongod counts for the vector `$range` builds (`sizeof(std::vector<Value>)`). */
const VECTOR_BYTES = 24;

/** A `$range` bound or step: numeric, then a whole int32. */
function rangeArgument(value: unknown, what: 'starting' | 'ending' | 'step', codes: [ErrorCodeName, ErrorCodeName]) {
  const article = what === 'ending' ? 'an' : 'a';
  if (numericType(value) === undefined) {
    // mongod's step message has no space after the colon.
    const found = what === 'step' ? 'found value of type:' : 'found value of type: ';
    throw new CommandError(codes[0], `$range requires a numeric ${what} value, ${found}${typeAlias(value)}`);
  }
  const n = wholeInt32(value);
  if (n === undefined) {
    throw new CommandError(
      codes[1],
      `$range requires ${article} ${what} value that can be represented as a 32-bit integer, found value: ${formatValue(value)}`,
    );
  }
  return n;
}

/** `$range`: int32s from start towards end by step, refused past mongod's memory limit before it is built. */
function range(obj: unknown, expr: unknown, options: Options): unknown {
  const [startValue, endValue, stepValue] = evaluatedOperands(obj, expr, options);
  const start = rangeArgument(startValue, 'starting', ['Location34443', 'Location34444']);
  const stop = rangeArgument(endValue, 'ending', ['Location34445', 'Location34446']);
  let step = 1;
  if (Array.isArray(expr) && expr.length === 3) {
    step = rangeArgument(stepValue, 'step', ['Location34447', 'Location34448']);
    if (step === 0) throw new CommandError('Location34449', '$range requires a non-zero step value');
  }
  // mongod's estimate: one value more than the steps, each the size of the start value.
  const steps = Math.trunc((stop - start) / step);
  const bytes = VECTOR_BYTES + (steps >= 0 ? 1 + steps : 0) * VALUE_BYTES;
  if (bytes >= RANGE_MEMORY_LIMIT) {
    throw new CommandError(
      'ExceededMemoryLimit',
      `$range would use too much memory (${bytes} bytes) and cannot spill to disk. Memory limit: ${RANGE_MEMORY_LIMIT} bytes`,
    );
  }
  const out: number[] = [];
  for (let current = start; step > 0 ? current < stop : current > stop; current += step) out.push(current);
  return out;
}

/** `$arrayElemAt`, `$first`, `$last`, `$slice`, `$indexOfArray` and `$range`, as mongod evaluates them. */
export const POSITION_OPERATORS: Readonly<Record<string, ExpressionOperator>> = {
  $arrayElemAt: arrayElemAt,
  $first: end('$first'),
  $last: end('$last'),
  $slice: slice,
  $indexOfArray: indexOfArray,
  $range: range,
};
