/**
 * The set expressions as mongod evaluates them (expression.cpp):
 * `$setUnion`, `$setIntersection` and `$setDifference` answer null for a
 * null or missing operand, `$setEquals` and `$setIsSubset` refuse one; each
 * names an operand that is no array by mongod's code. Values are the same
 * when mongod's comparison (under the collation) finds them equal, so `1`
 * and `1.0` are one value. mongod builds `$setUnion`'s and
 * `$setIntersection`'s result from an ordered set: it comes out sorted, each
 * value as it was first met; `$setDifference` keeps its first operand's
 * order. mingo answered BadValue and, for null, failed.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { compareBson } from '../bson/bson-compare.js';
import { CommandError, type ErrorCodeName } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { evaluatedOperands, isNullish } from './operand-lists.js';
import { OperationBudget } from './operation-budget.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/** {@link compareBson}, ticking the command's clock: maxTimeMS interrupts a long sort. */
function ticking(a: unknown, b: unknown): number {
  OperationBudget.tick();
  return compareBson(a, b);
}

/** `values` sorted, each value once (the first met among equal ones, as a set keeps it). */
function sortedSet(values: readonly unknown[]): unknown[] {
  // Array.prototype.sort is stable: of equal values, the first met comes first.
  const sorted = [...values].sort(ticking);
  return sorted.filter((value, i) => i === 0 || compareBson(sorted[i - 1], value) !== 0);
}

/** Whether `set` (from {@link sortedSet}) holds a value equal to `value`: a binary search. */
function setHas(set: readonly unknown[], value: unknown): boolean {
  let low = 0;
  let high = set.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareBson(set[middle], value);
    if (order === 0) return true;
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return false;
}

/** `operand` as an array, or mongod's `code` naming its type after `prefix`. */
function arrayOperand(operand: unknown, code: ErrorCodeName, prefix: string): unknown[] {
  if (!Array.isArray(operand)) throw new CommandError(code, `${prefix}${typeAlias(operand)}`);
  return operand;
}

function setUnion(obj: unknown, expr: unknown, options: Options): unknown {
  const values: unknown[] = [];
  for (const operand of evaluatedOperands(obj, expr, options)) {
    if (isNullish(operand)) return null;
    const array = arrayOperand(
      operand,
      'Location17043',
      'All operands of $setUnion must be arrays. One argument is of type: ',
    );
    for (const value of array) values.push(value);
  }
  return sortedSet(values);
}

function setIntersection(obj: unknown, expr: unknown, options: Options): unknown {
  let current: unknown[] = [];
  let first = true;
  for (const operand of evaluatedOperands(obj, expr, options)) {
    if (isNullish(operand)) return null;
    const array = arrayOperand(
      operand,
      'Location17047',
      'All operands of $setIntersection must be arrays. One argument is of type: ',
    );
    if (first) {
      current = sortedSet(array);
      first = false;
    } else if (current.length > 0) {
      // As mongod: the smaller set is kept, filtered by the larger (whose equal values are not the ones kept).
      const next = sortedSet(array);
      const [kept, other] = current.length > next.length ? [next, current] : [current, next];
      current = kept.filter((value) => setHas(other, value));
    }
  }
  return current;
}

function setDifference(obj: unknown, expr: unknown, options: Options): unknown {
  const [lhs, rhs] = evaluatedOperands(obj, expr, options);
  if (isNullish(lhs) || isNullish(rhs)) return null;
  const first = arrayOperand(
    lhs,
    'Location17048',
    'both operands of $setDifference must be arrays. First argument is of type: ',
  );
  const excluded = sortedSet(
    arrayOperand(rhs, 'Location17049', 'both operands of $setDifference must be arrays. Second argument is of type: '),
  );
  // Each value of the first operand once, at its first place: the first of a stable sort's run of equals.
  const order = first.map((_, i) => i).sort((i, j) => ticking(first[i], first[j]));
  const repeated = new Set(order.filter((i, k) => k > 0 && compareBson(first[order[k - 1]!], first[i]) === 0));
  return first.filter((value, i) => !repeated.has(i) && !setHas(excluded, value));
}

/** Whether two sets (from {@link sortedSet}) hold the same values. */
function sameSet(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => compareBson(value, b[i]) === 0);
}

/** `$setEquals`: operands checked and compared with the first in order, stopping at the first that differs. */
function setEquals(obj: unknown, expr: unknown, options: Options): unknown {
  const operands = Array.isArray(expr) ? expr : [expr];
  const operand = (i: number): unknown[] =>
    sortedSet(
      arrayOperand(
        evalExpr(obj, operands[i], options),
        'Location17044',
        `All operands of $setEquals must be arrays. ${i + 1}-th argument is of type: `,
      ),
    );
  const first = operand(0);
  for (let i = 1; i < operands.length; i++) {
    if (!sameSet(first, operand(i))) return false;
  }
  return true;
}

/** `$setIsSubset`: whether every value of the first operand is in the second. */
function setIsSubset(obj: unknown, expr: unknown, options: Options): unknown {
  const [lhs, rhs] = evaluatedOperands(obj, expr, options);
  const subset = arrayOperand(
    lhs,
    'Location17046',
    'both operands of $setIsSubset must be arrays. First argument is of type: ',
  );
  const superset = sortedSet(
    arrayOperand(rhs, 'Location17042', 'both operands of $setIsSubset must be arrays. Second argument is of type: '),
  );
  return subset.every((value) => setHas(superset, value));
}

/** The set expressions, as mongod evaluates them. */
export const SET_OPERATORS: Readonly<Record<string, ExpressionOperator>> = {
  $setUnion: setUnion,
  $setIntersection: setIntersection,
  $setDifference: setDifference,
  $setEquals: setEquals,
  $setIsSubset: setIsSubset,
};
