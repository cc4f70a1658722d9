/**
 * The part of an ObjectId that every bson version (1.x to 7.x) shares.
 * Code that must accept ObjectIds from another copy of bson uses this shape
 * instead of `instanceof`, which fails across copies.
 */
export interface ObjectIdLike {
  readonly _bsontype: 'ObjectId' | 'ObjectID';
  toHexString(): string;
}

const HEX24 = /^[0-9a-fA-F]{24}$/;

/**
 * Whether `value` is an ObjectId instance from any bson copy, detected by its
 * `_bsontype` tag and a `toHexString()` that yields 24 hex characters.
 * A plain JSON object such as `{ "_bsontype": "ObjectId" }` is not one: it has
 * no callable `toHexString`.
 */
export function isObjectIdLike(value: unknown): value is ObjectIdLike {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const candidate = value as { _bsontype?: unknown; toHexString?: unknown };
  if (candidate._bsontype !== 'ObjectId' && candidate._bsontype !== 'ObjectID') {
    return false;
  }
  if (typeof candidate.toHexString !== 'function') {
    return false;
  }
  try {
    const hex: unknown = (candidate.toHexString as () => unknown).call(value);
    return typeof hex === 'string' && HEX24.test(hex);
  } catch {
    return false;
  }
}
