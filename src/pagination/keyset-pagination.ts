import { type ObjectId, isObjectIdLike } from '../core/index.js';
import { type IdCondition, mergeIdConditions } from './merge-id-conditions.js';

/** Largest page `keysetQuery()` allows unless told otherwise. */
export const MAX_KEYSET_LIMIT = 100;

/** A page of documents with the cursor for the next one (`null` on the last page). */
export interface KeysetPage<T> {
  items: T[];
  nextCursor: ObjectId | null;
}

/** Options of {@link keysetQuery}. */
export interface KeysetQueryOptions {
  /** Return documents whose `_id` is greater than this one (the previous page's `nextCursor`). */
  after?: ObjectId;
  /**
   * Page size.
   * @default 20
   */
  limit?: number;
  /**
   * Largest page size accepted.
   * @default 100
   */
  maxLimit?: number;
}

/** What `keysetQuery()` returns: spread into `find()`, `sort()` and `limit()`. */
export interface KeysetQuery {
  filter: Record<string, unknown>;
  sort: { _id: 1 };
  /** One more than the page size, so `toKeysetPage()` can tell whether another page follows. */
  limit: number;
}

/**
 * Builds a keyset ("seek") page query over `_id`: `{ _id: { $gt: after } }`
 * sorted by `_id` instead of `skip`, so every page costs one index seek
 * however deep it is. An existing `_id` condition in `filter` (a `dayRange()`
 * or `objectIdRange()`, say) is merged, not overwritten.
 *
 * @example
 * const q = keysetQuery({ categoryId }, { after, limit });
 * const page = toKeysetPage(await Product.find(q.filter).sort(q.sort).limit(q.limit).lean(), limit);
 */
export function keysetQuery(filter: Record<string, unknown> = {}, options: KeysetQueryOptions = {}): KeysetQuery {
  const { after, limit = 20, maxLimit = MAX_KEYSET_LIMIT } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    throw new RangeError(`keysetQuery: limit must be an integer from 1 to ${maxLimit}, received ${String(limit)}`);
  }
  if (after === undefined) {
    return { filter, sort: { _id: 1 }, limit: limit + 1 };
  }
  const existing = filter._id;
  if (existing === undefined) {
    return { filter: { ...filter, _id: { $gt: after } }, sort: { _id: 1 }, limit: limit + 1 };
  }
  if (isIdCondition(existing)) {
    // { $gte, $lt } from a time range plus { $gt: after }: one condition on the
    // index, keeping the stricter lower bound if there already is a $gt.
    return {
      filter: { ...filter, _id: mergeIdConditions(existing, { $gt: after }) },
      sort: { _id: 1 },
      limit: limit + 1,
    };
  }
  // An equality or other shape: both must hold.
  return {
    filter: { $and: [filter, { _id: { $gt: after } }] },
    sort: { _id: 1 },
    limit: limit + 1,
  };
}

/**
 * Cuts the `limit + 1` documents a {@link keysetQuery} fetched down to one page
 * and derives `nextCursor` from the last `_id` on it.
 */
export function toKeysetPage<T extends { _id: ObjectId }>(documents: T[], limit: number): KeysetPage<T> {
  const items = documents.slice(0, limit);
  const hasMore = documents.length > limit;
  return { items, nextCursor: hasMore ? items[items.length - 1]._id : null };
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
