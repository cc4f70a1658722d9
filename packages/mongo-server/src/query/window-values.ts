/**
 * An expression's value for each document of a `$setWindowFields`
 * partition, each evaluated with the document as its root (`$a` reads the
 * document), as mingo's own accumulators evaluate theirs.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { pathsAsOperators } from './aggregation-paths.js';
import { OperationBudget } from './operation-budget.js';

/** mingo's options class (not exported): what operators are given, with `init` and `update`. */
interface ComputeOptionsClass {
  init(options: Options): Options & { update(locals: { root: unknown }): Options };
}

/** The value of `expr` (read with mongod's field paths) for each of `docs`; undefined where it is missing. */
export function valuesOf(docs: readonly Document[], expr: unknown, options: Options): unknown[] {
  const OptionsClass = (options as { constructor?: unknown }).constructor as ComputeOptionsClass | undefined;
  // One copy whose root moves from document to document.
  const scoped = typeof OptionsClass?.init === 'function' ? OptionsClass.init(options) : undefined;
  const rewritten = pathsAsOperators(expr);
  return docs.map((root) => {
    OperationBudget.tick();
    return evalExpr(root, rewritten, scoped ? scoped.update({ root }) : options) as unknown;
  });
}
