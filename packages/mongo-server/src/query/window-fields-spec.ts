/**
 * The specification of a `$setWindowFields` stage, checked as mongod 7.0
 * parses it (document_source_set_window_fields.cpp `createFromBson`, its
 * IDL, window_function_statement.cpp, window_function_expression.cpp/.h,
 * window_function_shift.cpp, window_function_count.cpp, window_bounds.cpp),
 * in mongod's order and with its codes, before any document is read. mingo's
 * stage answered BadValue with its own words, and took specs mongod refuses
 * (a `$rank` over two sort keys, backwards or non-numeric bounds, `unit` with
 * `documents`, unknown top-level fields, an `$expMovingAvg` with no `N`).
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';

import { isSubDocument } from '../bson/bson-compare.js';
import { formatKeyValue, formatValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { checkArgument } from './expression-check.js';
import { checkFieldPath } from './field-path.js';
import { numericType, toDouble } from './numeric-types.js';
import { preparedMingoOptions } from './query-context.js';
import { parseSortSpec } from './sort-documents.js';

/** Checks an expression (operators, variables) where mongod parses one. */
type OperandCheck = (expr: unknown) => void;

/** The `sortBy` as the window functions see it: absent, or its number of keys. */
type SortBy = { readonly size: number } | undefined;

const fail = (message: string) => new CommandError('FailedToParse', message);

/** A BSON element as mongod streams it into a message: `name: value`. */
const element = (name: string, value: unknown) => `${name}: ${formatKeyValue(value)}`;

/** mongod's `FieldPath` check of a `$sort`/`sortBy` key, then SortPattern's 15974/15975. */
function checkSortBy(sortBy: Document): void {
  for (const [key, direction] of Object.entries(sortBy)) {
    // A `{ $meta: … }` key is an expression (SortPattern parses it apart).
    if (isSubDocument(direction) && Object.hasOwn(direction, '$meta')) continue;
    checkFieldPath(key);
    parseSortSpec({ [key]: direction });
  }
}

/**
 * Whether mongod's `optimize()` folds `value` into a constant: no field path
 * or variable (a `$`-string outside `$literal`) and no `$rand`. Variables
 * such as `$$NOW` are taken as not constant, as they are where a view or
 * `let` could change them.
 */
function isConstant(value: unknown): boolean {
  if (typeof value === 'string') return !value.startsWith('$');
  if (Array.isArray(value)) return value.every(isConstant);
  if (!isSubDocument(value)) return true;
  return Object.entries(value).every(
    ([key, inner]) => key === '$literal' || (key !== '$rand' && key !== '$sampleRate' && isConstant(inner)),
  );
}

/** The value of a constant expression (a plain value is itself). */
function constantValue(value: unknown): unknown {
  if (!Array.isArray(value) && !isSubDocument(value)) return value;
  return evalExpr({}, value, preparedMingoOptions());
}

/** mongod's `Value::integral()`: a number whose value is a whole int32. */
function isIntegral(value: unknown): boolean {
  if (numericType(value) === undefined) return false;
  const x = toDouble(value);
  return Number.isInteger(x) && x >= -(2 ** 31) && x <= 2 ** 31 - 1;
}

type Bound = 'unbounded' | 'current' | number;

/** One bound (window_bounds.cpp `parseBound`): a keyword, or a constant number `check` accepts. */
function parseBound(value: unknown, check: (constant: unknown) => void, operand: OperandCheck): Bound {
  if (typeof value === 'string') {
    if (value === 'unbounded' || value === 'current') return value;
    throw fail("Window bounds must be 'unbounded', 'current', or a number.");
  }
  operand(value);
  if (!isConstant(value)) throw fail('Window bounds expression must be a constant.');
  const constant = constantValue(value);
  check(constant);
  return toDouble(constant);
}

/** `checkBoundsForward`: 'current' counts as 0; two numbers must not be backwards (5339900). */
function checkBoundsForward(lower: Bound, upper: Bound, format: (x: number) => string): void {
  const [lo, hi] = [lower === 'current' ? 0 : lower, upper === 'current' ? 0 : upper];
  if (typeof lo === 'number' && typeof hi === 'number' && lo > hi) {
    throw new CommandError(
      'Location5339900',
      `Lower bound must not exceed upper bound: [${format(lo)}, ${format(hi)}]`,
    );
  }
}

/** The two bounds of `documents` or `range` (`unpack`). */
function unpack(name: string, value: unknown): [unknown, unknown] {
  if (!Array.isArray(value) || value.length !== 2) {
    throw fail(`Window bounds must be a 2-element array: ${element(name, value)}`);
  }
  return [value[0], value[1]];
}

const TIME_UNITS = new Set(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond']);

/** `parseTimeUnit` (date_time_support.cpp). */
function parseTimeUnit(unit: string): string {
  if (!TIME_UNITS.has(unit)) throw fail(`unknown time unit value: ${unit}`);
  return unit;
}

/** A `window` field (window_bounds.cpp `WindowBounds::parse`, as in 7.0). */
function parseWindow(window: unknown, sortBy: SortBy, operand: OperandCheck): void {
  if (!isSubDocument(window)) throw fail("'window' field must be an object");
  const fields = Object.keys(window).length;
  const { documents, range, unit } = window as Document;
  // mongod's message names 'unit' where it means 'range'.
  if (documents !== undefined && range !== undefined) {
    throw fail("Window bounds can specify either 'documents' or 'unit', not both.");
  }
  if (range === undefined && unit !== undefined) {
    throw fail("Window bounds can only specify 'unit' with range-based bounds.");
  }
  if (documents === undefined && range === undefined) {
    if (fields !== 0) {
      throw fail(
        "'window' field can only contain 'documents' as the only argument or 'range' with an optional 'unit' field",
      );
    }
    return;
  }
  if (documents !== undefined) {
    if (fields !== 1) throw fail("'window' field that specifies documents cannot have other fields");
    const [lowerElem, upperElem] = unpack('documents', documents);
    const integer = (v: unknown) => {
      if (!isIntegral(v)) throw fail('Numeric document-based bounds must be an integer');
    };
    const lower = parseBound(lowerElem, integer, operand);
    const upper = parseBound(upperElem, integer, operand);
    // Document bounds are ints (coerceToInt): printed whole.
    checkBoundsForward(lower, upper, (x) => String(Math.trunc(x)));
    if (!(lower === 'unbounded' && upper === 'unbounded') && sortBy === undefined) {
      throw new CommandError('Location5339901', 'Document-based bounds require a sortBy');
    }
    return;
  }
  const [lowerElem, upperElem] = unpack('range', range);
  if (unit !== undefined) {
    if (fields !== 2) throw fail("'window' field that specifies unit cannot have other fields besides 'range'");
    if (typeof unit !== 'string') throw fail("'unit' must be a string");
    const integer = (v: unknown) => {
      if (!isIntegral(v)) throw fail("With 'unit', range-based bounds must be an integer");
    };
    const lower = parseBound(lowerElem, integer, operand);
    const upper = parseBound(upperElem, integer, operand);
    checkBoundsForward(lower, upper, formatValue);
    parseTimeUnit(unit);
  } else {
    if (fields !== 1) throw fail("'window' field that specifies range cannot have other fields besides 'unit'");
    const numeric = (v: unknown) => {
      if (numericType(v) === undefined) throw fail('Range-based bounds expression must be a number');
    };
    const lower = parseBound(lowerElem, numeric, operand);
    const upper = parseBound(upperElem, numeric, operand);
    checkBoundsForward(lower, upper, formatValue);
  }
  // 7.0 stops here; later versions also refuse a $meta (8947400) or descending (8947401) sortBy.
  if (sortBy?.size !== 1) {
    throw new CommandError('Location5339902', 'Range-based bounds require sortBy a single field');
  }
}

/** A window function's parser: the output field's object, its function's name, the stage's sortBy. */
type Parser = (obj: Document, name: string, sortBy: SortBy, operand: OperandCheck) => void;

/**
 * `ExpressionRemovable::parse` (the accumulators): `window`, one function,
 * nothing else. `$count` (window_function_count.cpp) words the second
 * function apart and takes only `{}`.
 */
function accumulatorParser(count: boolean): Parser {
  return (obj, _name, sortBy, operand) => {
    let seen = false;
    for (const [key, value] of Object.entries(obj)) {
      if (key === 'window') parseWindow(value, sortBy, operand);
      else if (WINDOW_FUNCTIONS.has(key)) {
        if (seen) {
          throw fail(`Cannot specify ${count ? 'multiple' : 'two'} functions in window function spec`);
        }
        seen = true;
        if (count) {
          if (!isSubDocument(value) || Object.keys(value).length > 0) {
            throw fail('$count only accepts an empty object as input');
          }
        } else operand(value);
      } else throw fail(`Window function found an unknown argument: ${key}`);
    }
  };
}

/** `ExpressionFromRankAccumulator::parse`: `$rank`, `$denseRank`, `$documentNumber`. */
const rankParser: Parser = (obj, name, sortBy) => {
  if (Object.keys(obj).length !== 1) {
    throw new CommandError('Location5371601', 'Rank style window functions take no other arguments');
  }
  const arg: unknown = obj[name];
  if (!isSubDocument(arg) || Object.keys(arg).length > 0) {
    throw new CommandError('Location5371603', `${name} must be specified with '{}' as the value`);
  }
  if (sortBy?.size !== 1) {
    throw new CommandError(
      'Location5371602',
      `${name} must be specified with a top level sortBy expression with exactly one element`,
    );
  }
};

/**
 * `ExpressionFromLeftUnboundedWindowFunction::parse` (`$locf`) and
 * `ExpressionLinearFill::parse`: one function, no `window`; `$linearFill`
 * also a one-key sortBy (605001).
 */
function noWindowParser(linear: boolean): Parser {
  return (obj, name, sortBy, operand) => {
    let seen = false;
    let window = false;
    for (const [key, value] of Object.entries(obj)) {
      if (key === 'window') window = true;
      else if (WINDOW_FUNCTIONS.has(key)) {
        if (seen) throw fail('Cannot specify two functions in window function spec');
        seen = true;
        operand(value);
      } else throw fail(`Window function found an unknown argument: ${key}`);
    }
    if (window) throw fail(`'window' field is not allowed in ${name}`);
    if (linear && sortBy?.size !== 1) {
      throw new CommandError(
        'Location605001',
        `${name} must be specified with a top level sortBy expression with exactly one element`,
      );
    }
  };
}

/** `ExpressionShift::parse` and `parseShiftArgs` (window_function_shift.cpp). */
const shiftParser: Parser = (obj, name, sortBy, operand) => {
  let seen = false;
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'window') throw fail("$shift does not accept a 'window' field");
    if (!WINDOW_FUNCTIONS.has(key)) throw fail(`Window function found an unknown argument: ${key}`);
    if (seen) throw fail('Cannot specify multiple functions in window function spec');
    seen = true;
    if (!isSubDocument(value)) throw fail('Argument to $shift must be an object');
    let output = false;
    let by = false;
    for (const [arg, argValue] of Object.entries(value)) {
      if (arg === 'output') {
        operand(argValue);
        output = true;
      } else if (arg === 'default') {
        operand(argValue);
        if (!isConstant(argValue)) throw fail("'$shift:default' expression must yield a constant value.");
      } else if (arg === 'by') {
        // parseIntegerElementToInt: a number of whole int32 value. (Two spaces: mongod's.)
        if (!isIntegral(argValue)) {
          throw fail(`'$shift:by' field must be an integer, but found  ${element('by', argValue)}`);
        }
        by = true;
      } else throw fail(`Unknown argument in ${key}`);
    }
    if (!output) throw fail(`${key} requires an 'output' expression.`);
    if (!by) throw fail(`${key} requires 'by' as an integer value.`);
  }
  if (sortBy === undefined) throw fail(`'${name}' requires a sortBy`);
};

/** `ExpressionExpMovingAvg::parse`: `{ input, N }` or `{ input, alpha }`, and a sortBy. */
const expMovingAvgParser: Parser = (obj, name, sortBy, operand) => {
  const args: unknown = obj[name];
  if (Object.keys(obj).length !== 1 || !isSubDocument(args)) {
    throw fail('$expMovingAvg must have exactly one argument that is an object');
  }
  const shape =
    "$expMovingAvg sub object must have exactly two fields: An 'input' field, and either an 'N' field or an 'alpha' field";
  if (Object.keys(args).length !== 2 || !Object.hasOwn(args, 'input')) throw fail(shape);
  if (sortBy === undefined) throw fail("$expMovingAvg requires an explicit 'sortBy'");
  operand(args.input);
  if (Object.hasOwn(args, 'N')) {
    const n: unknown = args.N;
    if (numericType(n) === undefined) throw fail(`'N' field must be an integer, but found type ${typeAlias(n)}`);
    const x = toDouble(n);
    if (x !== Math.floor(x)) {
      throw fail(
        `'N' field must be an integer, but found  ${element('N', n)}. To use a non-integer, use the 'alpha' argument instead`,
      );
    }
    if (!(x > 0)) throw fail(`'N' must be greater than zero. Got ${x}`);
  } else if (Object.hasOwn(args, 'alpha')) {
    const alpha: unknown = args.alpha;
    if (numericType(alpha) === undefined) throw fail("'alpha' must be a number");
    const x = toDouble(alpha);
    if (!(x > 0 && x < 1)) throw fail(`'alpha' must be between 0 and 1 (exclusive), found ${element('alpha', alpha)}`);
  } else {
    throw fail(`Got unrecognized field in $expMovingAvg${shape}`);
  }
};

/**
 * `ExpressionDerivative::parse` and `ExpressionIntegral::parse`: a one-key
 * sortBy, `{ input, unit }` (unit a week or less); `$derivative` also an
 * explicit window.
 */
function withUnitParser(derivative: boolean): Parser {
  return (obj, name, sortBy, operand) => {
    if (sortBy === undefined) throw fail(`${name} requires a sortBy`);
    if (sortBy.size !== 1) throw fail(`${name} requires a non-compound sortBy`);
    let window = false;
    for (const [key, value] of Object.entries(obj)) {
      if (key === 'window') {
        parseWindow(value, sortBy, operand);
        window = true;
      } else if (key !== name) throw fail(`${name} got unexpected argument: ${key}`);
    }
    const args: unknown = obj[name];
    if (!isSubDocument(args)) {
      throw fail(`${name} expects an object, but got a ${typeAlias(args)}: ${element(name, args)}`);
    }
    let input = false;
    for (const [key, value] of Object.entries(args)) {
      if (key === 'input') {
        operand(value);
        input = true;
      } else if (key === 'unit') {
        // mongod's message lacks the opening quote.
        if (typeof value !== 'string') throw fail(`unit' must be a string, but got ${typeAlias(value)}`);
        const unit = parseTimeUnit(value);
        if (unit === 'year' || unit === 'quarter' || unit === 'month') {
          throw new CommandError('Location5490710', "unit must be 'week' or smaller");
        }
      } else throw fail(`${name} got unexpected argument: ${key}`);
    }
    if (!input) throw fail(`${name} requires an 'input' expression`);
    if (derivative && !window) throw fail('$derivative requires explicit window bounds');
  };
}

/**
 * `ExpressionFirstLast`, `ExpressionN` (`$minN` … `$bottom`) and
 * `ExpressionQuantile` (`$percentile`, `$median`): the function (its
 * argument checked as `$group` checks it) and a `window`, nothing else.
 */
const namedParser: Parser = (obj, name, sortBy, operand) => {
  for (const [key, value] of Object.entries(obj)) {
    if (key === name) {
      checkArgument(name, value);
      operand(value);
    } else if (key === 'window') parseWindow(value, sortBy, operand);
    else throw fail(`${name} got unexpected argument: ${key}`);
  }
};

const ACCUMULATOR = accumulatorParser(false);

/** The window functions of mongod 7.0 and their parsers. */
const WINDOW_FUNCTIONS: ReadonlyMap<string, Parser> = new Map<string, Parser>([
  ...['$sum', '$avg', '$min', '$max', '$push', '$addToSet'].map((name): [string, Parser] => [name, ACCUMULATOR]),
  ...['$stdDevPop', '$stdDevSamp', '$covariancePop', '$covarianceSamp'].map((name): [string, Parser] => [
    name,
    ACCUMULATOR,
  ]),
  ['$count', accumulatorParser(true)],
  ['$rank', rankParser],
  ['$denseRank', rankParser],
  ['$documentNumber', rankParser],
  ['$locf', noWindowParser(false)],
  ['$linearFill', noWindowParser(true)],
  ['$shift', shiftParser],
  ['$expMovingAvg', expMovingAvgParser],
  ['$derivative', withUnitParser(true)],
  ['$integral', withUnitParser(false)],
  ...['$first', '$last', '$minN', '$maxN', '$firstN', '$lastN', '$topN', '$bottomN', '$top', '$bottom'].map(
    (name): [string, Parser] => [name, namedParser],
  ),
  ['$percentile', namedParser],
  ['$median', namedParser],
]);

/**
 * One output field (`WindowFunctionStatement::parse`, then
 * `window_function::Expression::parse`): an object whose first `$` field
 * names a known window function, which parses the whole object.
 */
function checkOutputField(field: string, statement: unknown, sortBy: SortBy, operand: OperandCheck): void {
  if (!isSubDocument(statement)) throw fail(`The field '${field}' must be an object`);
  const keys = Object.keys(statement);
  const name = keys.find((key) => key.startsWith('$'));
  if (name === undefined) {
    throw fail(`Expected a $-prefixed window function${keys.length > 0 ? `, ${keys[0]}` : ''}`);
  }
  const parser = WINDOW_FUNCTIONS.get(name);
  if (!parser) throw fail(`Unrecognized window function, ${name}`);
  parser(statement, name, sortBy, operand);
}

/** FieldRefSet's conflict: the same path, or one a prefix of the other. */
function conflicts(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

const wrongType = (field: string, value: unknown) =>
  new CommandError(
    'TypeMismatch',
    `BSON field '$setWindowFields.${field}' is the wrong type '${typeAlias(value)}', expected type 'object'`,
  );

/**
 * Checks a `$setWindowFields` spec as mongod 7.0's `createFromBson` does,
 * in its order: a document (FailedToParse), SetWindowFieldsSpec's IDL
 * (40415, TypeMismatch, 40414), `partitionBy`, `sortBy` (as `$sort`'s), each
 * output field (6307900, then its window function's own checks), then a
 * `partitionBy` that folds to a constant array (TypeMismatch). `operand` is
 * called on each expression where mongod parses one (the argument checks of
 * pipeline-check.ts).
 */
export function checkSetWindowFields(spec: unknown, operand: OperandCheck = () => undefined): void {
  if (!isSubDocument(spec)) {
    throw fail(`the $setWindowFields stage specification must be an object, found ${typeAlias(spec)}`);
  }
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'sortBy' || key === 'output') {
      if (!isSubDocument(value)) throw wrongType(key, value);
    } else if (key !== 'partitionBy') {
      throw new CommandError('Location40415', `BSON field '$setWindowFields.${key}' is an unknown field.`);
    }
  }
  if (!Object.hasOwn(spec, 'output')) {
    throw new CommandError('Location40414', "BSON field '$setWindowFields.output' is missing but a required field");
  }
  const { partitionBy } = spec;
  if (partitionBy !== undefined) operand(partitionBy);
  let sortBy: SortBy;
  if (spec.sortBy !== undefined) {
    checkSortBy(spec.sortBy as Document);
    sortBy = { size: Object.keys(spec.sortBy as Document).length };
  }
  const seen: string[] = [];
  for (const [field, statement] of Object.entries(spec.output as Document)) {
    if (seen.some((path) => conflicts(path, field))) {
      throw new CommandError(
        'Location6307900',
        "$setWindowFields 'output' specification contains two conflicting paths",
      );
    }
    seen.push(field);
    checkOutputField(field, statement, sortBy, operand);
  }
  // `create()` optimizes partitionBy: a constant array can never partition.
  if (partitionBy !== undefined && isConstant(partitionBy) && Array.isArray(constantOrUndefined(partitionBy))) {
    throw new CommandError('TypeMismatch', 'An expression used to partition cannot evaluate to value of type array');
  }
}

/** A constant expression's value, or undefined where mingo cannot fold it (mongod then fails it otherwise). */
function constantOrUndefined(value: unknown): unknown {
  try {
    return constantValue(value);
  } catch {
    return undefined;
  }
}
