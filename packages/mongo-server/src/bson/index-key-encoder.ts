import { ObjectId } from 'bson';

import { bsonTag, isBsonNumber, toExactNumber } from './bson-compare.js';

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

interface ObjectIdLike {
  toHexString(): string;
  /** bson ≥ 7.3 keeps the 12 bytes as four 24-bit words (absent in other versions). */
  i0?: unknown;
  i1?: unknown;
  i2?: unknown;
  i3?: unknown;
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** The hex of an id held as four 24-bit words, one flat string. */
function wordsToHex(a: number, b: number, c: number, d: number): string {
  const h = HEX_CODES;
  return String.fromCharCode(
    h[(a >>> 20) & 15]!,
    h[(a >>> 16) & 15]!,
    h[(a >>> 12) & 15]!,
    h[(a >>> 8) & 15]!,
    h[(a >>> 4) & 15]!,
    h[a & 15]!,
    h[(b >>> 20) & 15]!,
    h[(b >>> 16) & 15]!,
    h[(b >>> 12) & 15]!,
    h[(b >>> 8) & 15]!,
    h[(b >>> 4) & 15]!,
    h[b & 15]!,
    h[(c >>> 20) & 15]!,
    h[(c >>> 16) & 15]!,
    h[(c >>> 12) & 15]!,
    h[(c >>> 8) & 15]!,
    h[(c >>> 4) & 15]!,
    h[c & 15]!,
    h[(d >>> 20) & 15]!,
    h[(d >>> 16) & 15]!,
    h[(d >>> 12) & 15]!,
    h[(d >>> 8) & 15]!,
    h[(d >>> 4) & 15]!,
    h[d & 15]!,
  );
}

/** Whether this bson keeps an id's bytes in order in `i0`…`i3` (a later bson could keep them otherwise). */
const WORDS_HOLD_BYTES = ((): boolean => {
  const hex = '0123456789abcdeffedcba98';
  const { i0, i1, i2, i3 } = new ObjectId(hex) as unknown as ObjectIdLike;
  if (typeof i0 !== 'number' || typeof i1 !== 'number' || typeof i2 !== 'number' || typeof i3 !== 'number') {
    return false;
  }
  return wordsToHex(i0, i1, i2, i3) === hex;
})();

/**
 * `id.toHexString()`, as one flat string. bson's builds the hex from 12
 * concatenations, a rope that `Map.get` must flatten before hashing it; key
 * and look-up together cost a find by `_id` about 0.8 µs, a tenth of the
 * server's work for it. Read from bson 7.3's words when this bson keeps them
 * as checked above, else from `toHexString()`.
 */
function objectIdHex(id: ObjectIdLike): string {
  const { i0, i1, i2, i3 } = id;
  return WORDS_HOLD_BYTES &&
    typeof i0 === 'number' &&
    typeof i1 === 'number' &&
    typeof i2 === 'number' &&
    typeof i3 === 'number'
    ? wordsToHex(i0, i1, i2, i3)
    : id.toHexString();
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
      return `o${objectIdHex(value as ObjectIdLike)}`;
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
