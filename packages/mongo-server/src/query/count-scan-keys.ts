import type { Document } from 'bson';

import { bsonTypeRank, NUMBER_RANK } from '../bson/bson-compare.js';
import { MaxKey, MinKey, ObjectId } from '../bson/bson-library.cjs';
import { INDEX_END, INDEX_START, type IndexEdge } from '../store/index-key-order.js';
import { FULL_RANGE, isSinglePoint } from './index-bounds.js';
import type { IndexScanPlan } from './query-planner.js';

/** A COUNT_SCAN's bounds as mongod's explain shows them: one interval of the index, in index order. */
export interface CountScanKeys {
  readonly startKey: Document;
  readonly startKeyInclusive: boolean;
  readonly endKey: Document;
  readonly endKeyInclusive: boolean;
}

interface KeyEnd {
  readonly value: unknown;
  readonly inclusive: boolean;
}

const OBJECT_ID_MIN = new ObjectId('000000000000000000000000');

/**
 * The values mongod's bounds start and end a type's range with, by type
 * rank: `$gt: 5` is `(5, inf.0]`, `$lt: 'b'` is `["", "b")`, and a string
 * range open upwards ends before `{}`, the first value of the next type.
 * Dates are left out: their range ends at ±2⁶³ ms, which a JavaScript Date
 * cannot hold.
 */
const TYPE_ENDS = new Map<number, readonly [KeyEnd, KeyEnd]>([
  [
    NUMBER_RANK,
    [
      { value: -Infinity, inclusive: true },
      { value: Infinity, inclusive: true },
    ],
  ],
  [
    bsonTypeRank(''),
    [
      { value: '', inclusive: true },
      { value: {}, inclusive: false },
    ],
  ],
  [
    bsonTypeRank(OBJECT_ID_MIN),
    [
      { value: OBJECT_ID_MIN, inclusive: true },
      { value: new ObjectId('ffffffffffffffffffffffff'), inclusive: true },
    ],
  ],
  [
    bsonTypeRank(true),
    [
      { value: false, inclusive: true },
      { value: true, inclusive: true },
    ],
  ],
]);

/** The key one edge of an interval stands for; undefined for a type whose ends are not shown here. */
function keyEnd(edge: IndexEdge, low: boolean): KeyEnd | undefined {
  if (edge.ofValue) return { value: edge.value, inclusive: low ? edge.side === -1 : edge.side === 1 };
  if (edge === INDEX_START) return { value: new MinKey(), inclusive: true };
  if (edge === INDEX_END) return { value: new MaxKey(), inclusive: true };
  return TYPE_ENDS.get(edge.rank)?.[low ? 0 : 1];
}

/**
 * The plan's bounds as one interval of the index, as mongod's
 * `IndexBoundsBuilder::isSingleInterval` builds it to turn a count's index
 * scan into a COUNT_SCAN: point bounds on leading fields, then at most one
 * field with a single interval, then only unbounded fields (MinKey or MaxKey,
 * chosen so the scan skips or takes the whole of the bounded field's end
 * values). Undefined when the bounds are not one interval. Keys are named
 * after the key pattern's fields, as mongod's stats name them.
 */
export function countScanKeys(plan: IndexScanPlan): CountScanKeys | undefined {
  const { fields } = plan.index.ordered;
  const start: [string, unknown][] = [];
  const end: [string, unknown][] = [];
  let startKeyInclusive = true;
  let endKeyInclusive = true;
  let i = 0;
  for (; i < fields.length && isSinglePoint(plan.bounds[i]!); i++) {
    const value = plan.bounds[i]![0]!.start.value;
    start.push([fields[i]!.path, value]);
    end.push([fields[i]!.path, value]);
  }
  if (i < fields.length) {
    const list = plan.bounds[i]!;
    if (list.length !== 1) return undefined;
    const low = keyEnd(list[0]!.start, true);
    const high = keyEnd(list[0]!.end, false);
    if (!low || !high) return undefined;
    // A descending field's interval runs from its high end in index order.
    const [first, last] = fields[i]!.direction === 1 ? [low, high] : [high, low];
    start.push([fields[i]!.path, first.value]);
    end.push([fields[i]!.path, last.value]);
    startKeyInclusive = first.inclusive;
    endKeyInclusive = last.inclusive;
    for (i++; i < fields.length; i++) {
      if (plan.bounds[i] !== FULL_RANGE) return undefined;
      const ascending = fields[i]!.direction === 1;
      // Past an exclusive start, skip every key of that value; up to an exclusive end, stop before any.
      start.push([fields[i]!.path, startKeyInclusive === ascending ? new MinKey() : new MaxKey()]);
      end.push([fields[i]!.path, endKeyInclusive === ascending ? new MaxKey() : new MinKey()]);
    }
  }
  // fromEntries: a field named `__proto__` stays an own key.
  return { startKey: Object.fromEntries(start), startKeyInclusive, endKey: Object.fromEntries(end), endKeyInclusive };
}
