import { KeysetPaginationError } from './keyset-pagination.error.js';

/**
 * BSON types a keyset cursor can carry. `'number'` covers doubles, 32- and
 * 64-bit integers (`Long`) and `Decimal128`, which MongoDB compares as one
 * type; `'null'` stands for null and missing, which sort as one value below
 * all others.
 */
export type KeysetValueType = 'number' | 'string' | 'date' | 'objectId' | 'null';

/** An order of a list: one field, then `_id` in the same direction as the tie-break. */
export interface KeysetSort {
  /** The field, or `_id` alone. A dotted path reaches into sub-documents. */
  field: string;
  /** `1` ascending, `-1` descending (newest first for `_id`). */
  direction: 1 | -1;
  /**
   * Types the field holds; a cursor carrying another type is refused and a
   * document holding another type cannot be made into a cursor. Without it,
   * any supported type passes. MongoDB compares `$gt`/`$lt` within one type
   * only, so a field must hold one type (plus `'null'` when it may be missing).
   */
  types?: readonly KeysetValueType[];
}

/** Sort fields a list offers, each with the types it holds, e.g. `{ price: 'number', name: 'string' }`. */
export type KeysetSortFields = Readonly<Record<string, KeysetValueType | readonly KeysetValueType[]>>;

/** Oldest first: what `keysetQuery()` pages in without a `sort`. */
export const ID_ASCENDING: KeysetSort = Object.freeze({ field: '_id', direction: 1, types: ['objectId'] as const });

const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const SHOWN_LENGTH = 40;

/** The sort as a client writes it: `price`, `-price`, `-_id`. */
export function formatKeysetSort(sort: KeysetSort): string {
  return `${sort.direction === -1 ? '-' : ''}${sort.field}`;
}

/**
 * Reads a client's `sort=` text, `field` or `-field`, against the fields a
 * list offers (each should lead an index `{ field: 1, _id: 1 }`; MongoDB walks
 * it backwards for `-field`). `_id` and `-_id` are always offered. Throws a
 * {@link KeysetPaginationError} naming the choices.
 *
 * @example parseKeysetSort(query.sort ?? '_id', { price: 'number', name: 'string' })
 */
export function parseKeysetSort(text: unknown, fields: KeysetSortFields = {}): KeysetSort {
  const offered = ['_id', ...Object.keys(fields).filter((name) => name !== '_id')];
  for (const name of offered) {
    if (!FIELD_PATH.test(name)) {
      throw new TypeError(`parseKeysetSort: "${name}" is not a field path (letters, digits, _ and dots)`);
    }
  }
  const choices = offered.flatMap((name) => [name, `-${name}`]).join(', ');
  if (Array.isArray(text)) {
    throw new KeysetPaginationError('sort', `sort is given ${text.length} times; send it once, one of ${choices}`);
  }
  if (typeof text !== 'string') {
    throw new KeysetPaginationError('sort', `sort must be one of ${choices}`);
  }
  const descending = text.startsWith('-');
  const field = descending ? text.slice(1) : text;
  // Own names only: `constructor` or `__proto__` are not fields of any list.
  if (field === '_id') {
    return { field, direction: descending ? -1 : 1, types: ['objectId'] };
  }
  if (!Object.hasOwn(fields, field)) {
    const shown = text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text;
    throw new KeysetPaginationError('sort', `sort must be one of ${choices}; got ${JSON.stringify(shown)}`);
  }
  const types = fields[field];
  return { field, direction: descending ? -1 : 1, types: typeof types === 'string' ? [types] : [...types] };
}
