import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { BSON, Timestamp } from '../bson/bson-library.cjs';
import { CommandError, type ErrorCodeName } from '../commands/command-error.js';
import type { ComputeOptions } from './aggregation-paths.js';
import { DATE_OPERATORS } from './date-expressions.js';
import { typeAlias } from './element-operators.js';
import { toHashedIndexKey } from './hashed-index-key.js';
import { CONVERSION_OPERATORS } from './type-conversions.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/**
 * `$tsSecond` / `$tsIncrement` (MongoDB 5.1): a Timestamp's seconds or increment
 * as an Int64, null for null or missing, mongod's 5687301 / 5687302 otherwise.
 */
function timestampPart(name: '$tsSecond' | '$tsIncrement', code: ErrorCodeName, part: 't' | 'i'): ExpressionOperator {
  return (obj, expr, options) => {
    // One argument, given alone or in a one-element array (the arity is checked while parsing).
    const value: unknown = evalExpr(obj, Array.isArray(expr) ? expr[0] : expr, options);
    if (value === null || value === undefined) return null;
    if (!(value instanceof Timestamp)) {
      throw new CommandError(code, ` Argument to ${name} must be a timestamp, but is ${typeAlias(value)}`);
    }
    // Stored Int64s are bigints (wire/bson-codec.ts).
    return BigInt(value[part]);
  };
}

/** `$bsonSize`: a document's size in bytes as BSON, null for null or missing. */
function bsonSize(obj: unknown, expr: unknown, options: Options): number | null {
  const value = evalExpr(obj, expr, options);
  if (value === null || value === undefined) return null;
  if (typeAlias(value) !== 'object') {
    throw new CommandError('Location31393', `$bsonSize requires a document input, found: ${typeAlias(value)}`);
  }
  return BSON.calculateObjectSize(value as Document);
}

/** `$binarySize`: the bytes of a string (UTF-8) or of binary data, null for null or missing. */
function binarySize(obj: unknown, expr: unknown, options: Options): number | null {
  const value = evalExpr(obj, expr, options);
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeAlias(value) === 'binData') return (value as { length(): number }).length();
  throw new CommandError(
    'Location51276',
    `$binarySize requires a string or BinData argument, found: ${typeAlias(value)}`,
  );
}

/** `$switch` that fails as mongod does (40066) when no branch matches and there is no `default`; mingo answered missing. */
function switchWithoutDefault(original: ExpressionOperator): ExpressionOperator {
  const noMatch: unknown = { $literal: NO_MATCH };
  return (obj, expr, options) => {
    if (typeAlias(expr) !== 'object' || 'default' in (expr as Document)) return original(obj, expr, options);
    const result = original(obj, { ...(expr as Document), default: noMatch }, options);
    if (result === NO_MATCH) {
      throw new CommandError(
        'Location40066',
        '$switch could not find a matching branch for an input, and no default was specified.',
      );
    }
    return result;
  };
}

/** What {@link switchWithoutDefault}'s stand-in default evaluates to: no document can hold it. */
const NO_MATCH = Symbol('no $switch branch matched');

/** The variable `$let` binds the document of `$$ROOT` to when it rebinds `CURRENT` (a name no user may define). */
const ROOT_VARIABLE = '__root';

interface ComputeOptionsClass {
  init(options: ComputeOptions): ComputeOptions;
}

/** `expr` with its `$$ROOT` references (not those in `$literal`) reading {@link ROOT_VARIABLE}. */
function rootAsVariable(expr: unknown): unknown {
  if (typeof expr === 'string') {
    return expr === '$$ROOT' || expr.startsWith('$$ROOT.') ? `$$${ROOT_VARIABLE}${expr.slice('$$ROOT'.length)}` : expr;
  }
  if (Array.isArray(expr)) return expr.map(rootAsVariable);
  if (typeAlias(expr) !== 'object') return expr;
  const entries = Object.entries(expr as Document);
  if (entries.length === 1 && (entries[0]![0] === '$literal' || entries[0]![0] === '$const')) return expr;
  const out: Document = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, {
      value: rootAsVariable(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * `$let` that may rebind `CURRENT`, as mongod allows: `in` then reads `$$CURRENT`
 * and every `$field` from the new value. mingo reads both from the document
 * (its root), so `in` runs with the value as its document and root, and its
 * `$$ROOT` references read the real root from a variable.
 */
function letWithCurrent(original: ExpressionOperator): ExpressionOperator {
  return (obj, expr, options) => {
    const vars = typeAlias(expr) === 'object' ? (expr as Document).vars : undefined;
    if (typeAlias(vars) !== 'object' || !Object.hasOwn(vars as Document, 'CURRENT')) {
      return original(obj, expr, options);
    }
    const variables: Document = {};
    for (const [name, value] of Object.entries(vars as Document)) {
      variables[name] = evalExpr(obj, value, options);
    }
    const current: unknown = variables.CURRENT;
    delete variables.CURRENT;
    const compute = options as unknown as ComputeOptions;
    // Under an outer rebinding, the root is already in the variable and `local.root` is the outer CURRENT.
    variables[ROOT_VARIABLE] = compute.local?.variables?.[ROOT_VARIABLE] ?? compute.local?.root ?? obj;
    // mingo's ComputeOptions (not exported) is what operators are given: a copy keeps the outer variables and $$NOW.
    const inner = (compute.constructor as unknown as ComputeOptionsClass)
      .init(compute)
      .update({ root: current, variables });
    return evalExpr(current, rootAsVariable((expr as Document).in), inner as unknown as Options);
  };
}

/**
 * Expression operators of MongoDB 7 that mingo lacks or answers otherwise
 * (a one-operand list is made the operand by operand-lists.ts):
 * `$convert` and its shortcuts (type-conversions.ts), the date operators
 * (date-expressions.ts), `$bsonSize`, `$binarySize` (`$indexOfCP` is in
 * string-search.ts). They were
 * refused as unknown (InvalidPipelineOperator, which mongod never answers
 * for them) or wrong.
 */
export function mongodExpressionOperators(
  operators: Record<string, ExpressionOperator>,
): Record<string, ExpressionOperator> {
  return {
    ...operators,
    ...DATE_OPERATORS,
    ...CONVERSION_OPERATORS,
    $bsonSize: bsonSize,
    $binarySize: binarySize,
    $toHashedIndexKey: toHashedIndexKey,
    $tsSecond: timestampPart('$tsSecond', 'Location5687301', 't'),
    $tsIncrement: timestampPart('$tsIncrement', 'Location5687302', 'i'),
    $switch: switchWithoutDefault(operators.$switch!),
    $let: letWithCurrent(operators.$let!),
  };
}
