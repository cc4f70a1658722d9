import { isObjectIdLike, type ObjectIdLike } from '../core/index.js';

/**
 * Returned by {@link convertBsonValue} when `value` is no BSON scalar and the
 * walker has to look inside it.
 */
export const NOT_BSON = Symbol('NOT_BSON');

const UUID_SUBTYPE = 4;

interface BinaryLike {
  _bsontype: 'Binary';
  sub_type: number;
  position: number;
  buffer: Uint8Array;
}

interface LongLike {
  _bsontype: 'Long';
  toNumber(): number;
  toString(): string;
}

/**
 * Prototypes whose ObjectIds passed `isObjectIdLike` with lowercase output,
 * mapped to whether their instances hold the id in four 24-bit words
 * `i0`…`i3` (bson ≥ 7.3.2). `isObjectIdLike` calls `toHexString()` and tests
 * it with a regular expression; doing that for every id of a response doubles
 * the cost of the walk, and every instance of a verified class formats its
 * id the same way. `lastPrototype` serves the usual single copy of bson
 * without a hash lookup.
 */
const verifiedPrototypes = new WeakMap<object, boolean>();
/** Until an id is verified: a prototype no value has, so `getPrototypeOf(x) === knownObjectIdPrototype()` needs no null check. */
const NO_PROTOTYPE: object = Object.freeze(Object.create(null) as object);
let lastPrototype: object = NO_PROTOTYPE;
let lastHasWords = false;

interface ObjectIdWords {
  i0: unknown;
  i1: unknown;
  i2: unknown;
  i3: unknown;
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * The hex of an id held as four 24-bit words. bson's `toHexString()` builds
 * the string from 12 concatenations, i.e. a rope V8 has to flatten again in
 * `JSON.stringify`; this builds one flat string and is about 7× faster
 * (bench/serializer.bench.ts). Used only for prototypes where it was checked
 * against `toHexString()`.
 */
function wordsToHex(a: number, b: number, c: number, d: number): string {
  const h = HEX_CODES;
  return String.fromCharCode(
    h[(a >>> 20) & 15],
    h[(a >>> 16) & 15],
    h[(a >>> 12) & 15],
    h[(a >>> 8) & 15],
    h[(a >>> 4) & 15],
    h[a & 15],
    h[(b >>> 20) & 15],
    h[(b >>> 16) & 15],
    h[(b >>> 12) & 15],
    h[(b >>> 8) & 15],
    h[(b >>> 4) & 15],
    h[b & 15],
    h[(c >>> 20) & 15],
    h[(c >>> 16) & 15],
    h[(c >>> 12) & 15],
    h[(c >>> 8) & 15],
    h[(c >>> 4) & 15],
    h[c & 15],
    h[(d >>> 20) & 15],
    h[(d >>> 16) & 15],
    h[(d >>> 12) & 15],
    h[(d >>> 8) & 15],
    h[(d >>> 4) & 15],
    h[d & 15],
  );
}

function hexFromWords(value: object): string | undefined {
  const w = value as ObjectIdWords;
  const { i0, i1, i2, i3 } = w;
  return typeof i0 === 'number' && typeof i1 === 'number' && typeof i2 === 'number' && typeof i3 === 'number'
    ? wordsToHex(i0, i1, i2, i3)
    : undefined;
}

/** The ObjectId prototype seen last, for the walker's first check (never `null`). */
export function knownObjectIdPrototype(): object {
  return lastPrototype;
}

/** Hex of an instance of a verified prototype; `undefined` if it holds no valid id after all. */
function verifiedHex(value: object, hasWords: boolean): string | undefined {
  if (hasWords) {
    const fast = hexFromWords(value);
    if (fast !== undefined) return fast;
  }
  const hex = (value as ObjectIdLike).toHexString();
  // The length check catches an instance without id bytes (`Object.create(ObjectId.prototype)`).
  return hex.length === 24 ? hex : undefined;
}

/** Lowercase hex of an instance of `knownObjectIdPrototype()`. */
export function knownObjectIdHex(value: object): string | undefined {
  return verifiedHex(value, lastHasWords);
}

/** Lowercase hex of an ObjectId from any bson copy, or `undefined` if `value` is none. */
export function objectIdToHex(value: object): string | undefined {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== null) {
    const hasWords = proto === lastPrototype ? lastHasWords : verifiedPrototypes.get(proto);
    if (hasWords !== undefined) {
      const hex = verifiedHex(value, hasWords);
      if (hex !== undefined) {
        lastPrototype = proto;
        lastHasWords = hasWords;
        return hex;
      }
    }
  }
  if (!isObjectIdLike(value)) {
    return undefined;
  }
  const hex = value.toHexString();
  const lower = hex.toLowerCase();
  // A plain object posing as an ObjectId is checked every time.
  if (hex === lower && proto !== null && proto !== Object.prototype) {
    const hasWords = hexFromWords(value) === hex;
    verifiedPrototypes.set(proto, hasWords);
    lastPrototype = proto;
    lastHasWords = hasWords;
  }
  return lower;
}

/**
 * A 64-bit integer as a JSON number when it fits in a double without loss,
 * otherwise as its decimal string, so that no digit is silently changed.
 */
export function int64ToJson(value: bigint | LongLike): number | string {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  // `toNumber()` rounds values past 2^53 to a double that is itself past the
  // safe range, so checking the rounded result is exact.
  const asNumber = value.toNumber();
  return Number.isSafeInteger(asNumber) ? asNumber : value.toString();
}

function uuidString(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function bufferToJson(buffer: Buffer): string {
  // Mongoose stores a UUID path as a Buffer tagged with `_subtype: 4`.
  const subtype = (buffer as Buffer & { _subtype?: unknown })._subtype;
  return subtype === UUID_SUBTYPE && buffer.length === 16 ? uuidString(buffer) : buffer.toString('base64');
}

function binaryToJson(binary: BinaryLike): string {
  const bytes = binary.buffer.subarray(0, binary.position);
  return binary.sub_type === UUID_SUBTYPE && bytes.length === 16
    ? uuidString(bytes)
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
}

/**
 * Converts one BSON scalar (from any copy of bson) to its JSON value, or
 * returns {@link NOT_BSON}:
 *
 * - ObjectId → 24-character lowercase hex;
 * - Decimal128 → its decimal string (no `$numberDecimal` wrapper);
 * - Long / bigint → number when safe, else decimal string;
 * - Double, Int32 → number;
 * - Buffer, Binary → base64; subtype 4 (UUID) of 16 bytes → dashed UUID;
 * - any other BSON value (Timestamp, DBRef, Code, …) → its own `toJSON()`,
 *   which the walker then walks (a DBRef's `$id` becomes hex too).
 */
export function convertBsonValue(value: object): unknown {
  const bsontype = (value as { _bsontype?: unknown })._bsontype;
  if (typeof bsontype !== 'string') {
    return Buffer.isBuffer(value) ? bufferToJson(value) : NOT_BSON;
  }
  switch (bsontype) {
    case 'ObjectId':
    case 'ObjectID':
      // A bson 1.x–7.x ObjectId, or a look-alike that fails the check (then
      // it is walked as an object: nothing is invented).
      return objectIdToHex(value) ?? NOT_BSON;
    case 'Decimal128':
      return String(value);
    case 'Long':
      return int64ToJson(value as LongLike);
    case 'Double':
    case 'Int32':
      return (value as { value: number }).value;
    case 'Binary':
      return binaryToJson(value as BinaryLike);
    default: {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      return typeof toJSON === 'function' ? (toJSON as () => unknown).call(value) : NOT_BSON;
    }
  }
}
