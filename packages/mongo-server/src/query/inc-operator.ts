import { type Document, Long } from 'bson';

import { bsonTag, formatDocumentId } from './document-paths.js';
import { CommandError } from '../commands/command-error.js';
import { numericType, storedDouble, toDouble } from './numeric-types.js';
import { parentOf, read, write } from './update-paths.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A JS number that came off the wire as int32 (bson decodes int32 and double to number). */
function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}

function asBigInt(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (bsonTag(value) === 'Long') return BigInt(String(value));
  return undefined;
}

function checkInt64(result: bigint, path: string): bigint {
  if (result < INT64_MIN || result > INT64_MAX) {
    throw new CommandError(
      'Overflow',
      `Failed to apply $inc operations to current value for field '${path}': overflow`,
    );
  }
  return result;
}

/**
 * `current + amount` with MongoDB's numeric type rules: int32 + int32 stays
 * int32 unless it overflows (then Int64), anything + Int64 is Int64 unless a
 * double is involved, doubles win otherwise. Int64 is kept as `bigint` so
 * counters beyond 2^53 stay exact.
 */
export function addBsonNumbers(current: unknown, amount: unknown, path: string): unknown {
  const types = [numericType(current), numericType(amount)];
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
  if (currentLong !== undefined && amountLong !== undefined) return checkInt64(currentLong + amountLong, path);
  if (currentLong !== undefined && typeof amount === 'number') {
    return Number.isInteger(amount) ? checkInt64(currentLong + BigInt(amount), path) : Number(currentLong) + amount;
  }
  if (amountLong !== undefined && typeof current === 'number') {
    return Number.isInteger(current) ? checkInt64(BigInt(current) + amountLong, path) : current + Number(amountLong);
  }
  throw new CommandError('TypeMismatch', `Cannot increment with non-numeric argument: {${path}: ${String(amount)}}`);
}

function isIncrementable(value: unknown): boolean {
  return (
    typeof value === 'number' || typeof value === 'bigint' || bsonTag(value) === 'Long' || bsonTag(value) === 'Double'
  );
}

/**
 * Applies `$inc` for plain dotted paths in place and returns the entries it
 * could not handle (positional paths), which are left to mingo.
 */
export function applyIncrement(doc: Document, spec: Document): Document {
  const rest: Document = {};
  for (const [path, amount] of Object.entries(spec)) {
    if (!isIncrementable(amount)) {
      throw new CommandError(
        'TypeMismatch',
        `Cannot increment with non-numeric argument: {${path}: ${String(amount)}}`,
      );
    }
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
      throw new CommandError(
        'TypeMismatch',
        `Cannot apply $inc to a value of non-numeric type. {_id: ${formatDocumentId(doc)}} has the field '${leaf}' of non-numeric type ${typeof current === 'string' ? 'string' : typeof current}`,
      );
    } else {
      write(target, leaf, addBsonNumbers(current, amount, path));
    }
  }
  return rest;
}
