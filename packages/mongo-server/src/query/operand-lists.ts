import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { typeAlias } from './element-operators.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/**
 * Operators of one operand that mingo reads only bare: mongod reads an
 * operator's operands as a list, so `{ $size: ['$a'] }` is `{ $size: '$a' }`.
 * mingo failed on the list form of most (BadValue) and answered wrongly for
 * `$size` (1), `$reverseArray` (the list reversed) and `$isNumber` (false).
 */
const ONE_OPERAND = [
  ...['$abs', '$acos', '$acosh', '$asin', '$asinh', '$atan', '$atanh', '$cos', '$cosh', '$sin', '$sinh', '$tan'],
  ...['$tanh', '$degreesToRadians', '$radiansToDegrees', '$ceil', '$exp', '$floor', '$ln', '$log10', '$sqrt'],
  ...['$objectToArray', '$reverseArray', '$size', '$strLenBytes', '$strLenCP', '$isNumber', '$toString'],
  ...['$toBool', '$toDate', '$toDecimal', '$toDouble', '$toInt', '$toLong'],
  // The server's own (query-context.ts, mongod-expressions.ts).
  ...['$type', '$toObjectId', '$bsonSize', '$binarySize'],
];

/**
 * Accumulators mongod also runs as expressions (ExpressionFromAccumulator):
 * one operand, bare or in a list of one, that is an array is accumulated
 * element by element, and a list of several is accumulated operand by
 * operand. mingo has no expression of these names and read a list of one as
 * one value (`{ $sum: ['$prices'] }` was 0).
 */
const ACCUMULATOR_EXPRESSIONS = ['$sum', '$avg', '$max', '$min', '$stdDevPop', '$stdDevSamp'];

/**
 * Operators mingo reads only as a list: `{ $round: '$n' }` is `{ $round: ['$n'] }`.
 * The variadic ones too: mongod takes an operand that is not a list as a list of
 * one (`{ $add: '$n' }`, `{ $and: '$$flag' }`), where mingo failed with BadValue.
 */
const LIST_ONLY = [
  ...['$round', '$trunc'],
  ...['$add', '$multiply', '$and', '$or', '$concat', '$concatArrays', '$setUnion', '$setIntersection'],
];

/**
 * `operators` with the operand forms mongod accepts and mingo does not made
 * into the one it does. The number of operands is checked while parsing
 * (pipeline-check.ts), so a list here has the right length.
 */
export function operandListOperators(
  operators: Record<string, ExpressionOperator>,
): Record<string, ExpressionOperator> {
  const out = { ...operators };
  for (const name of ONE_OPERAND) {
    const operator = operators[name];
    if (operator)
      out[name] = (obj, expr, options) =>
        operator(obj, Array.isArray(expr) && expr.length === 1 ? expr[0] : expr, options);
  }
  for (const name of ACCUMULATOR_EXPRESSIONS) {
    out[name] ??= (obj, expr, options) => {
      const accumulator = options.context.getOperator('accumulator' as never, name) as unknown as (
        values: unknown[],
        expr: unknown,
        options: Options,
      ) => unknown;
      // mingo's $group evaluates each accumulator as an expression of its group's documents.
      if (Array.isArray(obj)) return accumulator(obj, expr, options);
      const operand = Array.isArray(expr) && expr.length === 1 ? expr[0] : expr;
      const value: unknown = evalExpr(obj, operand, options);
      return accumulator(Array.isArray(value) ? value : [value], null, options);
    };
  }
  for (const name of LIST_ONLY) {
    const operator = operators[name];
    if (operator) out[name] = (obj, expr, options) => operator(obj, Array.isArray(expr) ? expr : [expr], options);
  }
  return out;
}

/** An operator's operands, evaluated: a list, or one operand given alone. */
export function evaluatedOperands(obj: unknown, expr: unknown, options: Options): unknown[] {
  const value: unknown = evalExpr(obj, expr, options);
  return Array.isArray(expr) ? (value as unknown[]) : [value];
}

/** Whether an operand is null, missing or undefined: what most operators answer null for. */
export function isNullish(value: unknown): boolean {
  return value === null || value === undefined || typeAlias(value) === 'undefined';
}
