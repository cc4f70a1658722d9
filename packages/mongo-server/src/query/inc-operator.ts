import type { Document } from 'bson';

import { Long } from '../bson/bson-library.cjs';
import { formatKeyValue } from '../bson/format-key-value.js';
import { INT32_MAX, INT32_MIN } from '../bson/int32.js';
import { bsonTag, formatDocumentId } from './document-paths.js';
import { typeAlias } from './element-operators.js';
import { CommandError } from '../commands/command-error.js';
import { decimalArithmetic } from './decimal-arithmetic.js';
import { fitsInt64, numericType, storedDouble, toDouble } from './numeric-types.js';
import { parentOf, read, write } from './update-paths.js';

/** A JS number that came off the wire as int32 (bson decodes int32 and double to number). */
function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}

function asBigInt(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (bsonTag(value) === 'Long') return BigInt(String(value));
  return undefined;
}

/** Thrown by {@link addBsonNumbers} past the Int64 range; the caller words it with the document. */
class Int64Overflow extends Error {}

function checkInt64(result: bigint): bigint {
  if (!fitsInt64(result)) throw new Int64Overflow();
  return result;
}

/** A stored integer as mongod prints a current value in an overflow error: `(NumberInt)42`, `(NumberLong)…`. */
function describeInteger(value: unknown): string {
  return typeof value === 'number' ? `(NumberInt)${value}` : `(NumberLong)${String(value)}`;
}

/** mongod's BadValue for `op` whose result would pass the Int64 range. */
export function overflowError(op: string, current: unknown, doc: Document): CommandError {
  return new CommandError(
    'BadValue',
    `Failed to apply ${op} operations to current value (${describeInteger(current)}) for document {_id: ${formatDocumentId(doc)}}`,
  );
}

/**
 * `current + amount` with MongoDB's numeric type rules: int32 + int32 stays
 * int32 unless it overflows (then Int64), anything + Int64 is Int64 unless a
 * double is involved, doubles win otherwise. Int64 is kept as `bigint` so
 * counters beyond 2^53 stay exact. Past the Int64 range: {@link Int64Overflow}.
 */
function addBsonNumbers(current: unknown, amount: unknown): unknown {
  const types = [numericType(current), numericType(amount)];
  // A Decimal128 on either side makes the sum one (2.5 converted at 15 digits, as mongod converts a double).
  if (types.includes('decimal') && !types.includes(undefined)) return decimalArithmetic('$add', [current, amount]);
  if (types.includes('double') && !types.includes('decimal') && !types.includes(undefined)) {
    return storedDouble(toDouble(current) + toDouble(amount));
  }
  const currentLong = asBigInt(current);
  const amountLong = asBigInt(amount);
  if (typeof current === 'number' && typeof amount === 'number') {
    const sum = current + amount;
    if (isInt32(current) && isInt32(amount) && !isInt32(sum)) return BigInt(current) + BigInt(amount);
    return sum;
  }
  if (currentLong !== undefined && amountLong !== undefined) return checkInt64(currentLong + amountLong);
  if (currentLong !== undefined && typeof amount === 'number') {
    return Number.isInteger(amount) ? checkInt64(currentLong + BigInt(amount)) : Number(currentLong) + amount;
  }
  if (amountLong !== undefined && typeof current === 'number') {
    return Number.isInteger(current) ? checkInt64(BigInt(current) + amountLong) : current + Number(amountLong);
  }
  throw new CommandError('TypeMismatch', `Cannot increment with non-numeric argument: {amount: ${String(amount)}}`);
}

function isIncrementable(value: unknown): boolean {
  return numericType(value) !== undefined;
}

/** Refuses a non-numeric `$inc` amount as mongod does while parsing (14, the field and value as it prints them). */
export function checkIncrement(path: string, amount: unknown): void {
  if (!isIncrementable(amount)) {
    throw new CommandError(
      'TypeMismatch',
      `Cannot increment with non-numeric argument: {${path}: ${formatKeyValue(amount)}}`,
    );
  }
}

/** mongod's TypeMismatch for `op` meeting a stored value that is not a number. */
export function nonNumericError(op: string, doc: Document, leaf: string, current: unknown): CommandError {
  return new CommandError(
    'TypeMismatch',
    `Cannot apply ${op} to a value of non-numeric type. {_id: ${formatDocumentId(doc)}} has the field '${leaf}' of non-numeric type ${typeAlias(current)}`,
  );
}

/**
 * Applies `$inc` for plain dotted paths in place and returns the entries it
 * could not handle (positional paths), which are left to mingo.
 */
export function applyIncrement(doc: Document, spec: Document): Document {
  const rest: Document = {};
  for (const [path, amount] of Object.entries(spec)) {
    checkIncrement(path, amount);
    if (path.includes('$')) {
      rest[path] = amount;
      continue;
    }
    // Own fields only, created by definition: `__proto__.x` reached Object.prototype and set x on every
    // object of the process, and `toString.a` met the inherited method (TypeMismatch instead of a new field).
    const { target, leaf } = parentOf(doc, path);
    const current: unknown = read(target, leaf);
    if (current === undefined) {
      write(target, leaf, amount instanceof Long ? BigInt(amount.toString()) : amount);
    } else if (!isIncrementable(current)) {
      throw nonNumericError('$inc', doc, leaf, current);
    } else {
      let sum: unknown;
      try {
        sum = addBsonNumbers(current, amount);
      } catch (error) {
        if (error instanceof Int64Overflow) throw overflowError('$inc', current, doc);
        throw error;
      }
      write(target, leaf, sum);
    }
  }
  return rest;
}
