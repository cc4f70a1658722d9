import type { Document } from 'bson';

import { Double, Long } from '../bson/bson-library.cjs';

/**
 * A query condition (filter, `arrayFilters`, `$pull` condition, `$match`,
 * `$elemMatch`) made safe to hand to mingo: every Int64 `bigint` becomes a
 * `Long`. mingo's `Query` eagerly `JSON.stringify()`s its whole condition
 * for an assertion message, which throws "Do not know how to serialize a
 * BigInt"; the comparators the embedded server plugs into mingo
 * (`bson-compare.ts`) treat `Long` and `bigint` as the same Int64 value.
 * Only conditions go through here — values that get stored (`$set`, `$push`)
 * keep their `bigint` so documents hold one Int64 representation.
 */
export function conditionForMingo<T>(value: T): T {
  return convert(value) as T;
}

function convert(value: unknown): unknown {
  if (typeof value === 'bigint') return Long.fromBigInt(value);
  // A condition compares numbers by value, so an integral double's marker (wire/integral-doubles.ts) can be its number.
  if (value instanceof Double) return value.value;
  if (Array.isArray(value)) return value.map(convert);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Document = {};
    // A bit test's mask stays a double where it was one: mongod's errors print it as one ("-1.0").
    for (const [key, v] of Object.entries(value))
      out[key] = key.startsWith('$bits') && v instanceof Double ? v : convert(v);
    return out;
  }
  return value;
}
