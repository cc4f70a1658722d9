/**
 * mongod's truth of a value where an expression asks for one (`$cond`'s
 * `if`, `$and`, `$or`, `$not`, `$switch`'s cases, `$filter`'s `cond`,
 * `$allElementsTrue`, `$anyElementTrue`, a filter's `$expr`): false for
 * false, null, missing, undefined and a zero of any numeric type, true for
 * anything else ("" and [] included). mingo took JavaScript's truth, under
 * which the server's integral double marker (`0.0`) and a Decimal128 zero,
 * being objects, were true.
 *
 * mingo decides those conditions itself, so each condition is handed to it
 * wrapped in an operator of the server's own, {@link TRUTH_OPERATOR}, that
 * answers a real boolean.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { numericType, toDouble } from './numeric-types.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/** The operator a condition is wrapped in; the parse checks refuse it from a client (expression-check.ts). */
export const TRUTH_OPERATOR = '$__isTrue';

/** Whether mongod takes `value` as true (Value::coerceToBool). */
export function isTrue(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  switch (numericType(value)) {
    case 'int':
    case 'double':
      // NaN is true: it is not zero.
      return toDouble(value) !== 0;
    case 'long':
      return value !== 0n;
    case 'decimal':
      return !/^-?0(E[-+]\d+)?$/i.test(String(value).replace(/\.0*(?=E|$)/i, ''));
  }
  return typeAlias(value) !== 'undefined';
}

const WRAPPED = new WeakMap<object, unknown>();

const truth = (expr: unknown): Document => ({ [TRUTH_OPERATOR]: expr });

/** `expr` (an operator's arguments) with its conditions wrapped by `wrap`, once per arguments object. */
function cached(expr: unknown, wrap: (expr: unknown) => unknown): unknown {
  if (expr === null || typeof expr !== 'object') return wrap(expr);
  let wrapped = WRAPPED.get(expr);
  if (wrapped === undefined) {
    wrapped = wrap(expr);
    WRAPPED.set(expr, wrapped);
  }
  return wrapped;
}

const eachOperand = (expr: unknown) => (Array.isArray(expr) ? expr.map(truth) : truth(expr));

const fields = (expr: unknown): Document | undefined => (typeAlias(expr) === 'object' ? (expr as Document) : undefined);

/** Where each operator holds its conditions. */
const CONDITIONS: Readonly<Record<string, (expr: unknown) => unknown>> = {
  $and: eachOperand,
  $or: eachOperand,
  $not: eachOperand,
  $cond: (expr) => {
    if (Array.isArray(expr)) return expr.map((item, i) => (i === 0 ? truth(item) : item));
    const spec = fields(expr);
    return spec && 'if' in spec ? { ...spec, if: truth(spec.if) } : expr;
  },
  $switch: (expr) => {
    const spec = fields(expr);
    if (!spec || !Array.isArray(spec.branches)) return expr;
    const branches = (spec.branches as unknown[]).map((branch) => {
      const b = fields(branch);
      return b && 'case' in b ? { ...b, case: truth(b.case) } : branch;
    });
    return { ...spec, branches };
  },
  $filter: (expr) => {
    const spec = fields(expr);
    return spec && 'cond' in spec ? { ...spec, cond: truth(spec.cond) } : expr;
  },
};

/** `$allElementsTrue`/`$anyElementTrue` of their one array operand, mongod's 17040/17041 otherwise. */
function elementsTrue(name: '$allElementsTrue' | '$anyElementTrue', code: 'Location17040' | 'Location17041') {
  return (obj: unknown, expr: unknown, options: Options): boolean => {
    const operand = Array.isArray(expr) && expr.length === 1 ? expr[0] : expr;
    const array: unknown = evalExpr(obj, operand, options);
    if (!Array.isArray(array)) {
      throw new CommandError(code, `${name}'s argument must be an array, but is ${typeAlias(array)}`);
    }
    return name === '$allElementsTrue' ? array.every(isTrue) : array.some(isTrue);
  };
}

/** `operators` deciding their conditions by mongod's truth, and {@link TRUTH_OPERATOR} itself. */
export function truthOperators(operators: Record<string, ExpressionOperator>): Record<string, ExpressionOperator> {
  const out: Record<string, ExpressionOperator> = {
    ...operators,
    [TRUTH_OPERATOR]: (obj, expr, options) => isTrue(evalExpr(obj, expr, options)),
    $allElementsTrue: elementsTrue('$allElementsTrue', 'Location17040'),
    $anyElementTrue: elementsTrue('$anyElementTrue', 'Location17041'),
  };
  for (const [name, wrap] of Object.entries(CONDITIONS)) {
    const operator = operators[name];
    if (operator) out[name] = (obj, expr, options) => operator(obj, cached(expr, wrap), options);
  }
  return out;
}

/** A filter's `$expr` value made a condition mongod's truth decides. */
export function exprCondition(expr: unknown): unknown {
  return cached(expr, truth);
}
