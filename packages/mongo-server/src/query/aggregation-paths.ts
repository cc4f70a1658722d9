/**
 * Field paths in aggregation expressions (`$a.b`, `$$var.a.b`) read as
 * mongod reads them (ExpressionFieldPath::evaluatePath): through
 * sub-documents and the sub-documents of an array, skipping every other
 * element (an array of arrays gives nothing from its inner arrays), each
 * name a field name (`$a.0` is the field "0", not an index). mingo's own
 * reading answered inner arrays whole and took digits as indexes.
 *
 * mingo resolves a path string itself, with no operator to replace, so a
 * dotted path is handed to it as an operator of the server's own,
 * {@link PATH_OPERATOR}: operators' arguments, accumulators' arguments and
 * the expressions of the stages that evaluate one are rewritten as they run
 * (arrays and documents once, remembered by identity).
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { typeAlias } from './element-operators.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;
type AccumulatorOperator = (collection: unknown[], expr: unknown, options: Options) => unknown;

/** The operator a dotted path becomes; the parse checks refuse it from a client (expression-check.ts). */
export const PATH_OPERATOR = '$__fieldPath';

const REWRITTEN = new WeakMap<object, unknown>();

function isDocument(value: unknown): value is Document {
  return typeAlias(value) === 'object';
}

/** Whether `text` is a field path of more than one name (`$a.b`, `$$v.a`): one name reads the same either way. */
function isDottedPath(text: string): boolean {
  return text.length > 1 && text.charCodeAt(0) === 36 /* $ */ && text.includes('.');
}

/**
 * `expr` with its dotted paths made {@link PATH_OPERATOR} operators, down to
 * (not into) the next operator, which rewrites its own arguments when it
 * runs; `$literal` is left alone.
 */
export function pathsAsOperators(expr: unknown): unknown {
  if (typeof expr === 'string') return isDottedPath(expr) ? { [PATH_OPERATOR]: expr } : expr;
  if (expr === null || typeof expr !== 'object') return expr;
  const known = REWRITTEN.get(expr);
  if (known !== undefined) return known;
  let rewritten: unknown = expr;
  if (Array.isArray(expr)) {
    const items = expr.map(pathsAsOperators);
    if (items.some((item, i) => item !== expr[i])) rewritten = items;
  } else if (isDocument(expr)) {
    const keys = Object.keys(expr);
    // An operator rewrites its own arguments; a document of fields (`$switch`'s branches, `$let`'s vars) is walked.
    if (!(keys.length === 1 && keys[0]!.startsWith('$'))) {
      let changed = false;
      const out: Document = {};
      for (const key of keys) {
        const value = pathsAsOperators(expr[key]);
        if (value !== expr[key]) changed = true;
        // Defined, not assigned: a field named "__proto__" stays a field.
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      }
      if (changed) rewritten = out;
    }
  }
  REWRITTEN.set(expr, rewritten);
  return rewritten;
}

/** mongod's evaluatePath from `names[index]` of a document. */
function pathOfDocument(doc: Document, names: readonly string[], index: number): unknown {
  const value: unknown = Object.hasOwn(doc, names[index]!) ? doc[names[index]!] : undefined;
  if (index === names.length - 1) return value;
  if (isDocument(value)) return pathOfDocument(value, names, index + 1);
  if (Array.isArray(value)) return pathOfArray(value, names, index + 1);
  return undefined;
}

/** mongod's evaluatePathArray: the path in each sub-document of `array`, other elements skipped. */
function pathOfArray(array: readonly unknown[], names: readonly string[], index: number): unknown[] {
  const out: unknown[] = [];
  for (const item of array) {
    if (!isDocument(item)) continue;
    const value = pathOfDocument(item, names, index);
    if (value !== undefined) out.push(value);
  }
  return out;
}

/**
 * What mingo gives operators as their options (its ComputeOptions, which it
 * does not export): the root, where a `$a` path starts, and the variables in scope.
 */
export interface ComputeOptions {
  readonly local?: { root?: unknown; variables?: Document };
  update(locals: { root?: unknown; variables?: Document }): ComputeOptions;
}

/** {@link PATH_OPERATOR}: `$a.b` from the document mingo reads `$a` in, `$$v.a.b` from the variable's value. */
function fieldPath(obj: unknown, expr: unknown, options: Options): unknown {
  const text = expr as string;
  const variable = text.startsWith('$$');
  const names = text.slice(variable ? 2 : 1).split('.');
  let base: unknown;
  if (variable) base = evalExpr(obj, `$$${names[0]}`, options);
  // A `$a` path starts at mingo's root, which `$let` rebinding CURRENT also sets (mongod-expressions.ts).
  else base = (options as unknown as ComputeOptions).local?.root ?? obj;
  const start = variable ? 1 : 0;
  if (isDocument(base)) return pathOfDocument(base, names, start);
  if (Array.isArray(base) && variable) return pathOfArray(base, names, start);
  return undefined;
}

/** `operators` with their arguments' dotted paths read as mongod reads them, and {@link PATH_OPERATOR} itself. */
export function aggregationPathOperators(
  operators: Record<string, ExpressionOperator>,
): Record<string, ExpressionOperator> {
  const out: Record<string, ExpressionOperator> = { [PATH_OPERATOR]: fieldPath };
  for (const [name, operator] of Object.entries(operators)) {
    out[name] =
      name === '$literal' || name === '$const'
        ? operator
        : (obj, expr, options) => operator(obj, pathsAsOperators(expr), options);
  }
  return out;
}

/** Accumulators (`$sum: '$a.b'` in a `$group`) with their argument's dotted paths read as mongod reads them. */
export function aggregationPathAccumulators(
  operators: Record<string, AccumulatorOperator>,
): Record<string, AccumulatorOperator> {
  const out: Record<string, AccumulatorOperator> = {};
  for (const [name, operator] of Object.entries(operators)) {
    out[name] = (collection, expr, options) => operator(collection, pathsAsOperators(expr), options);
  }
  return out;
}

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

/** A stage's spec with its expression `field` rewritten (a spec that is not a document is the parse checks' to refuse). */
function withField(field: string): (spec: unknown) => unknown {
  return (spec) =>
    isDocument(spec) && Object.hasOwn(spec, field) ? { ...spec, [field]: pathsAsOperators(spec[field]) } : spec;
}

/** Where each stage that evaluates an expression itself (not through an operator) holds it. */
const STAGE_EXPRESSIONS: Readonly<Record<string, (spec: unknown) => unknown>> = {
  $group: withField('_id'),
  $bucket: withField('groupBy'),
  $bucketAuto: withField('groupBy'),
  $replaceRoot: withField('newRoot'),
  $setWindowFields: withField('partitionBy'),
  $lookup: withField('let'),
  $replaceWith: pathsAsOperators,
  $sortByCount: pathsAsOperators,
  $redact: pathsAsOperators,
};

/** Pipeline stages with the expressions they evaluate themselves read with mongod's paths. */
export function aggregationPathStages(operators: Record<string, PipelineOperator>): Record<string, PipelineOperator> {
  const out: Record<string, PipelineOperator> = { ...operators };
  for (const [name, rewrite] of Object.entries(STAGE_EXPRESSIONS)) {
    const operator = operators[name];
    if (operator) out[name] = (collection, expr, options) => operator(collection, rewrite(expr), options);
  }
  return out;
}
