import { isObjectIdLike } from './object-id-like.js';

/**
 * The nil ObjectId, all twelve bytes zero, as its 24 hex characters (Go's
 * `NilObjectID`). A string on purpose: strings are immutable, while an ObjectId
 * instance carries its bytes in writable fields, so one shared instance could be
 * changed for every importer at once. `new Types.ObjectId(NIL_OBJECT_ID)` makes
 * a fresh instance where one is needed.
 */
export const NIL_OBJECT_ID = '000000000000000000000000';

/**
 * Whether `value` is the nil ObjectId (Go's `IsZero()`): the string
 * `000000000000000000000000` or an ObjectId instance (from any bson copy) whose
 * bytes are all zero. Anything else, valid id or not, is `false`.
 */
export function isNilObjectId(value: unknown): boolean {
  if (typeof value === 'string') return value === NIL_OBJECT_ID;
  return isObjectIdLike(value) && value.toHexString() === NIL_OBJECT_ID;
}
