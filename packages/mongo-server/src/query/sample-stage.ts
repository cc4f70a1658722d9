import type { Document } from 'bson';
import { type Iterator, Lazy } from 'mingo/lazy';

import { Decimal128, Double, Int32, Long } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';

/** mongod's `BSONElement::numberLong()` of a numeric value; undefined for any other type. */
function numberLong(value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'bigint') n = Number(value);
  else if (value instanceof Long) n = value.toNumber();
  else if (value instanceof Int32 || value instanceof Double) n = value.valueOf();
  else if (value instanceof Decimal128) n = Number(value.toString());
  else return undefined;
  // A double is truncated toward zero, saturating at the int64 range; NaN is 0.
  if (Number.isNaN(n)) return 0;
  return Math.trunc(Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n)));
}

/** The stage's `size`, checked with mongod's errors (`DocumentSourceSample::createFromBson`). */
function sampleSize(spec: unknown): number {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec) || spec instanceof Date) {
    throw new CommandError('Location28745', 'the $sample stage specification must be an object');
  }
  let size: number | undefined;
  for (const [field, value] of Object.entries(spec as Document)) {
    if (field !== 'size') throw new CommandError('Location28748', `unrecognized option to $sample: ${field}`);
    size = numberLong(value);
    if (size === undefined) throw new CommandError('Location28746', 'size argument to $sample must be a number');
    if (size < 0) throw new CommandError('Location28747', 'size argument to $sample must not be negative');
  }
  if (size === undefined) throw new CommandError('Location28749', '$sample stage must specify a size');
  return size;
}

/**
 * `$sample` as MongoDB runs it: `size` distinct documents in random order,
 * all of them when there are fewer. mingo's draws with replacement until it
 * has drawn exactly `size`, so `{ size: 1.5 }` or `{}` never ended and took
 * the hosting process down with it.
 */
export function sampleStage(collection: Iterator, spec: unknown): Iterator {
  const size = sampleSize(spec);
  return collection.transform((docs: unknown[]) => {
    const pool = docs.slice();
    const count = Math.min(size, pool.length);
    // The first `count` steps of a Fisher–Yates shuffle.
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(Math.random() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    pool.length = count;
    return Lazy(pool);
  });
}
