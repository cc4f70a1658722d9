import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import { Lazy, type Iterator } from 'mingo/lazy';
import { $push } from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';

import { compareBson } from '../bson/bson-compare.js';
import { stringClasses } from '../bson/collation.js';
import { activeStringOrder } from '../bson/string-order.js';
import { encodeIndexValue } from '../bson/index-key-encoder.js';
import { OperationBudget } from './operation-budget.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

/**
 * `$group` with MongoDB's key equality: mingo hashes `1`, `1n` and `1.0`
 * (or `{ a: 1 }` and `{ a: 1n }`) into different groups, MongoDB puts them in
 * one. The keys are partitioned here by their index-key encoding (numbers by
 * value, null and missing alike); each partition then runs through mingo's
 * own `$group` with its key as a literal, so every accumulator still works.
 * The group's `_id` is the first key value seen, as in MongoDB. Under a
 * collation, string keys equal by it are one group.
 */
export function bsonGroup(
  collection: Iterator,
  expr: Document,
  options: Options,
  mingoGroup: PipelineOperator,
): Iterator {
  return collection.transform((items: Document[]) => {
    const partitions = new Map<string, { id: unknown; items: Document[] }>();
    const order = activeStringOrder();
    const canonical = order && stringClasses(order);
    for (const item of items) {
      OperationBudget.tick();
      const id: unknown = evalExpr(item, expr._id, options) ?? null;
      const key = encodeIndexValue(id, canonical);
      const partition = partitions.get(key);
      if (partition) partition.items.push(item);
      else partitions.set(key, { id, items: [item] });
    }
    const groups: unknown[] = [];
    for (const { id, items: members } of partitions.values()) {
      groups.push(...mingoGroup(Lazy(members), { ...expr, _id: { $literal: id } }, options).collect());
    }
    return Lazy(groups);
  });
}

function extreme(sign: 1 | -1) {
  return (collection: unknown[], expr: unknown, options: Options): unknown => {
    // $push evaluates `expr` per document ($group) or passes the argument array through (expression form).
    const values = ($push as (c: unknown[], e: unknown, o: Options) => unknown[])(collection, expr, options);
    let best: unknown = null;
    for (const value of values) {
      // null and missing never win; MongoDB returns null only when nothing else is there.
      if (value === null || value === undefined) continue;
      if (best === null || compareBson(value, best) * sign > 0) best = value;
    }
    return best;
  };
}

/** `$min`/`$max` (accumulators and, through mingo's fallback, expressions) in BSON order, keeping the winner's type. */
export const BSON_ACCUMULATOR_OPERATORS = {
  $max: extreme(1),
  $min: extreme(-1),
};
