/**
 * `$setWindowFields` through mingo's stage, with each accumulator over a
 * window that holds the whole partition (no `window`, or `['unbounded',
 * 'unbounded']`) computed once per partition instead of once per document:
 * mingo's stage hands every document of a partition the same array of
 * documents and called the accumulator again for each, so a partition total
 * over 2,000 documents took 2 s and one over 10,000 ran into the server's
 * time limit. The accumulator's result for the same documents and the same
 * arguments is the same, so it is kept by the identity of that array (a
 * bounded window gets a new array per document and is computed per
 * document, as before).
 */
import { Context } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { isSubDocument } from '../bson/bson-compare.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;
type AccumulatorOperator = (collection: unknown[], expr: unknown, options: Options) => unknown;

/** The operator names of the stage's `output` fields. */
function outputOperators(expr: unknown): string[] {
  const output = isSubDocument(expr) ? expr.output : undefined;
  if (!isSubDocument(output)) return [];
  const names = new Set<string>();
  for (const field of Object.values(output)) {
    if (!isSubDocument(field)) continue;
    for (const key of Object.keys(field)) if (key.startsWith('$')) names.add(key);
  }
  return [...names];
}

/** A copy of a kept result, so that no two documents share an array or document. */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return [...(value as unknown[])];
  return isSubDocument(value) ? { ...value } : value;
}

/** `accumulator`, its result kept per array of documents and arguments for as long as the array lives. */
function keptPerWindow(accumulator: AccumulatorOperator): AccumulatorOperator {
  const kept = new WeakMap<object, Map<unknown, unknown>>();
  return (collection, expr, options) => {
    let results = kept.get(collection);
    if (results === undefined) {
      results = new Map();
      kept.set(collection, results);
    }
    if (!results.has(expr)) results.set(expr, accumulator(collection, expr, options));
    return copyOf(results.get(expr));
  };
}

/** `options` with `context` in place of its own, as mingo's options class or as plain options. */
function withContext(options: Options, context: Context): Options {
  const computed = options as unknown as { options?: Options; local?: unknown; constructor: unknown };
  if (computed.options !== undefined && typeof computed.constructor === 'function') {
    const OptionsClass = computed.constructor as new (options: Options, locals: unknown) => Options;
    return new OptionsClass({ ...computed.options, context }, computed.local);
  }
  return { ...options, context };
}

/** mingo's `$setWindowFields` (`original`) with its accumulators computed once per unbounded window. */
export function windowFieldsStage(original: PipelineOperator): PipelineOperator {
  return (collection, expr, options) => {
    const context = options.context as Context | undefined;
    if (context === undefined) return original(collection, expr, options);
    const accumulators: Record<string, AccumulatorOperator> = {};
    for (const name of outputOperators(expr)) {
      const accumulator = context.getOperator('accumulator' as never, name) as AccumulatorOperator | null;
      if (accumulator) accumulators[name] = keptPerWindow(accumulator);
    }
    // The first context's operators win (Context.from merges left to right, keeping what it has).
    const windowContext = Context.from(
      Context.init({ accumulator: accumulators } as unknown as Parameters<typeof Context.init>[0]),
      context,
    );
    return original(collection, expr, withContext(options, windowContext));
  };
}
