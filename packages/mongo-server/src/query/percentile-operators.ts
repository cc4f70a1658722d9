/**
 * `$percentile` and `$median`, as `$group` accumulators and as expressions,
 * the way mongod 7.0 runs them (accumulator_percentile.cpp,
 * percentile_algo_discrete.cpp, percentile_algo_tdigest.cpp). Only numbers
 * count: every BSON numeric type, read as a double; NaN is skipped and
 * infinities are kept, as mongod's algorithms do. The answer for `p` is the
 * value at 0-based rank ⌈n·p⌉ − 1 (n − 1 for p = 1, 0 for p = 0) of the
 * numbers sorted as numbers (mongod's `computeTrueRank`), as a double; null
 * for each `p` when there is no number. The expression of a single number
 * answers that number for every `p`.
 *
 * The spec is checked as mongod's IDL parser checks it (an unknown field
 * 40415, a missing one 40414, a `method` not a string 14, any method but
 * 'approximate' BadValue: 7.0 has no other) and `p` as its parseP does: a
 * constant (7750300), an array that is not empty (7750301) of numbers
 * (7750302) from [0, 1] (7750303).
 *
 * mongod's accumulator keeps a t-digest (delta 1000), which answers exactly
 * this value for up to 1000 numbers in a group; past that it interpolates
 * between its centroids' means (the median of 0..149999 is 74999.5 there,
 * 74999 here). Its expression form uses the discrete algorithm at any size,
 * as here.
 *
 * mingo's sorted the numbers with `Array.prototype.sort()`, as text (the
 * 0.9 percentile of 0..99 was 20, the median of 0..149999 was 101050),
 * skipped Int64, Decimal128 and integral doubles, and checked nothing of
 * mongod's spec.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import { $push } from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';

import { isBsonNumber } from '../bson/bson-compare.js';
import { formatKeyValue, formatValue } from '../bson/format-key-value.js';
import { CommandError, type ErrorCodeName } from '../commands/command-error.js';
import { checkStructFields, wrongFieldType } from '../commands/idl-fields.js';
import { typeAlias } from './element-operators.js';
import { storedDouble, toDouble } from './numeric-types.js';
import { OperationBudget } from './operation-budget.js';

type Quantile = '$percentile' | '$median';
type AccumulatorOperator = (collection: unknown[], expr: unknown, options: Options) => unknown;
type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/** Where the spec is not a document, each operator's code as an accumulator and as an expression (parseArgs, parseExpression). */
const NOT_A_DOCUMENT: Readonly<Record<Quantile, { accumulator: ErrorCodeName; expression: ErrorCodeName }>> = {
  $percentile: { accumulator: 'Location7429703', expression: 'Location7436200' },
  $median: { accumulator: 'Location7436100', expression: 'Location7436201' },
};

/** The fields of each operator's IDL struct, all required, in the order a missing one is reported. */
const FIELDS: Readonly<Record<Quantile, Readonly<Record<string, boolean>>>> = {
  $percentile: { input: true, p: true, method: true },
  $median: { input: true, method: true },
};

/** What `$median` computes: mongod's `$percentile` with `p: [0.5]`. */
const MEDIAN = [0.5];

/** The start of mongod's parseP messages for a `p` that is not an array of numbers from [0, 1]. */
const P_MESSAGE = "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: ";

/** The spec's `method`, as the IDL type and 7.0's validator (`validatePercentileMethod`) take it. */
function checkMethod(name: Quantile, method: unknown): void {
  if (typeof method !== 'string') {
    throw wrongFieldType(`${name}.method`, method, "type 'string'");
  }
  // 'discrete' and 'continuous' came after 7.0 (behind featureFlagAccuratePercentiles); 7.0 refuses them too.
  if (method !== 'approximate') {
    throw new CommandError('BadValue', "Currently only 'approximate' can be used as percentile 'method'.");
  }
}

/** The spec's fields as mongod's IDL parser checks them: each in turn, then the missing ones. */
function checkFields(name: Quantile, spec: Document): void {
  checkStructFields(name, spec, FIELDS[name], (key, value) => {
    if (key === 'method') checkMethod(name, value);
  });
}

/** Whether `expr` reads the document (a field path, `$$ROOT`, `$$CURRENT`), which mongod's parseP cannot fold to a constant. */
function readsDocument(expr: unknown): boolean {
  if (typeof expr === 'string') {
    return expr.startsWith('$') && (!expr.startsWith('$$') || /^\$\$(ROOT|CURRENT)(\.|$)/.test(expr));
  }
  if (Array.isArray(expr)) return expr.some(readsDocument);
  if (typeAlias(expr) !== 'object') return false;
  const keys = Object.keys(expr as Document);
  if (keys[0] === '$literal' || keys[0] === '$const') return false;
  return Object.values(expr as Document).some(readsDocument);
}

/** Whether `expr` is a value as written, with nothing in it to evaluate. */
function isLiteral(expr: unknown): boolean {
  if (typeof expr === 'string') return !expr.startsWith('$');
  if (Array.isArray(expr)) return expr.every(isLiteral);
  if (typeAlias(expr) !== 'object') return true;
  return Object.entries(expr as Document).every(([key, value]) => !key.startsWith('$') && isLiteral(value));
}

/** `p` as it must not read the document (7750300). */
function checkConstant(p: unknown): void {
  if (readsDocument(p)) {
    throw new CommandError(
      'Location7750300',
      `The $percentile 'p' field must be an array of constant values, but found value: ${formatKeyValue(p)}.`,
    );
  }
}

/** `p`'s value as mongod's parseP takes it: a non-empty array of numbers from [0, 1], as doubles. */
function checkedPercentiles(value: unknown): number[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new CommandError('Location7750301', P_MESSAGE + formatValue(value));
  }
  const ps = new Array<number>(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (!isBsonNumber(item)) throw new CommandError('Location7750302', P_MESSAGE + formatValue(item));
    const p = toDouble(item);
    // 7.0 tests `p < 0 || p > 1`, which lets NaN through to an undefined rank; later versions refuse it, as here.
    if (!(p >= 0 && p <= 1)) throw new CommandError('Location7750303', P_MESSAGE + formatValue(p));
    ps[i] = p;
  }
  return ps;
}

/** The spec of `name` in `form` checked as mongod parses it; a document from here on. */
function checkedSpec(name: Quantile, spec: unknown, form: 'accumulator' | 'expression'): Document {
  if (typeAlias(spec) !== 'object') {
    throw new CommandError(
      NOT_A_DOCUMENT[name][form],
      `specification must be an object; found ${name}: ${formatKeyValue(spec)}`,
    );
  }
  checkFields(name, spec as Document);
  if (name === '$percentile') checkConstant((spec as Document).p);
  return spec as Document;
}

/** The percentiles asked for: `$median`'s 0.5, or `$percentile`'s `p` evaluated (a constant, or the command's `let` variables). */
function requested(name: Quantile, spec: Document, root: unknown, options: Options): number[] {
  return name === '$median' ? MEDIAN : checkedPercentiles(evalExpr(root, spec.p, options));
}

/**
 * The numbers of a group or of an array, as doubles in a typed array: 8 bytes
 * each, counted against the command's budget as it grows, as mongod's discrete
 * algorithm keeps them (its t-digest, a few thousand at most, is what bounds a
 * 7.0 group; it never refuses one for its size).
 */
class Samples {
  private values = new Float64Array(64);
  private count = 0;

  constructor(private readonly name: Quantile) {}

  /** Keeps `value` if it is a number that is not NaN; anything else is ignored, as mongod ignores it. */
  add(value: unknown): void {
    if (!isBsonNumber(value)) return;
    const x = toDouble(value);
    if (Number.isNaN(x)) return;
    if (this.count === this.values.length) this.grow();
    this.values[this.count++] = x;
  }

  /** The value at each percentile's rank, in the order asked; undefined without a number. */
  quantiles(ps: readonly number[]): number[] | undefined {
    if (this.count === 0) return undefined;
    // A typed array sorts numerically, -Infinity first and Infinity last, with no comparator to call.
    const sorted = this.values.subarray(0, this.count).sort();
    return ps.map((p) => sorted[rank(this.count, p)]!);
  }

  /** Doubles the room, counting what it adds. */
  private grow(): void {
    const next = new Float64Array(this.values.length * 2);
    next.set(this.values);
    OperationBudget.allocate(next.byteLength - this.values.byteLength, this.name);
    this.values = next;
  }
}

/** mongod's `computeTrueRank`: the 0-based rank of percentile `p` among `n` values, resolving ties to the lower one. */
function rank(n: number, p: number): number {
  return p >= 1 ? n - 1 : Math.max(0, Math.ceil(n * p) - 1);
}

/** The operator's answer: doubles (`$percentile` one per `p`, `$median` one), or null for each without a number. */
function answer(name: Quantile, ps: readonly number[], values: readonly number[] | undefined): unknown {
  if (name === '$median') return values ? storedDouble(values[0]!) : null;
  return values ? values.map(storedDouble) : ps.map(() => null);
}

/** `name` as a `$group` accumulator: every document's `input` that is a number counts (an array does not). */
function accumulator(name: Quantile): AccumulatorOperator {
  return (collection, expr, options) => {
    const spec = checkedSpec(name, expr, 'accumulator');
    const ps = requested(name, spec, {}, options);
    const samples = new Samples(name);
    // $push evaluates `input` with each document as its root.
    const inputs = ($push as AccumulatorOperator)(collection, spec.input, options) as unknown[];
    for (const value of inputs) {
      OperationBudget.tick();
      samples.add(value);
    }
    return answer(name, ps, samples.quantiles(ps));
  };
}

/**
 * `name` as an expression (mongod's ExpressionFromAccumulatorQuantile): a
 * number answers itself for every `p` (NaN too, as 7.0's `coerceToDouble`
 * gives it), a non-empty array its numbers' percentiles, anything else null.
 * mingo's `$group` runs an accumulator as an expression of its documents,
 * so an array of them is accumulated.
 */
function expression(name: Quantile): ExpressionOperator {
  const accumulate = accumulator(name);
  return (obj, expr, options) => {
    if (Array.isArray(obj)) return accumulate(obj, expr, options);
    const spec = checkedSpec(name, expr, 'expression');
    const ps = requested(name, spec, obj, options);
    const input: unknown = evalExpr(obj, spec.input, options);
    if (isBsonNumber(input)) return answer(name, ps, new Array<number>(ps.length).fill(toDouble(input)));
    const samples = new Samples(name);
    if (Array.isArray(input)) for (const item of input) samples.add(item);
    return answer(name, ps, samples.quantiles(ps));
  };
}

/**
 * The checks mongod makes while parsing either form, before any document is
 * read. A spec that is not a document is refused when it runs instead, where
 * the code (7429703 or 7436200, 7436100 or 7436201) tells the accumulator
 * from the expression; `p` is checked here when it is written out as a value.
 */
function checkWhileParsing(name: Quantile): (argument: unknown) => void {
  return (argument) => {
    if (typeAlias(argument) !== 'object') return;
    checkFields(name, argument as Document);
    if (name !== '$percentile') return;
    const { p } = argument as Document;
    checkConstant(p);
    if (isLiteral(p)) checkedPercentiles(p);
  };
}

/** `$percentile` and `$median` as `$group` accumulators (and for whatever else looks accumulators up by name). */
export const PERCENTILE_ACCUMULATOR_OPERATORS: Readonly<Record<Quantile, AccumulatorOperator>> = {
  $percentile: accumulator('$percentile'),
  $median: accumulator('$median'),
};

/** `$percentile` and `$median` as expressions; mingo's `$group` reaches them here too, with its documents. */
export const PERCENTILE_EXPRESSION_OPERATORS: Readonly<Record<Quantile, ExpressionOperator>> = {
  $percentile: expression('$percentile'),
  $median: expression('$median'),
};

/** Parse-time checks of `$percentile` and `$median` for expression-check.ts. */
export const PERCENTILE_ARGUMENT_CHECKS = new Map<string, (argument: unknown) => void>([
  ['$percentile', checkWhileParsing('$percentile')],
  ['$median', checkWhileParsing('$median')],
]);
