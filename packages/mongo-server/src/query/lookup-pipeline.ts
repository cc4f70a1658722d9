/**
 * `$lookup` with `let` and `pipeline` (no `localField`/`foreignField`)
 * without running the sub-pipeline over the whole foreign collection for
 * every local document, as mingo's does (200 orders joined to 10,000
 * products by `$expr: { $eq: ['$_id', '$$pid'] }` took 9.7 s, near the
 * server's time limit), in the two ways mongod avoids it:
 *
 * - a pipeline that starts with a `$match` whose `$expr` requires
 *   `{ $eq: ['$<field>', '$$<let variable>'] }` (alone or in an `$and`) runs
 *   over only the foreign documents whose field may equal the variable's
 *   value, found in `$lookup`'s hash table of that field built once per stage, where
 *   mongod would read an index; the `$match` itself still decides;
 * - a pipeline that reads no `let` variable gives every local document the
 *   same documents, so it runs once per stage, as
 *   mongod's cache of a non-correlated sub-pipeline does; unless it draws
 *   random values (`$sample`, `$rand`), which differ per document.
 *
 * Either way the stage's output is mingo's for the same input, except that
 * a dotted `as` sets a path (`x.y` is `{ x: { y: [...] } }`), as mongod's
 * does, where mingo's wrote one field named `x.y`.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import { Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { isSubDocument } from '../bson/bson-compare.js';
import { stringClasses } from '../bson/collation.js';
import { activeStringOrder } from '../bson/string-order.js';
import { pathsAsOperators } from './aggregation-paths.js';
import { ForeignTable, foreignDocuments, withPath } from './lookup-fields.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

interface PipelineSpec {
  from: string;
  as: string;
  let?: Document;
  pipeline: Document[];
}

/** The stage's spec when it is the `let`/`pipeline` form over a named collection, else `undefined`. */
function pipelineSpec(expr: unknown): PipelineSpec | undefined {
  if (!isSubDocument(expr)) return undefined;
  const { from, as, pipeline, localField, foreignField } = expr;
  if (typeof from !== 'string' || typeof as !== 'string' || !Array.isArray(pipeline)) return undefined;
  if (localField !== undefined || foreignField !== undefined) return undefined;
  if (expr.let !== undefined && !isSubDocument(expr.let)) return undefined;
  return expr as unknown as PipelineSpec;
}

/** A `$match`'s equality between a foreign field and a `let` variable. */
interface Correlation {
  /** The foreign document's top-level field. */
  readonly field: string;
  /** The `let` expression whose value the field must equal. */
  readonly value: unknown;
}

/** `'$name'` (a top-level field, no dots) → `name`. */
function fieldOf(operand: unknown): string | undefined {
  if (typeof operand !== 'string' || !operand.startsWith('$') || operand.startsWith('$$')) return undefined;
  const name = operand.slice(1);
  return name.length > 0 && !name.includes('.') ? name : undefined;
}

/** `'$$name'` for a variable `let` defines → its expression. */
function variableOf(operand: unknown, variables: Document): { expr: unknown } | undefined {
  if (typeof operand !== 'string' || !operand.startsWith('$$')) return undefined;
  const name = operand.slice(2);
  return Object.hasOwn(variables, name) ? { expr: variables[name] } : undefined;
}

/** The correlation `condition` (an `$expr`'s expression) requires, if any: an `$eq`, or one of an `$and`'s. */
function correlationIn(condition: unknown, variables: Document): Correlation | undefined {
  if (!isSubDocument(condition)) return undefined;
  const keys = Object.keys(condition);
  if (keys.length !== 1) return undefined;
  const operands = condition[keys[0]];
  if (keys[0] === '$and' && Array.isArray(operands)) {
    for (const conjunct of operands) {
      const found = correlationIn(conjunct, variables);
      if (found) return found;
    }
    return undefined;
  }
  if (keys[0] !== '$eq' || !Array.isArray(operands) || operands.length !== 2) return undefined;
  for (const [left, right] of [operands, [...operands].reverse()]) {
    const field = fieldOf(left);
    const variable = variableOf(right, variables);
    if (field !== undefined && variable !== undefined) return { field, value: variable.expr };
  }
  return undefined;
}

/** The correlation the pipeline's leading `$match` requires of every document it keeps. */
function leadingCorrelation(spec: PipelineSpec): Correlation | undefined {
  const [first] = spec.pipeline;
  if (spec.let === undefined || !isSubDocument(first) || !isSubDocument(first.$match)) return undefined;
  return correlationIn(first.$match.$expr, spec.let);
}

/** Where the joined documents wait for a dotted `as` (a name no stored field has: BSON field names hold no NUL). */
const JOINED = '\u0000joined';

/** Stages and operators whose results differ from one run to the next. */
const RANDOM = new Set(['$sample', '$rand']);

/** Whether `value` (a pipeline) names a random stage or operator anywhere. */
function drawsRandom(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (Array.isArray(next)) {
      // One by one: a spread of a huge array would overflow the stack.
      for (const element of next as unknown[]) stack.push(element);
    } else if (isSubDocument(next)) {
      for (const key of Object.keys(next)) {
        if (RANDOM.has(key)) return true;
        stack.push(next[key]);
      }
    }
  }
  return false;
}

/** Whether a string anywhere in `value` reads one of `names` as a variable (`$$name`, `$$name.field`). */
function readsVariable(value: unknown, names: readonly string[]): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') {
      if (next.startsWith('$$') && names.some((name) => next === `$$${name}` || next.startsWith(`$$${name}.`))) {
        return true;
      }
    } else if (Array.isArray(next)) {
      for (const element of next as unknown[]) stack.push(element);
    } else if (isSubDocument(next)) {
      for (const key of Object.keys(next)) stack.push(next[key]);
    }
  }
  return false;
}

/**
 * Whether the pipeline gives every local document the same result: it reads
 * no variable of the stage's `let` (a string naming one anywhere counts, even
 * one a `$let` inside rebinds) and draws nothing random.
 */
function uncorrelated(spec: PipelineSpec): boolean {
  return !readsVariable(spec.pipeline, Object.keys(spec.let ?? {})) && !drawsRandom(spec.pipeline);
}

/** `$lookup`'s `let`/`pipeline` form as described above; `next` (the other forms' stage) for anything else. */
export function lookupByPipeline(next: PipelineOperator): PipelineOperator {
  const stage: PipelineOperator = (collection, expr, options) => {
    const spec = pipelineSpec(expr);
    if (spec === undefined) return next(collection, expr, options);
    if (spec.as.includes('.')) {
      // mingo writes `as` as one field name; mongod sets the dotted path (`x.y` is `{ x: { y } }`).
      return stage(collection, { ...spec, as: JOINED }, options).map((doc: Document) => {
        const { [JOINED]: joined, ...rest } = doc;
        return withPath(rest, spec.as, joined);
      });
    }
    const correlation = leadingCorrelation(spec);
    if (correlation !== undefined) {
      const valueExpr = pathsAsOperators(correlation.value);
      let table: ForeignTable | undefined;
      return collection.map((doc: Document) => {
        if (table === undefined) {
          // The command's string order (its collation, else the local collection's), as the `$match` compares.
          const order = activeStringOrder();
          table = new ForeignTable(
            foreignDocuments(spec.from, options),
            [correlation.field],
            order && stringClasses(order),
          );
        }
        // `$in`'s keys: a field's array also under each element, a superset of `$eq`'s that the `$match` narrows.
        const candidates = table.matching([evalExpr(doc, valueExpr, options)]);
        return next(Lazy([doc]), { ...spec, from: candidates }, options).collect()[0];
      });
    }
    if (!uncorrelated(spec)) return next(collection, expr, options);
    let joined: Document[] | undefined;
    return collection.map((doc: Document) => {
      // Run once, for the first document: the result cannot depend on which.
      joined ??= (next(Lazy([{}]), { ...spec, as: 'joined' }, options).collect()[0] as Document).joined as Document[];
      return next(Lazy([doc]), { from: joined, as: spec.as, pipeline: [] }, options).collect()[0];
    });
  };
  return stage;
}
