import { evalExpr } from 'mingo/core';
import * as expressionOperators from 'mingo/operators/expression';
import type { Options } from 'mingo/types';

import { VALUE_BYTES } from '../bson/approximate-size.js';
import { CommandError } from '../commands/command-error.js';
import { countCodePoints } from './code-points.js';
import { typeAlias } from './element-operators.js';
import { OperationBudget } from './operation-budget.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

const mingo = expressionOperators as unknown as Record<string, ExpressionOperator>;

/** mongod's largest string value (`BSONObjMaxUserSize`): it refuses to create one this long. */
const MAX_STRING_BYTES = 16 * 1024 * 1024;
/** MongoDB's memory limit of one expression's array (`internalQueryMaxRangeBytes`), 100 MiB. */
const ARRAY_MEMORY_LIMIT = 100 * 1024 * 1024;

/** UTF-8 length of `text`, computed only when the UTF-16 length leaves a doubt. */
function exceedsStringLimit(text: string): boolean {
  if (text.length * 3 < MAX_STRING_BYTES) return false;
  return text.length >= MAX_STRING_BYTES || Buffer.byteLength(text, 'utf8') >= MAX_STRING_BYTES;
}

function stringTooLong(): CommandError {
  return new CommandError('Location16493', `Tried to create string longer than ${MAX_STRING_BYTES / 1024 / 1024}MB`);
}

/**
 * Operators whose result is newly built: it is counted against the
 * command's allocation budget, and a string result is refused from 16 MiB,
 * as mongod refuses to create such a string. Operators that pass a value
 * through (`$ifNull`, `$cond`, `$let`, `$reduce`) are not counted twice.
 */
const BUILDING_OPERATORS = new Set([
  '$concat',
  '$replaceAll',
  '$replaceOne',
  '$toUpper',
  '$toLower',
  '$substr',
  '$substrBytes',
  '$substrCP',
  '$trim',
  '$ltrim',
  '$rtrim',
  '$toString',
  '$convert',
  '$dateToString',
  '$range',
  '$concatArrays',
  '$map',
  '$filter',
  '$split',
  '$zip',
  '$setUnion',
  '$setIntersection',
  '$setDifference',
  '$reverseArray',
  '$slice',
  '$objectToArray',
  '$sortArray',
  '$firstN',
  '$lastN',
  '$maxN',
  '$minN',
  '$mergeObjects',
  '$arrayToObject',
  '$setField',
  '$unsetField',
]);

/** Counts what `operator` just built against the command's budget. */
function account(operator: string, result: unknown): void {
  if (typeof result === 'string') {
    if (exceedsStringLimit(result)) throw stringTooLong();
    OperationBudget.allocate(result.length, operator);
  } else if (Array.isArray(result)) {
    OperationBudget.allocate((result.length + 1) * VALUE_BYTES, operator);
  } else if (result !== null && typeof result === 'object' && Object.getPrototypeOf(result) === Object.prototype) {
    OperationBudget.allocate((Object.keys(result).length + 1) * VALUE_BYTES, operator);
  }
}

/**
 * Every expression operator of `operators`, made to tick the command's clock
 * (so maxTimeMS interrupts a long `$map` or `$reduce`) and, for those that
 * build a value, to count it (see {@link BUILDING_OPERATORS}).
 */
export function budgetedExpressionOperators(
  operators: Record<string, ExpressionOperator>,
): Record<string, ExpressionOperator> {
  const wrapped: Record<string, ExpressionOperator> = {};
  for (const [name, operator] of Object.entries(operators)) {
    const builds = BUILDING_OPERATORS.has(name);
    wrapped[name] = (obj, expr, options) => {
      OperationBudget.tick();
      const result = operator(obj, expr, options);
      if (builds) account(name, result);
      return result;
    };
  }
  return wrapped;
}

/** Evaluates `expr` as an array of arguments; undefined when it is not one (mingo then answers). */
function evaluatedArguments(obj: unknown, expr: unknown, options: Options): unknown[] | undefined {
  if (!Array.isArray(expr)) return undefined;
  return evalExpr(obj, expr, options) as unknown[];
}

/** `$concat` refusing a result from 16 MiB before it is built (doubling a string in `$reduce` stops there). */
function boundedConcat(obj: unknown, expr: unknown, options: Options): unknown {
  const args = evaluatedArguments(obj, expr, options);
  if (args === undefined) return mingo.$concat!(obj, expr, options);
  let length = 0;
  for (const arg of args) {
    if (arg === null || arg === undefined) return null;
    if (typeof arg !== 'string') {
      throw new CommandError('Location16702', `$concat only supports strings, not ${typeAlias(arg)}`);
    }
    length += arg.length;
  }
  if (length >= MAX_STRING_BYTES) throw stringTooLong();
  return (args as string[]).join('');
}

/** `$concatArrays` refusing a result over 100 MiB before it is built. */
function boundedConcatArrays(obj: unknown, expr: unknown, options: Options): unknown {
  const args = evaluatedArguments(obj, expr, options);
  if (args !== undefined && args.every(Array.isArray)) {
    const bytes = args.reduce((sum: number, arg) => sum + (arg as unknown[]).length * VALUE_BYTES, 0);
    if (bytes > ARRAY_MEMORY_LIMIT) {
      throw new CommandError(
        'ExceededMemoryLimit',
        `$concatArrays used too much memory and cannot spill to disk. Memory limit: ${ARRAY_MEMORY_LIMIT} bytes`,
      );
    }
    // A loop, not concat(...args): as arguments, a huge list of operands would overflow the stack.
    const out: unknown[] = [];
    for (const arg of args as unknown[][]) for (const element of arg) out.push(element);
    return out;
  }
  return mingo.$concatArrays!(obj, expr, options);
}

/** Non-overlapping occurrences of `find` in `input` (an empty `find` matches before each code point and at the end). */
function occurrences(input: string, find: string): number {
  if (find === '') return countCodePoints(input) + 1;
  let count = 0;
  for (let at = input.indexOf(find); at >= 0; at = input.indexOf(find, at + find.length)) count++;
  return count;
}

/** `$replaceAll` refusing a result from 16 MiB before it is built; an empty `find` inserts between code points. */
function boundedReplaceAll(obj: unknown, expr: unknown, options: Options): unknown {
  const args = (expr !== null && typeof expr === 'object' ? evalExpr(obj, expr, options) : {}) as Record<
    string,
    unknown
  >;
  const { input, find, replacement } = args;
  if (typeof input !== 'string' || typeof find !== 'string' || typeof replacement !== 'string') {
    return mingo.$replaceAll!(obj, expr, options);
  }
  const count = occurrences(input, find);
  const bytes = Buffer.byteLength(input) + count * (Buffer.byteLength(replacement) - Buffer.byteLength(find));
  if (bytes >= MAX_STRING_BYTES) throw stringTooLong();
  if (find !== '') return input.split(find).join(replacement);
  return input === '' ? replacement : replacement + [...input].join(replacement) + replacement;
}

/**
 * Expression operators that could otherwise build a value large enough to
 * exhaust V8's heap (the process would die, not the command) or allocate
 * far more than the value they return.
 */
export const BOUNDED_EXPRESSION_OPERATORS: Record<string, ExpressionOperator> = {
  $concat: boundedConcat,
  $concatArrays: boundedConcatArrays,
  $replaceAll: boundedReplaceAll,
};
