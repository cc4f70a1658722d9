import { evalExpr } from 'mingo/core';
import * as expressionOperators from 'mingo/operators/expression';
import { $push, $stdDevPop, $stdDevSamp } from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';

import { decimalAverage, decimalSum, hasDecimal } from './decimal-arithmetic.js';
import { fitsInt64, numericType, storedDouble, toDouble, unwrapNumber } from './numeric-types.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/**
 * Operators that read numbers mingo takes as JS numbers only: a `Double`
 * marker (an integral double, `5.0`) is made the number it is for them. The
 * arithmetic is arithmetic-expressions.ts's, the conversions
 * type-conversions.ts's.
 */
const NUMBER_READING_OPERATORS = [
  ...['$sortArray', '$in', '$indexOfArray', '$arrayElemAt', '$range', '$firstN', '$lastN', '$maxN', '$minN'],
  ...['$substr', '$substrBytes', '$substrCP'],
  ...['$setEquals', '$setIntersection', '$setUnion', '$setDifference', '$setIsSubset'],
  ...['$bitAnd', '$bitOr', '$bitXor', '$bitNot'],
];

function isDouble(value: unknown): boolean {
  return numericType(value) === 'double';
}

/** Operators whose numbers are positions or counts: mongod takes any number that is a whole int32 there. */
const INDEX_OPERATORS = new Set(['$arrayElemAt', '$range', '$substr', '$substrBytes', '$substrCP']);

/** An Int64 or Decimal128 that is a whole int32 as the JS number mingo reads a position as; anything else as is. */
export function asIndex(value: unknown): unknown {
  const type = numericType(value);
  if (type !== 'long' && type !== 'decimal') return value;
  const n = Number(String(value));
  return Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 ? n : value;
}

/** Evaluated operands as the literal expressions mingo expects: an array or an object of them (`$convert`), else one. */
function literals(args: unknown, literal: (value: unknown) => unknown): unknown {
  if (Array.isArray(args)) return args.map(literal);
  if (args !== null && typeof args === 'object' && Object.getPrototypeOf(args) === Object.prototype) {
    return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, literal(value)]));
  }
  return literal(args);
}

/** `value` with `Double` markers made JS numbers, in arrays and documents too (`$in: [5.0, [5]]`). */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    // Defined, not assigned: a key named "__proto__" stays an own field.
    for (const [key, field] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: plain(field), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return unwrapNumber(value);
}

/**
 * mingo's expression operator `name` (one whose operands are values, not
 * sub-expressions to run later as `$map`'s `in`), given its operands as
 * plain JS numbers (it takes a `Double` marker for a non-number).
 */
function numberReading(name: string): ExpressionOperator {
  const operator = (expressionOperators as unknown as Record<string, ExpressionOperator>)[name]!;
  // Each operand as a literal, so mingo does not evaluate the expression a second time.
  const literal = INDEX_OPERATORS.has(name)
    ? (value: unknown) => ({ $literal: plain(asIndex(value)) })
    : (value: unknown) => ({ $literal: plain(value) });
  return (obj, expr, options) => operator(obj, literals(evalExpr(obj, expr, options), literal), options);
}

/** Number-reading expression operators that take a `Double` marker as the number it is. */
export const NUMERIC_EXPRESSION_OPERATORS: Readonly<Record<string, ExpressionOperator>> = Object.fromEntries(
  NUMBER_READING_OPERATORS.map((name) => [name, numberReading(name)]),
);

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/** The numbers among an accumulator's values (its expression per document, or an expression's array). */
function numbers(collection: unknown[], expr: unknown, options: Options): unknown[] {
  const values = ($push as (c: unknown[], e: unknown, o: Options) => unknown[])(collection, expr, options);
  return values.filter((value) => numericType(value) !== undefined);
}

/**
 * `$sum` with MongoDB's result type: int32 while the total fits, then Int64
 * (then double); Int64 when a long is summed; a double as soon as one is (`$sum` of `5.0`
 * is `5.0`); a Decimal128 as soon as one is. Non-numbers are ignored, as in MongoDB.
 */
function sum(collection: unknown[], expr: unknown, options: Options): unknown {
  const values = numbers(collection, expr, options);
  if (hasDecimal(values)) return decimalSum(values);
  if (values.some(isDouble)) return storedDouble(values.reduce<number>((total, v) => total + toDouble(v), 0));
  let total = 0n;
  for (const value of values) total += typeof value === 'bigint' ? value : BigInt(String(value));
  // Past Int64, MongoDB goes on in double.
  if (!fitsInt64(total)) return Number(total);
  const hasLong = values.some((value) => numericType(value) === 'long');
  return hasLong || total < INT32_MIN || total > INT32_MAX ? total : Number(total);
}

/** `$avg`: a double (MongoDB's `$avg` of `[2, 4]` is `3.0`) or, once one is, a Decimal128; null without numbers. */
function avg(collection: unknown[], expr: unknown, options: Options): unknown {
  const values = numbers(collection, expr, options);
  if (hasDecimal(values)) return decimalAverage(values);
  if (values.length === 0) return null;
  return storedDouble(values.reduce<number>((total, v) => total + toDouble(v), 0) / values.length);
}

type AccumulatorOperator = (collection: unknown[], expr: unknown, options: Options) => unknown;

/** mingo's `$stdDevPop`/`$stdDevSamp` over the numbers as doubles (an Int64 or Decimal128 too, as mongod reads them); the answer is a double. */
function standardDeviation(operator: AccumulatorOperator): AccumulatorOperator {
  return (collection, expr, options) => {
    const values = ($push as AccumulatorOperator)(collection, expr, options) as unknown[];
    const numbers = values.filter((value) => numericType(value) !== undefined).map(toDouble);
    const result = operator(numbers, null, options);
    return typeof result === 'number' ? storedDouble(result) : result;
  };
}

/** `$sum`, `$avg`, `$stdDevPop`, `$stdDevSamp` accumulators (and, through mingo's fallback, expressions) with MongoDB's result types. */
export const NUMERIC_ACCUMULATOR_OPERATORS = {
  $sum: sum,
  $avg: avg,
  $stdDevPop: standardDeviation($stdDevPop as AccumulatorOperator),
  $stdDevSamp: standardDeviation($stdDevSamp as AccumulatorOperator),
};
