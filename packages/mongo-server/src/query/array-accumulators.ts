/**
 * The `$push` and `$addToSet` accumulators (`$group`, `$bucket`,
 * `$setWindowFields`) as mongod's (accumulator_push.cpp,
 * accumulator_add_to_set.cpp): a value that evaluates to missing is left
 * out, where mingo's pushed a null for it (`$push: '$v'` over `{v: 1}`,
 * `{}` gave `[1, null]`, mongod `[1]`); `$addToSet` keeps one of the
 * values mongod takes as equal (`1`, `1.0`, `NumberLong(1)` and
 * `NumberDecimal('1')` are one value; strings by the command's collation),
 * the first one seen, where mingo kept each JavaScript value apart.
 *
 * Also the accumulators of the `n` family as mongod's
 * (accumulator_multi.cpp): `$minN`/`$maxN` leave out null and missing
 * values and order the rest in BSON order (numbers by value across their
 * types), `$top`/`$bottom` answer the one value (mingo answered it inside
 * an array), `$topN`/`$bottomN` sort in BSON order. In a `$group` mingo ran
 * the expression form of `$firstN`, `$lastN`, `$minN` and `$maxN` on the
 * group's documents (numeric-expressions.ts now hands them to these).
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import { $bottomN, $maxN, $minN, $topN } from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';

import { compareBson } from '../bson/bson-compare.js';
import { stringClasses } from '../bson/collation.js';
import { activeStringOrder } from '../bson/string-order.js';
import { joinKey } from './lookup-fields.js';
import { sortDocuments, type SortSpec } from './sort-documents.js';

type AccumulatorOperator = (collection: unknown[], expr: unknown, options: Options) => unknown;

/** mingo's options class (not exported): what operators are given, with `init` and `update`. */
interface ComputeOptionsClass {
  init(options: Options): Options & { update(locals: { root: unknown }): Options };
}

/** The value of `expr` for each document of `collection` that has one (missing values left out). */
function presentValues(collection: unknown[], expr: unknown, options: Options): unknown[] {
  const OptionsClass = (options as { constructor?: unknown }).constructor as ComputeOptionsClass | undefined;
  // One copy whose root moves from document to document, as mingo's own accumulators do it.
  const scoped = typeof OptionsClass?.init === 'function' ? OptionsClass.init(options) : undefined;
  const values: unknown[] = [];
  for (const root of collection) {
    const value: unknown = evalExpr(root, expr, scoped ? scoped.update({ root }) : options);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/** `$push`: every present value, in order. */
function push(collection: unknown[], expr: unknown, options: Options): unknown[] {
  return presentValues(collection, expr, options);
}

/** `$addToSet`: the present values, one of each class of values mongod takes as equal. */
function addToSet(collection: unknown[], expr: unknown, options: Options): unknown[] {
  const order = activeStringOrder();
  const canonical = order && stringClasses(order);
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const value of presentValues(collection, expr, options)) {
    const key = joinKey(value, canonical);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}

/**
 * `$minN` (`sign` 1) or `$maxN` (-1): the `n` least or greatest values in
 * BSON order, nulls and missing values left out. mingo's own accumulator is
 * called on no documents first for its checks of `n`.
 */
function extremes(sign: 1 | -1, checks: AccumulatorOperator): AccumulatorOperator {
  return (collection, expr, options) => {
    checks([], expr, options);
    const { n } = evalExpr((options as { local?: { groupId?: unknown } }).local?.groupId, expr, options) as Document;
    const values = presentValues(collection, (expr as Document).input, options).filter((value) => value !== null);
    values.sort((a, b) => compareBson(a, b) * sign);
    return values.slice(0, Number(n));
  };
}

/**
 * `$topN` (`sign` 1) or `$bottomN` (-1): `output` of the first or last `n`
 * documents by `sortBy`, in BSON order, listed in that order. mingo's own
 * accumulator is called on no documents first for its checks.
 */
function ends(sign: 1 | -1, checks: AccumulatorOperator): AccumulatorOperator {
  return (collection, expr, options) => {
    checks([], expr, options);
    const spec = expr as Document;
    const { n } = evalExpr((options as { local?: { groupId?: unknown } }).local?.groupId, spec, options) as Document;
    const sorted = sortDocuments(collection as Document[], spec.sortBy as SortSpec);
    const picked = sign === 1 ? sorted.slice(0, Number(n)) : sorted.slice(-Number(n));
    // The output of each picked document; a missing one is null, as mongod gives it.
    return picked.map((doc) => presentValues([doc], spec.output, options)[0] ?? null);
  };
}

/** `$top`/`$bottom`: the one value `$topN`/`$bottomN` of 1 picks, not inside an array. */
function single(many: AccumulatorOperator): AccumulatorOperator {
  return (collection, expr, options) => {
    const [first] = many(collection, { ...(expr as Document), n: 1 }, options) as unknown[];
    return first ?? null;
  };
}

const topN = ends(1, $topN as AccumulatorOperator);
const bottomN = ends(-1, $bottomN as AccumulatorOperator);

/** `$push`, `$addToSet` and the `n` family as mongod accumulates them. */
export const ARRAY_ACCUMULATOR_OPERATORS: Record<string, AccumulatorOperator> = {
  $push: push,
  $addToSet: addToSet,
  $minN: extremes(1, $minN as AccumulatorOperator),
  $maxN: extremes(-1, $maxN as AccumulatorOperator),
  $topN: topN,
  $bottomN: bottomN,
  $top: single(topN),
  $bottom: single(bottomN),
};
