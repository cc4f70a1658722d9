import { type ObjectId, isObjectIdLike } from '../core/index.js';
import {
  decodeKeysetCursor,
  encodeKeysetCursor,
  keysetCursorOf,
  type KeysetCursor,
  type KeysetCursorOptions,
} from './keyset-cursor.js';
import { KeysetPaginationError } from './keyset-pagination.error.js';
import { seekFilter } from './keyset-seek.js';
import { formatKeysetSort, ID_ASCENDING, type KeysetSort } from './keyset-sort.js';

/** Largest page `keysetQuery()` allows unless told otherwise. */
export const MAX_KEYSET_LIMIT = 100;

/** A page of documents with the `_id` to pass as `after` for the next one (`null` on the last page). */
export interface KeysetPage<T> {
  items: T[];
  nextCursor: ObjectId | null;
}

/**
 * A page of documents with opaque cursors both ways. `hasNext` is exactly
 * `nextCursor !== null`, `hasPrevious` exactly `previousCursor !== null`; an
 * empty page (a cursor past the end) has neither.
 */
export interface KeysetCursorPage<T> {
  items: T[];
  /** Pass as `after` for the page that follows; `null` on the last page. */
  nextCursor: string | null;
  /** Pass as `before` for the page that precedes; `null` on the first page. */
  previousCursor: string | null;
  hasNext: boolean;
  hasPrevious: boolean;
}

/** Options of {@link keysetQuery}. */
export interface KeysetQueryOptions extends KeysetCursorOptions {
  /**
   * Documents after this position: a cursor string (`nextCursor` of the
   * previous page), or an `_id` when the sort is `_id` or `-_id`.
   */
  after?: ObjectId | string;
  /** Documents before this position (`previousCursor` of the following page), in the same forms. */
  before?: ObjectId | string;
  /**
   * The order, from `parseKeysetSort()` or written out; `_id` is always the tie-break.
   * @default { field: '_id', direction: 1 } (oldest first)
   */
  sort?: KeysetSort;
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

/** What `keysetQuery()` returns: spread into `find()`, `sort()` and `limit()`, then hand to `toKeysetPage()`. */
export interface KeysetQuery {
  filter: Record<string, unknown>;
  /** The list's order, reversed for a `before` page (`toKeysetPage()` turns the page back round). */
  sort: Record<string, 1 | -1>;
  /** One more than the page size, so `toKeysetPage()` can tell whether another page follows. */
  limit: number;
  /** What `toKeysetPage()` needs to cut, order and label the page. */
  page: KeysetQueryPage;
}

/** The page a {@link KeysetQuery} asks for. */
export interface KeysetQueryPage {
  size: number;
  sort: KeysetSort;
  /** Where it starts: the first page, after a cursor or before one. */
  from: 'start' | 'after' | 'before';
  cursor: KeysetCursorOptions;
}

/**
 * Builds a keyset ("seek") page query: documents past the cursor in the
 * list's order, sorted by the field and then `_id`, instead of `skip`, so
 * every page costs one index seek however deep it is. An existing `_id`
 * condition in `filter` (a `dayRange()` or `objectIdRange()`, say) is merged
 * with an `_id` cursor, not overwritten. A cursor string is checked by
 * `decodeKeysetCursor()`: a bad one throws a {@link KeysetPaginationError}
 * (answer 400), a bad `limit` a `RangeError` (validate it first).
 *
 * @example
 * const sort = parseKeysetSort(query.sort ?? '-_id', { price: 'number' });
 * const q = keysetQuery({ categoryId }, { sort, after, before, limit });
 * const page = toKeysetPage(await Product.find(q.filter).sort(q.sort).limit(q.limit).lean(), q);
 */
export function keysetQuery(filter: Record<string, unknown> = {}, options: KeysetQueryOptions = {}): KeysetQuery {
  const { after, before, sort = ID_ASCENDING, limit = 20, maxLimit = MAX_KEYSET_LIMIT, secret, maxLength } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    throw new RangeError(`keysetQuery: limit must be an integer from 1 to ${maxLimit}, received ${String(limit)}`);
  }
  const cursorOptions: KeysetCursorOptions = { secret, maxLength };
  if (after !== undefined && before !== undefined) {
    throw new KeysetPaginationError('conflict', 'after and before cannot be used together; send one of them');
  }
  const from = after !== undefined ? 'after' : before !== undefined ? 'before' : 'start';
  const page: KeysetQueryPage = { size: limit, sort, from, cursor: cursorOptions };
  const order = { [sort.field]: sort.direction, ...(sort.field === '_id' ? {} : { _id: sort.direction }) };
  if (from === 'start') {
    return { filter, sort: order, limit: limit + 1, page };
  }
  const cursor = toCursor((after ?? before)!, sort, cursorOptions, from);
  // Reading upwards: after an ascending cursor, or before a descending one.
  const up = (from === 'after') === (sort.direction === 1);
  const reversed = from === 'before' ? Object.fromEntries(Object.entries(order).map(([k, d]) => [k, -d])) : order;
  return { filter: seekFilter(filter, cursor, up), sort: reversed as Record<string, 1 | -1>, limit: limit + 1, page };
}

/**
 * Cuts the `limit + 1` documents a {@link keysetQuery} fetched down to one
 * page. Given the query, it returns opaque cursors both ways (a `before` page
 * comes back in the list's order); given only the page size, as before, the
 * `_id` of the last document as `nextCursor`.
 */
export function toKeysetPage<T extends { _id: ObjectId }>(documents: T[], query: KeysetQuery): KeysetCursorPage<T>;
export function toKeysetPage<T extends { _id: ObjectId }>(documents: T[], limit: number): KeysetPage<T>;
export function toKeysetPage<T extends { _id: ObjectId }>(
  documents: T[],
  query: KeysetQuery | number,
): KeysetPage<T> | KeysetCursorPage<T> {
  if (typeof query === 'number') {
    const items = documents.slice(0, query);
    return { items, nextCursor: documents.length > query ? items[items.length - 1]._id : null };
  }
  const { size, sort, from, cursor } = query.page;
  const items = documents.slice(0, size);
  const more = documents.length > size;
  if (from === 'before') items.reverse();
  // Past a cursor, the other side held at least the document the cursor was made from.
  const hasNext = items.length > 0 && (from === 'before' || more);
  const hasPrevious = items.length > 0 && (from === 'after' || (from === 'before' && more));
  const encode = (document: T) => encodeKeysetCursor(keysetCursorOf(document, sort), cursor);
  return {
    items,
    nextCursor: hasNext ? encode(items[items.length - 1]) : null,
    previousCursor: hasPrevious ? encode(items[0]) : null,
    hasNext,
    hasPrevious,
  };
}

/** The position `after`/`before` names: a decoded cursor string, or an `_id` in an `_id` order. */
function toCursor(position: unknown, sort: KeysetSort, options: KeysetCursorOptions, name: string): KeysetCursor {
  if (isObjectIdLike(position)) {
    if (sort.field !== '_id') {
      throw new KeysetPaginationError(
        'sort-mismatch',
        `${name}: an _id is a position in _id order only; for sort=${formatKeysetSort(sort)} pass a cursor string`,
      );
    }
    const id = position as ObjectId;
    return { sort, value: id, id };
  }
  return decodeKeysetCursor(position, sort, options, name);
}
