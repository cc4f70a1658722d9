/**
 * `$bucketAuto` without `granularity` as mongod fills its buckets
 * (document_source_bucket_auto.cpp): the documents sorted by their
 * `groupBy` value (BSON order under the collation, a missing value as
 * null, ties in input order), about `round(n / buckets)` per bucket, the
 * last bucket taking the rest; a bucket takes every further document with
 * the value it ended on, and its `max` is the next bucket's `min` (the last
 * one's own greatest value). Each is `{ _id: { min, max }, ...output }`
 * (`count` without `output`), accumulated by the server's `$group`. Its spec
 * is checked with mongod's codes before any document is read. mingo's
 * compared an Int64 by JavaScript's order (`{ min: 2, max: 1 }`), and put
 * `count` before `_id`. With `granularity`, mingo's stage still runs.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import { Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { compareBson, isBsonNumber } from '../bson/bson-compare.js';
import { formatValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { isGroupBy } from './bucket-stage.js';
import { toDouble } from './numeric-types.js';
import { OperationBudget } from './operation-budget.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

/** A checked `$bucketAuto` spec. */
interface BucketAutoSpec {
  readonly groupBy: unknown;
  readonly buckets: number;
  readonly output?: Document;
  readonly granularity?: string;
}

/** mongod's codes for each way a spec is wrong, in the order mongod checks them. */
export function parseBucketAuto(expr: Document): BucketAutoSpec {
  let groupBy: unknown;
  let buckets: number | undefined;
  let output: Document | undefined;
  let granularity: string | undefined;
  for (const [name, argument] of Object.entries(expr)) {
    if (name === 'groupBy') {
      // A path needs a name after its `$` here ($bucket takes a lone `$`).
      if (!isGroupBy(argument) || argument === '$') {
        throw new CommandError(
          'Location40239',
          `The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: ${formatValue(argument)}`,
        );
      }
      groupBy = argument;
    } else if (name === 'buckets') {
      if (!isBsonNumber(argument)) {
        throw new CommandError(
          'Location40241',
          `The $bucketAuto 'buckets' field must be a numeric value, but found type: ${typeAlias(argument)}`,
        );
      }
      const n = toDouble(argument);
      if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) {
        throw new CommandError(
          'Location40242',
          `The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found ${formatValue(n)}`,
        );
      }
      buckets = n;
    } else if (name === 'output') {
      if (typeAlias(argument) !== 'object') {
        throw new CommandError(
          'Location40244',
          `The $bucketAuto 'output' field must be an object, but found type: ${typeAlias(argument)}`,
        );
      }
      output = argument as Document;
    } else if (name === 'granularity') {
      if (typeof argument !== 'string') {
        throw new CommandError(
          'Location40261',
          `The $bucketAuto 'granularity' field must be a string, but found type: ${typeAlias(argument)}`,
        );
      }
      granularity = argument;
    } else {
      throw new CommandError('Location40245', `Unrecognized option to $bucketAuto: ${name}`);
    }
  }
  if (groupBy === undefined || buckets === undefined) {
    throw new CommandError('Location40246', "$bucketAuto requires 'groupBy' and 'buckets' to be specified");
  }
  if (buckets <= 0) {
    throw new CommandError(
      'Location40243',
      `The $bucketAuto 'buckets' field must be greater than 0, but found: ${buckets}`,
    );
  }
  return { groupBy, buckets, output, granularity };
}

/** One document with its `groupBy` value (null for missing). */
interface Keyed {
  readonly key: unknown;
  readonly doc: Document;
}

/** `$bucketAuto` through the server's `group` stage; mingo's (`original`) with a `granularity`. */
export function bucketAutoStage(original: PipelineOperator, group: PipelineOperator): PipelineOperator {
  return (collection, expr, options) => {
    const spec = parseBucketAuto(expr as Document);
    if (spec.granularity !== undefined) return original(collection, expr, options);
    const accumulators = spec.output ?? { count: { $sum: 1 } };
    return collection.transform((docs: Document[]) => {
      const keyed: Keyed[] = docs.map((doc) => {
        OperationBudget.tick();
        const key: unknown = evalExpr(doc, spec.groupBy, options);
        return { key: key === undefined ? null : key, doc };
      });
      // Array.prototype.sort is stable: equal values keep their input order.
      keyed.sort((a, b) => {
        OperationBudget.tick();
        return compareBson(a.key, b.key);
      });
      const size = Math.max(1, Math.round(keyed.length / spec.buckets));
      const out: Document[] = [];
      let next = 0;
      for (let bucket = 1; bucket <= spec.buckets && next < keyed.length; bucket++) {
        const start = next;
        const isLast = bucket === spec.buckets;
        next = isLast ? keyed.length : Math.min(keyed.length, start + size);
        // Every further document with the value the bucket ended on is in it too.
        while (next < keyed.length && compareBson(keyed[next]!.key, keyed[next - 1]!.key) === 0) next++;
        const members = keyed.slice(start, next);
        const max = next < keyed.length ? keyed[next]!.key : members[members.length - 1]!.key;
        const [accumulated] = group(
          Lazy(members.map((entry) => entry.doc)),
          { ...accumulators, _id: null },
          options,
        ).collect() as Document[];
        const result: Document = { _id: { min: members[0]!.key, max } };
        for (const field of Object.keys(accumulators)) {
          Object.defineProperty(result, field, {
            value: accumulated?.[field] ?? null,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        out.push(result);
      }
      return Lazy(out);
    });
  };
}
