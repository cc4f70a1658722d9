/**
 * Test names of the conformance specs ported from mongod's jstests: a value
 * as the mongo shell writes it (`NumberInt(5)`, `NumberLong("5")`, `5.0`,
 * `ISODate("…")`), so that a failing case reads like its source.
 */
import { Binary, Decimal128, type Document, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'mongodb';

/** A double as the shell prints it: an integral value with `.0`, negative zero as `-0.0`. */
export function doubleText(n: number): string {
  if (Object.is(n, -0)) return '-0.0';
  return Number.isInteger(n) && Math.abs(n) < 1e21 ? `${n}.0` : String(n);
}

/**
 * `value` as the shell writes it; a string that `labels` names (a stored
 * input's path, say) is shown by its label.
 */
export function shellText(value: unknown, labels: ReadonlyMap<string, string> = new Map()): string {
  const text = (v: unknown): string => shellText(v, labels);
  if (typeof value === 'string') return labels.get(value) ?? JSON.stringify(value);
  if (value === null) return 'null';
  if (value instanceof Double) return doubleText(value.value);
  if (value instanceof Int32) return `NumberInt(${value.value})`;
  // A Timestamp is a Long to the driver, so it is told first.
  if (value instanceof Timestamp) return `Timestamp(${value.t}, ${value.i})`;
  if (value instanceof Long) return `NumberLong("${value.toString()}")`;
  if (value instanceof Decimal128) return `NumberDecimal("${value.toString()}")`;
  if (value instanceof Date) return `ISODate("${value.toISOString()}")`;
  if (value instanceof ObjectId) return `ObjectId("${value.toHexString()}")`;
  if (value instanceof Binary) return `BinData(${value.sub_type}, "${value.toString('base64')}")`;
  if (value instanceof RegExp) return String(value);
  if (value instanceof MinKey) return 'MinKey';
  if (value instanceof MaxKey) return 'MaxKey';
  if (Array.isArray(value)) return `[${value.map(text).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Document)
      .map(([key, v]) => `${key}: ${text(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}
