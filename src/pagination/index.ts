// The face of keyset pagination.
export {
  decodeKeysetCursor,
  encodeKeysetCursor,
  type KeysetCursor,
  type KeysetCursorOptions,
  type KeysetValue,
} from './keyset-cursor.js';
export {
  keysetQuery,
  toKeysetPage,
  type KeysetCursorPage,
  type KeysetPage,
  type KeysetQuery,
  type KeysetQueryOptions,
  type KeysetQueryPage,
} from './keyset-pagination.js';
export { KeysetPaginationError, type KeysetPaginationErrorReason } from './keyset-pagination.error.js';
export { parseKeysetSort, type KeysetSort, type KeysetSortFields, type KeysetValueType } from './keyset-sort.js';
export { mergeIdConditions, type IdCondition } from './merge-id-conditions.js';
