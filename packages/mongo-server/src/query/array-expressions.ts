/**
 * Array expressions whose null handling and errors mingo answered
 * otherwise: `$slice` (null for a null argument, mongod's 28724–28729),
 * `$first`/`$last` (nothing for an empty array, null for null), and the set
 * operators that answer null for a null or missing operand (`$setUnion`,
 * `$setIntersection`, `$setDifference`), where mingo failed.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { numericType, toDouble } from './numeric-types.js';
import { evaluatedOperands, isNullish } from './operand-lists.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/** A `$slice` count or position: a number that is a whole int32, with mongod's codes for what is not. */
function int32Argument(value: unknown, which: 'Second' | 'Third', codes: [`Location${number}`, `Location${number}`]) {
  if (numericType(value) === undefined) {
    const must = which === 'Second' ? 'must be a numeric value' : 'must be numeric';
    throw new CommandError(codes[0], `${which} argument to $slice ${must}, but is of type: ${typeAlias(value)}`);
  }
  const n = toDouble(value);
  if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) {
    throw new CommandError(
      codes[1],
      `${which} argument to $slice can't be represented as a 32-bit integer: ${String(n)}`,
    );
  }
  return n;
}

function slice(obj: unknown, expr: unknown, options: Options): unknown {
  const [array, second, third] = evaluatedOperands(obj, expr, options);
  const args = Array.isArray(expr) ? expr.length : 1;
  if (isNullish(array) || isNullish(second) || (args > 2 && isNullish(third))) return null;
  if (!Array.isArray(array)) {
    throw new CommandError(
      'Location28724',
      `First argument to $slice must be an array, but is of type: ${typeAlias(array)}`,
    );
  }
  const first = int32Argument(second, 'Second', ['Location28725', 'Location28726']);
  if (args === 2) return first >= 0 ? array.slice(0, first) : array.slice(Math.max(0, array.length + first));
  const count = int32Argument(third, 'Third', ['Location28727', 'Location28728']);
  if (count <= 0) throw new CommandError('Location28729', `Third argument to $slice must be positive: ${count}`);
  const start = first >= 0 ? Math.min(first, array.length) : Math.max(0, array.length + first);
  return array.slice(start, start + count);
}

/** `$first`/`$last` of an array: its end element, nothing for an empty array, null for null or missing. */
function end(name: '$first' | '$last'): ExpressionOperator {
  return (obj, expr, options) => {
    const operand = Array.isArray(expr) && expr.length === 1 ? expr[0] : expr;
    const array: unknown = evalExpr(obj, operand, options);
    if (isNullish(array)) return null;
    if (!Array.isArray(array)) {
      // mongod reads them through $arrayElemAt's helper, whose code this is.
      throw new CommandError('Location28689', `${name}'s argument must be an array, but is ${typeAlias(array)}`);
    }
    return name === '$first' ? array[0] : array[array.length - 1];
  };
}

/** A set operator answering null when an operand is null or missing, as mongod does, mingo's otherwise. */
function nullForNullish(operator: ExpressionOperator): ExpressionOperator {
  return (obj, expr, options) => {
    const operands = evaluatedOperands(obj, expr, options);
    if (operands.some(isNullish)) return null;
    // As literals: mingo would evaluate a "$…" string among the values again.
    return operator(
      obj,
      operands.map((value) => ({ $literal: value })),
      options,
    );
  };
}

/** `$slice`, `$first`, `$last` and the null-answering set operators, over mingo's `operators`. */
export function arrayExpressionOperators(
  operators: Record<string, ExpressionOperator>,
): Record<string, ExpressionOperator> {
  const out: Record<string, ExpressionOperator> = {
    ...operators,
    $slice: slice,
    $first: end('$first'),
    $last: end('$last'),
  };
  for (const name of ['$setUnion', '$setIntersection', '$setDifference']) {
    const operator = operators[name];
    if (operator) out[name] = nullForNullish(operator);
  }
  return out;
}
