/**
 * `$bucket` as mongod runs it (document_source_bucket.cpp): a `$group`
 * whose `_id` is a `$switch` putting each document in the bucket
 * `[boundaries[i], boundaries[i + 1])` (else `default`, else error 40066),
 * followed by a `$sort` on `_id`, both the server's own (BSON order, numbers
 * by value across their types, the collation). Its spec is checked with
 * mongod's codes before any document is read. mingo's put a value equal to
 * an inner boundary in the bucket below it (with boundaries `[0, 1, 2]`, 1
 * went to bucket 0), compared an Int64 by JavaScript's order (a
 * `NumberLong(1)` went to `default`), and emitted empty buckets.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { bsonTypeRank, compareBson } from '../bson/bson-compare.js';
import { formatValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

/** Evaluates a constant expression (no field path, no variable). */
export type Evaluate = (expr: unknown) => unknown;

/** A checked `$bucket` spec. */
interface BucketSpec {
  readonly groupBy: unknown;
  readonly boundaries: readonly unknown[];
  readonly default?: { value: unknown };
  readonly output?: Document;
}

/** Whether `expr` reads nothing of a document or a variable: no `$`-string outside `$literal`. */
function isConstant(expr: unknown): boolean {
  const stack = [expr];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string' && next.startsWith('$')) return false;
    if (Array.isArray(next)) {
      for (const element of next as unknown[]) stack.push(element);
    } else if (typeAlias(next) === 'object') {
      const doc = next as Document;
      if (Object.hasOwn(doc, '$literal')) continue;
      for (const key of Object.keys(doc)) stack.push(doc[key]);
    }
  }
  return true;
}

/** Whether a `groupBy` is what `$bucket` and `$bucketAuto` take: a `$`-path or an expression object. */
export function isGroupBy(argument: unknown): boolean {
  if (typeof argument === 'string') return argument.startsWith('$');
  return typeAlias(argument) === 'object' && (Object.keys(argument as Document)[0] ?? '').startsWith('$');
}

/** mongod's codes for each way a spec is wrong, in the order mongod checks them. */
export function parseBucket(expr: Document, evaluate: Evaluate): BucketSpec {
  let groupBy: unknown;
  let boundaries: unknown[] | undefined;
  let defaultValue: { value: unknown } | undefined;
  let output: Document | undefined;
  for (const [name, argument] of Object.entries(expr)) {
    if (name === 'groupBy') {
      if (!isGroupBy(argument)) {
        throw new CommandError(
          'Location40202',
          `The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: ${formatValue(argument)}.`,
        );
      }
      groupBy = argument;
    } else if (name === 'boundaries') {
      if (!Array.isArray(argument)) {
        throw new CommandError(
          'Location40200',
          `The $bucket 'boundaries' field must be an array, but found type: ${typeAlias(argument)}.`,
        );
      }
      boundaries = (argument as unknown[]).map((element) => {
        if (!isConstant(element)) {
          throw new CommandError(
            'Location40191',
            `The $bucket 'boundaries' field must be an array of constant values, but found value: ${formatValue(element)}.`,
          );
        }
        return evaluate(element);
      });
      if (boundaries.length < 2) {
        throw new CommandError(
          'Location40192',
          `The $bucket 'boundaries' field must have at least 2 values, but found ${boundaries.length} value(s).`,
        );
      }
      for (let i = 1; i < boundaries.length; i++) {
        const lower = boundaries[i - 1];
        const upper = boundaries[i];
        if (bsonTypeRank(lower) !== bsonTypeRank(upper)) {
          throw new CommandError(
            'Location40193',
            `All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types ${typeAlias(lower)} and ${typeAlias(upper)}.`,
          );
        }
        if (compareBson(lower, upper) >= 0) {
          throw new CommandError(
            'Location40194',
            `The 'boundaries' option to $bucket must be sorted, but elements ${i - 1} and ${i} are not in ascending order (${formatValue(lower)} is not less than ${formatValue(upper)}).`,
          );
        }
      }
    } else if (name === 'default') {
      if (!isConstant(argument)) {
        throw new CommandError(
          'Location40195',
          `The $bucket 'default' field must be a constant expression, but found: ${formatValue(argument)}.`,
        );
      }
      defaultValue = { value: evaluate(argument) };
    } else if (name === 'output') {
      if (typeAlias(argument) !== 'object') {
        throw new CommandError(
          'Location40196',
          `The $bucket 'output' field must be an object, but found type: ${typeAlias(argument)}.`,
        );
      }
      output = argument as Document;
    } else {
      throw new CommandError('Location40197', `Unrecognized option to $bucket: ${name}.`);
    }
  }
  if (groupBy === undefined || boundaries === undefined || boundaries.length === 0) {
    throw new CommandError('Location40198', "$bucket requires 'groupBy' and 'boundaries' to be specified.");
  }
  if (defaultValue !== undefined && bsonTypeRank(defaultValue.value) === bsonTypeRank(boundaries[0])) {
    const below = compareBson(defaultValue.value, boundaries[0]) < 0;
    const above = compareBson(defaultValue.value, boundaries[boundaries.length - 1]) >= 0;
    if (!below && !above) {
      throw new CommandError(
        'Location40199',
        "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary.",
      );
    }
  }
  return { groupBy, boundaries, default: defaultValue, output };
}

/** The `$group` mongod makes of a checked spec. */
function groupSpec(spec: BucketSpec): Document {
  const branches: Document[] = [];
  for (let i = 1; i < spec.boundaries.length; i++) {
    const lower = { $literal: spec.boundaries[i - 1] };
    const upper = { $literal: spec.boundaries[i] };
    branches.push({
      case: { $and: [{ $gte: [spec.groupBy, lower] }, { $lt: [spec.groupBy, upper] }] },
      then: lower,
    });
  }
  const $switch: Document = { branches };
  if (spec.default) $switch.default = { $literal: spec.default.value };
  return { ...(spec.output ?? { count: { $sum: 1 } }), _id: { $switch } };
}

/** `$bucket` through the server's `group` and `sort` stages. */
export function bucketStage(group: PipelineOperator, sort: PipelineOperator): PipelineOperator {
  return (collection, expr, options) => {
    const spec = parseBucket(expr as Document, (constant) => evalExpr({}, constant, options));
    return sort(group(collection, groupSpec(spec), options), { _id: 1 }, options);
  };
}
