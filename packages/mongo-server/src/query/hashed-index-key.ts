/**
 * `$toHashedIndexKey` as mongod computes it: the key a hashed index stores
 * for a value (BSONElementHasher::hash64, bson_element_hasher.cpp), an Int64
 * made of the first 8 bytes (little-endian) of an MD5 over the seed 0, then
 * the value: its canonical type as an int32, then a number as the Int64 it
 * safely converts to (so `1`, `NumberLong(1)` and `1.5` hash alike), a
 * document or an array as each element's canonical type, field name and
 * value in turn and then the closing EOO element's type, anything else as
 * its BSON value bytes. mingo answered a
 * 32-bit hash of its own, so a `$sort` or a fan-out by `$toHashedIndexKey`
 * ordered documents differently from MongoDB.
 */
import { createHash, type Hash } from 'node:crypto';

import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { BSON } from '../bson/bson-library.cjs';
import { bsonTypeCode } from './element-operators.js';
import { numericType, toDouble } from './numeric-types.js';

/** mongod's canonicalizeBSONType, by BSON type code. */
const CANONICAL_TYPES = new Map<number, number>([
  [-1, -1], // MinKey
  [6, 0], // undefined
  [10, 5], // null
  ...[1, 16, 18, 19].map((code): [number, number] => [code, 10]), // double, int, long, decimal
  [2, 15], // string
  [14, 15], // symbol
  [3, 20], // object
  [4, 25], // array
  [5, 30], // binData
  [7, 35], // objectId
  [8, 40], // bool
  [9, 45], // date
  [17, 47], // timestamp
  [11, 50], // regex
  [12, 55], // dbPointer
  [13, 60], // javascript
  [15, 65], // javascriptWithScope
  [127, 127], // MaxKey
]);

/** The document's closing EOO element, which mongod hashes too: its canonical type 0, no name, no value. */
const EOO = Buffer.alloc(4);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32LE(value);
  return buffer;
}

/** BSONElement::safeNumberLong: truncated toward zero, NaN as 0, clamped to the Int64 range. */
function safeNumberLong(value: unknown): bigint {
  const type = numericType(value);
  if (type === 'int' || type === 'long') return BigInt(String(value));
  const n = toDouble(value);
  if (Number.isNaN(n)) return 0n;
  if (n >= 2 ** 63) return INT64_MAX;
  if (n < -(2 ** 63)) return INT64_MIN;
  return BigInt(Math.trunc(n));
}

/** A value's bytes in BSON, without its type byte and field name. */
function valueBytes(value: unknown): Buffer {
  const doc = Buffer.from(BSON.serialize({ '': value } as Document));
  // int32 size, type byte, the empty name's NUL, the value, the document's NUL.
  return doc.subarray(6, doc.length - 1);
}

function addValue(hash: Hash, value: unknown, fieldName: string | undefined): void {
  const code = bsonTypeCode(value) ?? 10;
  hash.update(int32(CANONICAL_TYPES.get(code) ?? code));
  if (fieldName !== undefined) hash.update(`${fieldName}\0`, 'utf8');
  if (numericType(value) !== undefined) {
    const long = Buffer.alloc(8);
    long.writeBigInt64LE(safeNumberLong(value));
    hash.update(long);
  } else if (code === 4) {
    (value as unknown[]).forEach((element, i) => addValue(hash, element, String(i)));
    hash.update(EOO);
  } else if (code === 3) {
    const doc = value as Document;
    for (const key of Object.keys(doc)) addValue(hash, doc[key], key);
    hash.update(EOO);
  } else if (code !== 6 && code !== 10 && code !== -1 && code !== 127) {
    hash.update(valueBytes(value));
  }
}

/** The hashed index key of `value` (seed 0), as an Int64. */
export function hashedIndexKey(value: unknown): bigint {
  const hash = createHash('md5');
  hash.update(int32(0));
  addValue(hash, value === undefined ? null : value, undefined);
  return hash.digest().readBigInt64LE(0);
}

/** The `$toHashedIndexKey` expression operator. */
export function toHashedIndexKey(obj: unknown, expr: unknown, options: Options): bigint {
  return hashedIndexKey(evalExpr(obj, expr, options));
}
