import { bsonTag, isBsonNumber, toExactNumber } from './bson-compare.js';
import { objectIdHex } from './object-id-words.js';

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function encodeNumber(value: unknown): string {
  // An integral double (wire/integral-doubles.ts) is the same key as the int32 of its value.
  if (bsonTag(value) === 'Double') value = (value as { value: number }).value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return `n${value === 0 ? 0 : value}`;
  if (typeof value === 'bigint') return `n${value}`;
  const exact = toExactNumber(value);
  if (exact.kind !== 'finite') return `n${exact.kind}`;
  const divisor = gcd(exact.num, exact.den);
  const num = exact.num / divisor;
  const den = exact.den / divisor;
  return den === 1n ? `n${num}` : `n${num}/${den}`;
}

/**
 * Canonical text for a BSON value such that two values get the same text
 * exactly when MongoDB treats them as the same index key: numbers by value
 * across int32/Int64/double/Decimal128, null and missing alike, strings
 * binary (or, given `canonical`, by a collation's representative of their
 * class), embedded documents field order included.
 */
export function encodeIndexValue(value: unknown, canonical?: (text: string) => string): string {
  if (value === undefined || value === null) return 'N';
  if (isBsonNumber(value)) return encodeNumber(value);
  switch (typeof value) {
    case 'string':
      return `s${JSON.stringify(canonical ? canonical(value) : value)}`;
    case 'boolean':
      return value ? 'bt' : 'bf';
  }
  if (Array.isArray(value)) return `[${value.map((element) => encodeIndexValue(element, canonical)).join(',')}]`;
  if (value instanceof Date) return `d${value.getTime()}`;
  if (value instanceof RegExp) return `r${JSON.stringify(`${value.source}/${value.flags}`)}`;
  switch (bsonTag(value)) {
    case 'ObjectId':
      return `o${objectIdHex(value as { toHexString(): string })}`;
    case 'Binary': {
      const bin = value as { sub_type: number; buffer: Uint8Array; position: number };
      return `x${bin.sub_type}:${Buffer.from(bin.buffer.subarray(0, bin.position)).toString('base64')}`;
    }
    case 'Timestamp':
      return `T${String(value)}`;
    case 'MinKey':
      return 'm';
    case 'MaxKey':
      return 'M';
    case undefined: {
      const doc = value as Record<string, unknown>;
      const parts = Object.keys(doc)
        .filter((k) => doc[k] !== undefined)
        .map((k) => `${JSON.stringify(k)}:${encodeIndexValue(doc[k], canonical)}`);
      return `{${parts.join(',')}}`;
    }
  }
  return `u${JSON.stringify(String(value))}`;
}
