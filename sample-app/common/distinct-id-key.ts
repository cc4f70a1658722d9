import { Types } from 'mongoose';

/**
 * The key `@ArrayUnique` compares ids by: lowercase hex for an id string or an
 * ObjectId, the value itself for anything else (which the id validator then
 * refuses). Never `String(value)`: a client's `{"toString": 1}` would make that
 * throw, and a 400 become a 500.
 */
export function distinctIdKey(id: unknown): unknown {
  if (typeof id === 'string') return id.toLowerCase();
  return id instanceof Types.ObjectId ? id.toHexString() : id;
}
