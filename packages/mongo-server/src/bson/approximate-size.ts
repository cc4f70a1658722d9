import { bsonTag } from './bson-compare.js';

/** What mongod counts for one value slot (the size of its `Value`). */
export const VALUE_BYTES = 16;

/**
 * About as many bytes as mongod's `Value::getApproximateSize()` counts for
 * `value`: 16 per value, plus the text of strings and field names and the
 * contents of documents and arrays. Memory limits (100 MiB per blocking stage,
 * `$push`, `$lookup`) are checked against it, so they trip where MongoDB's do.
 * Walks with an explicit stack (a deeply nested value cannot overflow the call
 * stack) and stops as soon as the total passes `stopAbove`, which keeps a
 * check against a limit cheap for a value far beyond it.
 */
export function approximateSize(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && total <= stopAbove) {
    const current = pending.pop();
    total += VALUE_BYTES;
    if (typeof current === 'string') {
      total += current.length;
    } else if (Array.isArray(current)) {
      for (const element of current as unknown[]) pending.push(element);
    } else if (isPlainDocument(current)) {
      for (const [key, field] of Object.entries(current)) {
        total += key.length;
        pending.push(field);
      }
    } else if (current instanceof Uint8Array) {
      total += current.byteLength;
    } else if (bsonTag(current) === 'Binary') {
      total += (current as { position: number }).position;
    }
  }
  return total;
}

function isPlainDocument(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
