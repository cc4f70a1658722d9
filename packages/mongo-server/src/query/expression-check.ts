/**
 * The checks mongod makes while it parses an aggregation expression or a
 * projection, before any document is read: so a bad one fails on an empty
 * collection too. Filters' `$expr` (query-context.ts), pipelines
 * (pipeline-check.ts) and find projections (find-projection.ts) run them.
 */
import type { Document } from 'bson';
import type { Context } from 'mingo/core';

import { formatDocument } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { PATH_OPERATOR } from './aggregation-paths.js';
import { ARRAY_ARGUMENT_CHECKS } from './array-expressions.js';
import { DATE_ARGUMENT_CHECKS } from './date-expressions.js';
import { typeAlias } from './element-operators.js';
import { checkVariables, type Scope } from './expression-variables.js';
import { checkFieldPathExpression } from './field-path.js';
import { checkSetFieldArguments } from './object-expressions.js';
import { PERCENTILE_ARGUMENT_CHECKS } from './percentile-operators.js';
import { STRING_ARGUMENT_CHECKS } from './string-expressions.js';
import { TRUTH_OPERATOR } from './truthiness.js';

/** MongoDB 7 expression operators mingo lacks: refused by name rather than as unknown. */
const MONGOD_ONLY_EXPRESSIONS = new Set(['$function', '$accumulator', '$meta', '$toHashedIndexKey']);

/** Whether `context` has an operator `name` of `type`. */
export function knownOperator(
  context: Context,
  type: 'expression' | 'accumulator' | 'pipeline',
  name: string,
): boolean {
  return context.getOperator(type as never, name) !== null;
}

/** What the embedded server answers for a MongoDB feature it lacks, named in `what`. */
export function notSupported(what: string): CommandError {
  return new CommandError(
    'CommandNotSupported',
    `${what} is not supported by the embedded server: use a real MongoDB (MONGO_URL) for it`,
  );
}

/**
 * Walks an aggregation expression, refusing operators mongod would not
 * parse: unknown ones (168), wrong argument types and counts. `context` is
 * the operators the server runs.
 */
export function checkExpression(expr: unknown, context: Context): void {
  if (typeof expr === 'string') {
    if (expr.startsWith('$')) checkFieldPathExpression(expr);
    return;
  }
  if (Array.isArray(expr)) {
    for (const item of expr) checkExpression(item, context);
    return;
  }
  if (typeAlias(expr) !== 'object') return;
  const keys = Object.keys(expr as Document);
  const operator = keys[0];
  if (operator?.startsWith('$')) {
    if (keys.length > 1) {
      throw new CommandError(
        'Location15983',
        `An object representing an expression must have exactly one field: ${formatDocument(expr as Document)}`,
      );
    }
    // The operators a dotted path and a condition become while they run are the server's, not a client's.
    if (!isExpressionName(context, operator) || operator === PATH_OPERATOR || operator === TRUTH_OPERATOR) {
      if (MONGOD_ONLY_EXPRESSIONS.has(operator)) throw notSupported(`The ${operator} expression`);
      throw new CommandError('InvalidPipelineOperator', `Unrecognized expression '${operator}'`);
    }
    // `$const` is mongod's other name of `$literal`.
    if (operator === '$literal' || operator === '$const') return;
    checkArgument(operator, (expr as Document)[operator]);
    checkArity(operator, (expr as Document)[operator]);
    if (operator === '$setField' || operator === '$unsetField') {
      checkSetFieldArguments(operator, (expr as Document)[operator] as Document);
    }
    checkExpression((expr as Document)[operator], context);
    return;
  }
  for (const value of Object.values(expr as Document)) checkExpression(value, context);
}

/**
 * Operators whose argument must be a document (mingo enumerated a string given
 * instead, as above); what mongod answers varies by operator, this names both.
 */
const DOCUMENT_ARGUMENTS = new Set([
  ...['$setField', '$unsetField', '$top', '$bottom', '$topN', '$bottomN'],
  ...['$firstN', '$lastN', '$maxN', '$minN', '$let', '$switch', '$regexFind'],
  ...['$regexFindAll', '$regexMatch', '$shift', '$derivative', '$integral', '$expMovingAvg'],
]);

/** Operators taking a fixed number of arguments (mongod's `ExpressionFixedArity`): 16020 otherwise. */
const FIXED_ARITY = new Map<string, number>([
  ...[
    ...['$abs', '$acos', '$acosh', '$asin', '$asinh', '$atan', '$atanh', '$cos', '$cosh', '$sin', '$sinh', '$tan'],
    ...['$tanh', '$degreesToRadians', '$radiansToDegrees', '$allElementsTrue', '$anyElementTrue', '$arrayToObject'],
    ...['$ceil', '$exp', '$floor', '$isArray', '$ln', '$log10', '$not', '$objectToArray', '$reverseArray', '$size'],
    ...['$sqrt', '$strLenBytes', '$strLenCP', '$toLower', '$toUpper', '$type', '$isNumber', '$bsonSize'],
    ...['$binarySize', '$tsSecond', '$tsIncrement'],
  ].map((name): [string, number] => [name, 1]),
  ...[
    ...['$arrayElemAt', '$atan2', '$cmp', '$divide', '$eq', '$gt', '$gte', '$in', '$log', '$lt', '$lte', '$mod'],
    ...['$ne', '$pow', '$setDifference', '$setIsSubset', '$split', '$strcasecmp', '$subtract'],
  ].map((name): [string, number] => [name, 2]),
  ...['$substr', '$substrBytes', '$substrCP'].map((name): [string, number] => [name, 3]),
]);

/** `$convert`'s shortcuts, which mongod parses as a `$convert` of their one argument (50723 otherwise). */
const CONVERT_SHORTCUTS = new Set([
  ...['$toBool', '$toDate', '$toDecimal', '$toDouble', '$toInt', '$toLong', '$toObjectId', '$toString'],
]);

/** Operators taking a range of argument counts (mongod's `ExpressionRangedArity`): 28667 otherwise. */
const RANGED_ARITY = new Map<string, [number, number]>([
  ['$slice', [2, 3]],
  ['$range', [2, 3]],
  ['$indexOfArray', [2, 4]],
  ['$indexOfBytes', [2, 4]],
  ['$indexOfCP', [2, 4]],
  ['$round', [1, 2]],
  ['$trunc', [1, 2]],
]);

/**
 * The number of arguments, checked while parsing as mongod does: mingo
 * checked some only when a document reached them (BadValue), ignored extra
 * ones (`$size: ['$a', 1]` gave the size) and read `{ $slice: 1 }` in a
 * `$project` as find's slice projection. An argument that is not an array is
 * one argument; `$cond` is checked in its array form only.
 */
function checkArity(operator: string, argument: unknown): void {
  const count = Array.isArray(argument) ? argument.length : 1;
  if (CONVERT_SHORTCUTS.has(operator) && count !== 1) {
    throw new CommandError('Location50723', `${operator} requires a single argument, got ${count}`);
  }
  const fixed = operator === '$cond' && Array.isArray(argument) ? 3 : FIXED_ARITY.get(operator);
  if (fixed !== undefined && count !== fixed) {
    // mongod's $substr is its $substrBytes, which its message names.
    const name = operator === '$substr' ? '$substrBytes' : operator;
    throw new CommandError(
      'Location16020',
      `Expression ${name} takes exactly ${fixed} arguments. ${count} were passed in.`,
    );
  }
  const [least, most] = RANGED_ARITY.get(operator) ?? [0, Number.POSITIVE_INFINITY];
  if (count < least || count > most) {
    throw new CommandError(
      'Location28667',
      `Expression ${operator} takes at least ${least} arguments, and at most ${most}, but ${count} were passed in.`,
    );
  }
}

/**
 * The parse-time checks of single operators' arguments, kept beside the
 * operators they check (each module's `…_ARGUMENT_CHECKS`).
 */
const ARGUMENT_CHECKS = new Map<string, (argument: unknown) => void>([
  ...ARRAY_ARGUMENT_CHECKS,
  ...DATE_ARGUMENT_CHECKS,
  ...PERCENTILE_ARGUMENT_CHECKS,
  ...STRING_ARGUMENT_CHECKS,
]);

export function checkArgument(operator: string, argument: unknown): void {
  if (DOCUMENT_ARGUMENTS.has(operator) && typeAlias(argument) !== 'object') {
    throw new CommandError(
      'FailedToParse',
      `${operator} only supports an object as its argument, found: ${typeAlias(argument)}`,
    );
  }
  if (operator === '$convert' && typeAlias(argument) === 'object') {
    for (const field of ['input', 'to']) {
      if (!Object.hasOwn(argument as Document, field)) {
        throw new CommandError('FailedToParse', `Missing '${field}' parameter to $convert`);
      }
    }
  }
  ARGUMENT_CHECKS.get(operator)?.(argument);
}

/** Expression operators (accumulators included, as mongod registers them) that `context` runs. */
function isExpressionName(context: Context, name: string): boolean {
  return knownOperator(context, 'expression', name) || knownOperator(context, 'accumulator', name);
}

/**
 * Runs `check` of a `$project`, `$addFields` or `$set` stage (as the user
 * named it), its errors worded as mongod words them: these stages parse their
 * specification in a block that adds "Invalid <stage>" as context to any
 * error (document_source_project.cpp, document_source_add_fields.cpp); the
 * other stages add none.
 */
export function asParsedIn(stage: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    throw new CommandError(error.codeName, `Invalid ${stage} :: caused by :: ${error.message}`, error.extra);
  }
}

/** Where a projection is parsed: `$project` or find (its `$slice` and `$elemMatch` are its own). */
export interface ProjectionSite {
  readonly context: Context;
  /** The variables its expressions may use. */
  readonly scope: Scope;
  /** Find's projection: `$slice` and a top-level `$elemMatch` are find's own operators, checked by find. */
  readonly find?: boolean;
}

/**
 * Checks a projection as mongod's projection parser reads it: a value that
 * is an object of one `$` field is an expression (31325 when no operator has
 * that name), another object a sub-projection, a number or boolean an
 * inclusion or exclusion, anything else a literal expression.
 */
export function checkProjection(spec: Document, site: ProjectionSite, root = true): void {
  for (const value of Object.values(spec)) {
    if (typeAlias(value) !== 'object') {
      if (typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'bigint') {
        checkExpression(value, site.context);
        checkVariables(value, site.scope);
      }
      continue;
    }
    const keys = Object.keys(value as Document);
    const operator = keys.length === 1 ? keys[0]! : '';
    if (!operator.startsWith('$')) {
      checkProjection(value as Document, site, false);
    } else if (site.find && (operator === '$slice' || operator === '$elemMatch')) {
      // Find's `$slice` applies at any depth; its `$elemMatch` only to a top-level field.
      if (operator === '$elemMatch' && !root) {
        throw new CommandError('Location31275', 'Cannot use $elemMatch projection on a nested field.');
      }
    } else if (isExpressionName(site.context, operator) || MONGOD_ONLY_EXPRESSIONS.has(operator)) {
      checkExpression(value, site.context);
      checkVariables(value, site.scope);
    } else {
      throw new CommandError('Location31325', `Unknown expression ${operator}`);
    }
  }
}
