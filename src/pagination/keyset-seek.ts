import { isObjectIdLike } from '../core/index.js';
import type { KeysetCursor } from './keyset-cursor.js';
import { type IdCondition, mergeIdConditions } from './merge-id-conditions.js';

/**
 * `filter` narrowed to the documents past `cursor` in the direction of travel:
 * `up` when the page reads towards larger values (`after` an ascending
 * cursor, `before` a descending one).
 *
 * On `_id` the bound goes into the filter's own `_id` condition (a time range,
 * an `$in`), so the query stays one range scan. On another field `f`, with `_id`
 * as the tie-break, going up from `(v, id)` is
 * `{ f: { $gte: v }, $or: [{ f: { $gt: v } }, { f: v, _id: { $gt: id } }] }`.
 * Null and missing sort below every value, as in MongoDB: going down from a
 * value also takes `{ f: null }` (unless the sort's types leave null out),
 * and going up from null takes `{ f: { $ne: null } }`.
 */
export function seekFilter(
  filter: Record<string, unknown>,
  cursor: KeysetCursor,
  up: boolean,
): Record<string, unknown> {
  const op = up ? '$gt' : '$lt';
  const { field } = cursor.sort;
  if (field === '_id') {
    const bound = { [op]: cursor.id };
    const existing = filter._id;
    if (existing === undefined) return { ...filter, _id: bound };
    // { $gte, $lt } from a time range plus the cursor: one condition on the index, the tighter bounds kept.
    if (isIdCondition(existing)) return { ...filter, _id: mergeIdConditions(existing, bound) };
    return { $and: [filter, { _id: bound }] };
  }
  const tie = { [field]: cursor.value, _id: { [op]: cursor.id } };
  let seek: Record<string, unknown>;
  if (cursor.value === null) {
    seek = up ? { $or: [tie, { [field]: { $ne: null } }] } : tie;
  } else {
    const past = { [field]: { [op]: cursor.value } };
    const withNulls = !up && (cursor.sort.types?.includes('null') ?? true);
    // The redundant `f: { $gte: v }` (or `$lte`) lets a planner start the index scan at v instead of
    // reading the index from its start; it would drop the nulls, so not when they are wanted.
    const from = withNulls ? {} : { [field]: { [up ? '$gte' : '$lte']: cursor.value } };
    seek = { ...from, $or: withNulls ? [past, tie, { [field]: null }] : [past, tie] };
  }
  // Side by side when no key collides (the usual `{ categoryId, $or }`), else both under $and.
  return Object.keys(seek).some((key) => Object.hasOwn(filter, key))
    ? { $and: [filter, seek] }
    : { ...filter, ...seek };
}

const ID_OPERATORS = new Set(['$gt', '$gte', '$lt', '$lte', '$in']);

/** Whether `value` is an `_id` condition `mergeIdConditions()` can extend without changing its meaning. */
function isIdCondition(value: unknown): value is IdCondition {
  return (
    value !== null &&
    typeof value === 'object' &&
    !isObjectIdLike(value) &&
    !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.keys(value).every((key) => ID_OPERATORS.has(key))
  );
}
