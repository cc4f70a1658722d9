// The face of keyset pagination.
export {
  keysetQuery,
  toKeysetPage,
  type KeysetPage,
  type KeysetQuery,
  type KeysetQueryOptions,
} from './keyset-pagination.js';
export { mergeIdConditions, type IdCondition } from './merge-id-conditions.js';
