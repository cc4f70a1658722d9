/**
 * MongoDB's BSON comparison order, used for sorting, range queries and `$eq`.
 *
 * mingo orders unknown classes (Long, Decimal128, ObjectId) by their text or
 * constructor name, which puts `Long(10)` before `Long(9)` and never equates
 * `Long(5)` with `5`. This module is the single source of truth the embedded
 * server plugs into mingo instead.
 */
import type { Document } from 'bson';

import { MaxKey, MinKey } from './bson-library.cjs';
import { compareObjectIdWords } from './object-id-words.js';
import { activeStringOrder, type StringOrder } from './string-order.js';

/** A finite number as an exact fraction `num / den` (den > 0). */
interface ExactNumber {
  readonly kind: 'finite' | 'nan' | 'inf' | '-inf';
  readonly num: bigint;
  readonly den: bigint;
}

const NAN: ExactNumber = { kind: 'nan', num: 0n, den: 1n };
const INF: ExactNumber = { kind: 'inf', num: 0n, den: 1n };
const NEG_INF: ExactNumber = { kind: '-inf', num: 0n, den: 1n };

/** The `_bsontype` tag bson classes carry (survives duplicate bson copies). */
export function bsonTag(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return typeof tag === 'string' ? tag : undefined;
}

/**
 * Whether `value` is an embedded document a path can descend into: not an
 * array, a Date, bytes or a BSON value such as ObjectId.
 */
export function isSubDocument(value: unknown): value is Document {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof Uint8Array) &&
    bsonTag(value) === undefined
  );
}

/** True for int32/double (JS number), Int64 (bigint or Long), Decimal128, Int32/Double wrappers. */
export function isBsonNumber(value: unknown): boolean {
  if (typeof value === 'number' || typeof value === 'bigint') return true;
  const tag = bsonTag(value);
  return tag === 'Long' || tag === 'Decimal128' || tag === 'Int32' || tag === 'Double';
}

/**
 * Rank of a value's type in MongoDB's cross-type order: MinKey < null/missing
 * < numbers < string < object < array < BinData < ObjectId < bool < Date <
 * Timestamp < RegExp < code < MaxKey.
 */
export function bsonTypeRank(value: unknown): number {
  if (value === undefined || value === null) return 2;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
    case 'symbol':
      return 4;
    case 'function':
      return 13;
  }
  if (Array.isArray(value)) return 6;
  if (value instanceof Date) return 10;
  if (value instanceof RegExp) return 12;
  if (value instanceof Uint8Array) return 7;
  switch (bsonTag(value)) {
    case 'MinKey':
      return 1;
    case 'Long':
    case 'Decimal128':
    case 'Int32':
    case 'Double':
      return 3;
    case 'BSONSymbol':
      return 4;
    case 'Binary':
      return 7;
    case 'ObjectId':
      return 8;
    case 'Timestamp':
      return 11;
    case 'BSONRegExp':
      return 12;
    case 'Code':
      return 13;
    case 'MaxKey':
      return 100;
    case 'DBRef':
      return 5;
  }
  return 5;
}

/** {@link bsonTypeRank} of the numbers (of every numeric type), of MinKey and of MaxKey. */
export const NUMBER_RANK = bsonTypeRank(0);
export const MIN_KEY_RANK = bsonTypeRank(new MinKey());
export const MAX_KEY_RANK = bsonTypeRank(new MaxKey());

/** Converts any BSON numeric value to an exact fraction (or NaN/±Infinity). */
export function toExactNumber(value: unknown): ExactNumber {
  if (typeof value === 'bigint') return { kind: 'finite', num: value, den: 1n };
  if (typeof value === 'number') return exactFromDouble(value);
  const tag = bsonTag(value);
  if (tag === 'Long') return { kind: 'finite', num: BigInt(String(value)), den: 1n };
  if (tag === 'Int32' || tag === 'Double') return exactFromDouble((value as { value: number }).value);
  if (tag === 'Decimal128') return exactFromDecimalString(String(value));
  return NAN;
}

function exactFromDouble(value: number): ExactNumber {
  if (Number.isNaN(value)) return NAN;
  if (value === Infinity) return INF;
  if (value === -Infinity) return NEG_INF;
  if (Number.isInteger(value)) return { kind: 'finite', num: BigInt(value), den: 1n };
  // Doubling a finite binary fraction is exact, so this terminates (≤ 1074 steps).
  let scaled = value;
  let exponent = 0n;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    exponent++;
  }
  return { kind: 'finite', num: BigInt(scaled), den: 1n << exponent };
}

function exactFromDecimalString(text: string): ExactNumber {
  if (/nan/i.test(text)) return NAN;
  if (/^\+?inf/i.test(text)) return INF;
  if (/^-inf/i.test(text)) return NEG_INF;
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return NAN;
  const [, sign, intPart = '', fracPart = '', expPart = '0'] = match;
  let num = BigInt((intPart + fracPart).replace(/^0+(?=\d)/, '') || '0');
  if (sign === '-') num = -num;
  const exponent = Number(expPart) - fracPart.length;
  if (exponent >= 0) return { kind: 'finite', num: num * 10n ** BigInt(exponent), den: 1n };
  return { kind: 'finite', num, den: 10n ** BigInt(-exponent) };
}

function rankExact(n: ExactNumber): number {
  return n.kind === 'nan' ? 0 : n.kind === '-inf' ? 1 : n.kind === 'finite' ? 2 : 3;
}

/** Whether `value` is a NaN (a double's or a Decimal128's). */
export function isNaNNumber(value: unknown): boolean {
  if (typeof value === 'number') return Number.isNaN(value);
  const tag = bsonTag(value);
  if (tag === 'Double') return Number.isNaN((value as { value: number }).value);
  return tag === 'Decimal128' && toExactNumber(value).kind === 'nan';
}

/** Compares two BSON numbers of any numeric type by value (NaN sorts first). */
export function compareNumbers(a: unknown, b: unknown): number {
  // An integral double's marker (wire/integral-doubles.ts) compares as its number, without the exact path.
  if (bsonTag(a) === 'Double') a = (a as { value: number }).value;
  if (bsonTag(b) === 'Double') b = (b as { value: number }).value;
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
    if (Number.isNaN(b)) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const x = toExactNumber(a);
  const y = toExactNumber(b);
  const rx = rankExact(x);
  const ry = rankExact(y);
  if (rx !== ry || rx !== 2) return Math.sign(rx - ry);
  const left = x.num * y.den;
  const right = y.num * x.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Maps UTF-16 code units so that comparing them gives UTF-8 byte order. */
function utf8Order(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** Binary (UTF-8 byte-wise) string comparison, as MongoDB does without collation. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Order(x) < utf8Order(y) ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

function binaryBytes(value: unknown): { sub: number; bytes: Uint8Array } {
  if (value instanceof Uint8Array) return { sub: 0, bytes: value };
  const bin = value as { sub_type: number; value(): Uint8Array; buffer: Uint8Array; position: number };
  return { sub: bin.sub_type, bytes: bin.buffer.subarray(0, bin.position) };
}

/**
 * Total order over BSON values as MongoDB defines it. Arrays compare
 * element-wise (callers that need MongoDB's "any element" or "min/max
 * element" array semantics handle arrays before calling this). String
 * values (not field names) compare by `strings`, by default the running
 * command's collation (see {@link activeStringOrder}), else binary.
 */
export function compareBson(a: unknown, b: unknown, strings?: StringOrder): number {
  const ra = bsonTypeRank(a);
  const rb = bsonTypeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 1:
    case 2:
    case 100:
      return 0;
    case 3:
      return compareNumbers(a, b);
    case 4:
      return (strings ?? activeStringOrder() ?? compareStrings)(String(a), String(b));
    case 5:
      return compareDocuments(a as Record<string, unknown>, b as Record<string, unknown>, strings);
    case 6: {
      const xs = a as unknown[];
      const ys = b as unknown[];
      const length = Math.min(xs.length, ys.length);
      for (let i = 0; i < length; i++) {
        const c = compareBson(xs[i], ys[i], strings);
        if (c !== 0) return c;
      }
      return Math.sign(xs.length - ys.length);
    }
    case 7: {
      const x = binaryBytes(a);
      const y = binaryBytes(b);
      if (x.bytes.length !== y.bytes.length) return x.bytes.length < y.bytes.length ? -1 : 1;
      if (x.sub !== y.sub) return x.sub < y.sub ? -1 : 1;
      return compareBytes(x.bytes, y.bytes);
    }
    case 8:
      return (
        compareObjectIdWords(a as object, b as object) ??
        compareBytes((a as { id: Uint8Array }).id, (b as { id: Uint8Array }).id)
      );
    case 9:
      return a === b ? 0 : a ? 1 : -1;
    case 10:
      return Math.sign((a as Date).getTime() - (b as Date).getTime());
    case 11: {
      const x = a as { t: number; i: number };
      const y = b as { t: number; i: number };
      return x.t !== y.t ? Math.sign(x.t - y.t) : Math.sign(x.i - y.i);
    }
    case 12: {
      const x = regexParts(a);
      const y = regexParts(b);
      return compareStrings(x.source, y.source) || compareStrings(x.flags, y.flags);
    }
    default:
      return compareStrings(String(a), String(b));
  }
}

function regexParts(value: unknown): { source: string; flags: string } {
  if (value instanceof RegExp) return { source: value.source, flags: value.flags };
  const re = value as { pattern: string; options: string };
  return { source: re.pattern, flags: re.options };
}

function compareDocuments(a: Record<string, unknown>, b: Record<string, unknown>, strings?: StringOrder): number {
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  const length = Math.min(ka.length, kb.length);
  for (let i = 0; i < length; i++) {
    const va = a[ka[i]!];
    const vb = b[kb[i]!];
    const rank = bsonTypeRank(va) - bsonTypeRank(vb);
    if (rank !== 0) return Math.sign(rank);
    const name = compareStrings(ka[i]!, kb[i]!);
    if (name !== 0) return name;
    const value = compareBson(va, vb, strings);
    if (value !== 0) return value;
  }
  return Math.sign(ka.length - kb.length);
}

/** MongoDB equality: same type class and equal value (1 == Long(1) == 1.0); strings as {@link compareBson} compares them. */
export function bsonEquals(a: unknown, b: unknown, strings?: StringOrder): boolean {
  if (a === b) return true;
  return bsonTypeRank(a) === bsonTypeRank(b) && compareBson(a, b, strings) === 0;
}
