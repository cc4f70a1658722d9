/**
 * The array expressions that run an expression per element with a variable
 * bound to it, as mongod evaluates them (expression.cpp): `$map`, `$filter`
 * (with its `limit`) and `$reduce`. Their arguments were checked while
 * parsing (array-arguments.ts). Over mingo's: mongod's codes for an input
 * that is no array (16883, 28651, 40080), `$filter`'s `limit` evaluated as
 * an expression, and `as: 'CURRENT'`, which makes each element the document
 * that `$field` paths read (mingo kept reading the root).
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { formatValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import type { ComputeOptions } from './aggregation-paths.js';
import { wholeInt32 } from './array-positions.js';
import { typeAlias } from './element-operators.js';
import { isNullish } from './operand-lists.js';
import { isTrue } from './truthiness.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

interface ComputeOptionsClass {
  init(options: Options): ComputeOptions;
}

/**
 * The variable an element is bound to when `as` is `CURRENT` (no user can
 * name one so: user variables start with a lower-case letter), from which a
 * `$let` rebinds `CURRENT` (mongod-expressions.ts does that rebinding).
 */
const ELEMENT_VARIABLE = '__element';

/**
 * A scope inside `options` (mingo's ComputeOptions, which it does not
 * export, copied with the variables and root in scope) that `bind` gives a
 * variable's value in, for the next evaluation.
 */
function innerScope(options: Options): (name: string, value: unknown) => Options {
  const compute = options as unknown as ComputeOptions;
  const scope = (compute.constructor as unknown as ComputeOptionsClass).init(options);
  return (name, value) => scope.update({ variables: { [name]: value } }) as unknown as Options;
}

/**
 * The variable `as` names (by default `this`) and the expression to run per
 * element: for `CURRENT`, `expr` under a `$let` rebinding `CURRENT` to the
 * element.
 */
function perElement(as: unknown, expr: unknown): [string, unknown] {
  if (as !== 'CURRENT') return [typeof as === 'string' ? as : 'this', expr];
  return [ELEMENT_VARIABLE, { $let: { vars: { CURRENT: `$$${ELEMENT_VARIABLE}` }, in: expr } }];
}

/** `$map`: `in` per element of `input`, a missing result made null; null for null or missing. */
function map(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const input: unknown = evalExpr(obj, spec.input, options);
  if (isNullish(input)) return null;
  if (!Array.isArray(input)) {
    throw new CommandError('Location16883', `input to $map must be an array not ${typeAlias(input)}`);
  }
  if (input.length === 0) return input;
  const [name, each] = perElement(spec.as, spec.in);
  const bind = innerScope(options);
  return input.map((element: unknown) => {
    const value: unknown = evalExpr(obj, each, bind(name, element));
    return value === undefined ? null : value;
  });
}

/** `$filter`'s `limit`, evaluated outside the elements' scope: a positive int32, or none for null or missing. */
function filterLimit(obj: unknown, spec: Document, options: Options): number {
  if (!Object.hasOwn(spec, 'limit')) return Number.POSITIVE_INFINITY;
  const value: unknown = evalExpr(obj, spec.limit, options);
  if (isNullish(value)) return Number.POSITIVE_INFINITY;
  const limit = wholeInt32(value);
  if (limit === undefined) {
    throw new CommandError(
      'Location327391',
      `$filter: limit must be represented as a 32-bit integral value: ${formatValue(value)}`,
    );
  }
  if (limit <= 0)
    throw new CommandError('Location327392', `$filter: limit must be greater than 0: ${formatValue(value)}`);
  return limit;
}

/** `$filter`: the elements of `input` for which `cond` is true, at most `limit`; null for null or missing. */
function filter(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const input: unknown = evalExpr(obj, spec.input, options);
  if (isNullish(input)) return null;
  if (!Array.isArray(input)) {
    throw new CommandError('Location28651', `input to $filter must be an array not ${typeAlias(input)}`);
  }
  if (input.length === 0) return input;
  const limit = filterLimit(obj, spec, options);
  const [name, cond] = perElement(spec.as, spec.cond);
  const bind = innerScope(options);
  const out: unknown[] = [];
  for (const element of input as unknown[]) {
    if (isTrue(evalExpr(obj, cond, bind(name, element)))) {
      out.push(element);
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** `$reduce`: `in` per element with `$$this` and `$$value`, from `initialValue`; null for a null or missing input. */
function reduce(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const input: unknown = evalExpr(obj, spec.input, options);
  if (isNullish(input)) return null;
  if (!Array.isArray(input)) {
    throw new CommandError('Location40080', `$reduce requires that 'input' be an array, found: ${formatValue(input)}`);
  }
  let value: unknown = evalExpr(obj, spec.initialValue, options);
  const bind = innerScope(options);
  for (const element of input as unknown[]) {
    bind('this', element);
    value = evalExpr(obj, spec.in, bind('value', value));
  }
  return value;
}

/** `$map`, `$filter` and `$reduce`, as mongod evaluates them. */
export const ITERATION_OPERATORS: Readonly<Record<string, ExpressionOperator>> = {
  $map: map,
  $filter: filter,
  $reduce: reduce,
};
