/**
 * The array expressions that take an array's elements as they are, as
 * mongod evaluates them (expression.cpp): `$concatArrays`, `$reverseArray`,
 * `$size`, `$in`, `$zip` and `$objectToArray` (which makes one). Each names
 * an operand of the wrong type by mongod's code and message, where mingo
 * answered BadValue.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { bsonEquals } from '../bson/bson-compare.js';
import { formatValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { evaluatedOperands, isNullish } from './operand-lists.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/** The one operand of an operator of one argument, given alone or as a list of one. */
function oneOperand(obj: unknown, expr: unknown, options: Options): unknown {
  return evalExpr(obj, Array.isArray(expr) && expr.length === 1 ? expr[0] : expr, options);
}

/**
 * `$concatArrays` checking its operands in order as mongod does (null at
 * the first null or missing one, 28664 at the first that is no array), then
 * `concat` (the server's, which refuses a result past the memory limit).
 */
function concatArrays(concat: ExpressionOperator): ExpressionOperator {
  return (obj, expr, options) => {
    const operands = evaluatedOperands(obj, expr, options);
    for (const operand of operands) {
      if (isNullish(operand)) return null;
      if (!Array.isArray(operand)) {
        throw new CommandError('Location28664', `$concatArrays only supports arrays, not ${typeAlias(operand)}`);
      }
    }
    // As literals: `concat` would evaluate a "$…" string among the values again.
    return concat(
      obj,
      operands.map((value) => ({ $literal: value })),
      options,
    );
  };
}

function reverseArray(obj: unknown, expr: unknown, options: Options): unknown {
  const input = oneOperand(obj, expr, options);
  if (isNullish(input)) return null;
  if (!Array.isArray(input)) {
    throw new CommandError(
      'Location34435',
      `The argument to $reverseArray must be an array, but was of type: ${typeAlias(input)}`,
    );
  }
  return [...input].reverse();
}

/** `$size`: an int; null and missing are refused like any other non-array. */
function size(obj: unknown, expr: unknown, options: Options): unknown {
  const input = oneOperand(obj, expr, options);
  if (!Array.isArray(input)) {
    throw new CommandError(
      'Location17124',
      `The argument to $size must be an array, but was of type: ${typeAlias(input)}`,
    );
  }
  return input.length;
}

/** `$in`: whether the array holds a value equal to the first operand (no regex match, no match into an array). */
function inArray(obj: unknown, expr: unknown, options: Options): unknown {
  const [value, array] = evaluatedOperands(obj, expr, options);
  if (!Array.isArray(array)) {
    throw new CommandError('Location40081', `$in requires an array as a second argument, found: ${typeAlias(array)}`);
  }
  return array.some((element) => bsonEquals(element, value));
}

/** `$objectToArray`: the document's fields in order as `{k, v}` documents; null for null or missing. */
function objectToArray(obj: unknown, expr: unknown, options: Options): unknown {
  const input = oneOperand(obj, expr, options);
  if (isNullish(input)) return null;
  if (typeAlias(input) !== 'object') {
    throw new CommandError('Location40390', `$objectToArray requires a document input, found: ${typeAlias(input)}`);
  }
  return Object.entries(input as Document).map(([k, v]) => ({ k, v: v as unknown }));
}

/**
 * `$zip` of arguments its parse checks passed (array-arguments.ts): null at
 * the first null or missing input, 34468 at the first that is no array; the
 * defaults are evaluated only when the inputs' lengths differ, as mongod
 * does.
 */
function zip(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const inputs: unknown[] = [];
  for (const input of spec.inputs as unknown[]) {
    const value: unknown = evalExpr(obj, input, options);
    if (isNullish(value)) return null;
    if (!Array.isArray(value)) {
      throw new CommandError('Location34468', `$zip found a non-array expression in input: ${formatValue(value)}`);
    }
    inputs.push(value);
  }
  const lengths = (inputs as unknown[][]).map((input) => input.length);
  // Loops, not Math.min(...lengths): as arguments, a huge list of inputs would overflow the stack.
  let shortest = Number.POSITIVE_INFINITY;
  let longest = Number.NEGATIVE_INFINITY;
  for (const length of lengths) {
    shortest = Math.min(shortest, length);
    longest = Math.max(longest, length);
  }
  const defaults: unknown[] = inputs.map(() => null);
  if (shortest !== longest && Array.isArray(spec.defaults)) {
    (spec.defaults as unknown[]).forEach((value, i) => {
      defaults[i] = evalExpr(obj, value, options);
    });
  }
  const rows = spec.useLongestLength === true ? longest : shortest;
  const out: unknown[][] = [];
  for (let row = 0; row < rows; row++) {
    out.push((inputs as unknown[][]).map((input, column) => (row < input.length ? input[row] : defaults[column])));
  }
  return out;
}

/**
 * `$concatArrays`, `$reverseArray`, `$size`, `$in`, `$zip` and
 * `$objectToArray`; `operators` is the stack they go over, whose
 * `$concatArrays` joins the arrays once they are checked.
 */
export function arrayElementOperators(
  operators: Record<string, ExpressionOperator>,
): Record<string, ExpressionOperator> {
  const out: Record<string, ExpressionOperator> = {
    $reverseArray: reverseArray,
    $size: size,
    $in: inArray,
    $zip: zip,
    $objectToArray: objectToArray,
  };
  const concat = operators.$concatArrays;
  if (concat) out.$concatArrays = concatArrays(concat);
  return out;
}
