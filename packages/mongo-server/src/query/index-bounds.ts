import type { Document } from 'bson';

import {
  bsonTypeRank,
  compareBson,
  isNaNNumber,
  isSubDocument,
  MAX_KEY_RANK,
  MIN_KEY_RANK,
  NUMBER_RANK,
} from '../bson/bson-compare.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { compareIndexValues, INDEX_END, INDEX_START, IndexEdge } from '../store/index-key-order.js';
import { isDbRefDocument } from './db-ref-fields.js';

/** The index values between two {@link IndexEdge}s, in ascending BSON order. */
export interface Interval {
  readonly start: IndexEdge;
  readonly end: IndexEdge;
}

/** Disjoint intervals in ascending order: the values one field may take. */
export type IntervalList = readonly Interval[];

/** Every value, missing included. */
export const FULL_RANGE: IntervalList = [{ start: INDEX_START, end: INDEX_END }];

const NULL_RANK = bsonTypeRank(null);
const REGEX_RANK = bsonTypeRank(/re/);

/** A sub-document that is not a regex (`isSubDocument` admits a RegExp, an operand here). */
function isPlainObject(value: unknown): value is Document {
  return isSubDocument(value) && !(value instanceof RegExp);
}

/** `{ $gt: 1, … }`: an object of operators rather than a document to compare with. */
export function isOperatorObject(value: unknown): value is Document {
  // `{ $ref: …, $id: … }` is a DBRef to compare with, not operators.
  return isPlainObject(value) && Object.keys(value)[0]?.startsWith('$') === true && !isDbRefDocument(value, false);
}

/**
 * Whether a query value gives bounds as the matcher reads it: not an array
 * (it matches the whole array or an element), not a regular expression (a
 * pattern, not a value), not `undefined`.
 */
function boundable(value: unknown): boolean {
  return value !== undefined && !Array.isArray(value) && bsonTypeRank(value) !== REGEX_RANK;
}

/** The interval of one value (and every value equal to it). */
export function point(value: unknown): Interval {
  return { start: IndexEdge.before(value), end: IndexEdge.after(value) };
}

/** Sorts and merges overlapping intervals. */
export function unionOf(intervals: Interval[]): IntervalList {
  const sorted = [...intervals].sort((a, b) => compareIndexValues(a.start, b.start));
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last && compareIndexValues(interval.start, last.end) <= 0) {
      if (compareIndexValues(interval.end, last.end) > 0)
        merged[merged.length - 1] = { start: last.start, end: interval.end };
    } else merged.push(interval);
  }
  return merged;
}

/** The values in both lists. */
export function intersectionOf(a: IntervalList, b: IntervalList): IntervalList {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const start = compareIndexValues(x.start, y.start) >= 0 ? x.start : y.start;
    const end = compareIndexValues(x.end, y.end) <= 0 ? x.end : y.end;
    if (compareIndexValues(start, end) < 0) out.push({ start, end });
    if (compareIndexValues(x.end, y.end) <= 0) i++;
    else j++;
  }
  return out;
}

/**
 * The values a field may take for one operator, with the matcher's type
 * bracketing (`$gt: 5` only numbers above 5, `$lt: 'b'` only strings below
 * 'b'); undefined when the operator gives no bounds ($ne, $regex, $elemMatch, …).
 */
export function operatorBounds(operator: string, value: unknown): IntervalList | undefined {
  if (operator === '$in') {
    if (!Array.isArray(value) || !value.every(boundable)) return undefined;
    return unionOf(value.map(point));
  }
  // mongod reads `{ $exists: false }` as `{ $eq: null }` for bounds (the matcher then drops the nulls):
  // a missing field's key is null. A sparse index lacks those documents, and the planner skips it.
  if (operator === '$exists') return value === false ? [point(null)] : undefined;
  if (!boundable(value)) return undefined;
  const rank = bsonTypeRank(value);
  if (operator === '$eq') return [point(value)];
  if (rank === NUMBER_RANK && isNaNNumber(value)) {
    // A range with NaN matches NaN alone (`$gte`, `$lte`) or nothing (`$gt`, `$lt`), as in mongod.
    if (operator === '$gte' || operator === '$lte') return [point(value)];
    return operator === '$gt' || operator === '$lt' ? [] : undefined;
  }
  // Numbers below start at -Infinity, as mongod's `[-inf.0, 5)`: NaN sorts lower, and no range matches it.
  // Below MaxKey and above MinKey lie all the other types, as the matcher has it: `[MinKey, MaxKey)`.
  const typeStart =
    rank === NUMBER_RANK
      ? IndexEdge.before(-Infinity)
      : rank === MAX_KEY_RANK
        ? INDEX_START
        : IndexEdge.typeStart(rank);
  const typeEnd = rank === MIN_KEY_RANK ? INDEX_END : IndexEdge.typeEnd(rank);
  switch (operator) {
    case '$gt':
      return [{ start: IndexEdge.after(value), end: typeEnd }];
    case '$gte':
      return [{ start: IndexEdge.before(value), end: typeEnd }];
    case '$lt':
      return [{ start: typeStart, end: IndexEdge.before(value) }];
    case '$lte':
      return [{ start: typeStart, end: IndexEdge.after(value) }];
  }
  return undefined;
}

/**
 * Each field's bounds, one list per condition on it: the conditions of the
 * filter's top level and of its `$and`s. Anything else (`$or`, `$nor`,
 * `$expr`, operators without bounds) narrows nothing here; the matcher
 * still applies it to every candidate.
 */
export function fieldConditions(
  filter: Document | undefined,
  out = new Map<string, IntervalList[]>(),
): Map<string, IntervalList[]> {
  if (!isPlainObject(filter)) return out;
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const clause of value) fieldConditions(clause as Document, out);
      continue;
    }
    if (key.startsWith('$')) continue;
    const lists: IntervalList[] = [];
    if (isOperatorObject(value)) {
      for (const [operator, operand] of Object.entries(value)) {
        const bounds = operatorBounds(operator, operand);
        if (bounds) lists.push(bounds);
      }
    } else {
      const bounds = operatorBounds('$eq', value);
      if (bounds) lists.push(bounds);
    }
    if (lists.length > 0) out.set(key, [...(out.get(key) ?? []), ...lists]);
  }
  return out;
}

/** Whether the list is exactly one value (every value equal to it in BSON order). */
export function isSinglePoint(list: IntervalList): boolean {
  if (list.length !== 1) return false;
  const { start, end } = list[0]!;
  return (
    start.side === -1 && end.side === 1 && start.ofValue && end.ofValue && compareBson(start.value, end.value) === 0
  );
}

/** Whether every interval is one value. */
export function isPoints(list: IntervalList): boolean {
  return list.every((interval) => isSinglePoint([interval]));
}

/** Whether the list admits null or a missing field (a sparse index lacks documents missing it). */
export function admitsNull(list: IntervalList): boolean {
  return list.some(
    (interval) => compareIndexValues(interval.start, null) < 0 && compareIndexValues(interval.end, null) > 0,
  );
}

/** Whether `value` lies in one of the intervals. */
export function contains(list: IntervalList, value: unknown): boolean {
  return list.some(
    (interval) => compareIndexValues(interval.start, value) < 0 && compareIndexValues(interval.end, value) > 0,
  );
}

const TYPE_EDGES: Record<number, [string, string]> = {
  [NULL_RANK]: ['null', 'null'],
  3: ['-inf.0', 'inf.0'],
  4: ['""', '{}'],
  5: ['{}', '[]'],
  6: ['[]', 'BinData(0, )'],
  8: ["ObjectId('000000000000000000000000')", "ObjectId('ffffffffffffffffffffffff')"],
  9: ['false', 'true'],
  10: ['new Date(-9223372036854775808)', 'new Date(9223372036854775807)'],
};

function formatEdge(edge: IndexEdge, low: boolean): string {
  if (edge.ofValue) return formatKeyValue(edge.value);
  if (edge === INDEX_START || edge === INDEX_END) return low ? 'MinKey' : 'MaxKey';
  const names = TYPE_EDGES[edge.rank];
  if (!names) return low ? 'MinKey' : 'MaxKey';
  return low ? names[0] : names[1];
}

/** MongoDB's rendering of bounds in explain, e.g. `["[5, 5]"]`, `["(3, inf.0]"]`, `["[MinKey, MaxKey]"]`. */
export function formatBounds(list: IntervalList, direction: 1 | -1): string[] {
  const rendered = list.map((interval) => {
    const open = interval.start.ofValue && interval.start.side === 1 ? '(' : '[';
    const close = interval.end.ofValue && interval.end.side === -1 ? ')' : ']';
    const low = formatEdge(interval.start, true);
    const high = formatEdge(interval.end, false);
    return direction === 1
      ? `${open}${low}, ${high}${close}`
      : `${close === ']' ? '[' : '('}${high}, ${low}${open === '[' ? ']' : ')'}`;
  });
  return direction === 1 ? rendered : rendered.reverse();
}
