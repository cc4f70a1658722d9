/**
 * MongoDB's `$type`, `$mod` and `$size` query operators over the values this
 * server stores, plus the `$type` aggregation expression.
 *
 * mingo's versions know only JavaScript types (`$type: 'objectId'` or `7`
 * matched nothing) and do plain JS arithmetic (`$mod: [Long(4), Long(0)]`
 * and `$size: Long(2)` compared a `Long` object), so the embedded server
 * plugs these in instead.
 *
 * How stored values map to BSON types (see `wire/bson-codec.ts`: bson's
 * default `promoteValues` plus `useBigInt64`, then `wire/integral-doubles.ts`):
 * Int64 is a `bigint`; int32 and double are a JS `number`, typed the way
 * `BSON.serialize` writes it back (int32 when integral, in range and not -0,
 * double otherwise), except an integral double such as `5.0`, which is held
 * as a bson `Double` so it stays a double.
 */
import { CommandError } from '../commands/command-error.js';
import { bsonTag, toExactNumber } from '../bson/bson-compare.js';
import { INT32_MAX, INT32_MIN, writesAsInt32 } from '../bson/int32.js';
import { pathValues, queryPath } from './path-elements.js';

type Predicate = (doc: unknown) => boolean;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** MongoDB's `$type` aliases and their BSON type numbers. */
export const TYPE_ALIASES: Readonly<Record<string, number>> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  javascriptWithScope: 15,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};

const TYPE_NAMES = new Map(Object.entries(TYPE_ALIASES).map(([name, code]) => [code, name]));
const NUMBER_TYPES = [1, 16, 18, 19];

/** The BSON type number of a stored value (`undefined` for a missing one). */
export function bsonTypeCode(value: unknown): number | undefined {
  switch (typeof value) {
    case 'undefined':
      return undefined;
    case 'number':
      return writesAsInt32(value) ? 16 : 1;
    case 'bigint':
      return 18;
    case 'string':
      return 2;
    case 'boolean':
      return 8;
    case 'function':
      return 13;
    case 'symbol':
      return 14;
  }
  if (value === null) return 10;
  if (Array.isArray(value)) return 4;
  if (value instanceof Date) return 9;
  if (value instanceof RegExp) return 11;
  if (value instanceof Uint8Array) return 5;
  switch (bsonTag(value)) {
    case 'Double':
      return 1;
    case 'Int32':
      return 16;
    case 'Long':
      return 18;
    case 'Decimal128':
      return 19;
    case 'Binary':
      return 5;
    case 'ObjectId':
      return 7;
    case 'BSONRegExp':
      return 11;
    case 'BSONSymbol':
      return 14;
    case 'Code':
      return (value as { scope?: unknown }).scope ? 15 : 13;
    case 'Timestamp':
      return 17;
    case 'MinKey':
      return -1;
    case 'MaxKey':
      return 127;
  }
  return 3;
}

/** A numeric operand as an exact integer after truncation toward zero; `undefined` for NaN/±Infinity. */
function truncatedInteger(value: unknown): bigint | undefined {
  const exact = toExactNumber(value);
  if (exact.kind !== 'finite') return undefined;
  // BigInt division truncates toward zero, as MongoDB's coercion does.
  return exact.num / exact.den;
}

function isNumeric(value: unknown): boolean {
  const code = bsonTypeCode(value);
  return code !== undefined && NUMBER_TYPES.includes(code);
}

function typeCodeOf(spec: unknown): number[] {
  if (typeof spec === 'string') {
    if (spec === 'number') return NUMBER_TYPES;
    if (!Object.hasOwn(TYPE_ALIASES, spec)) throw new CommandError('BadValue', `Unknown type name alias: ${spec}`);
    return [TYPE_ALIASES[spec]!];
  }
  if (isNumeric(spec)) {
    const exact = toExactNumber(spec);
    const code = exact.kind === 'finite' && exact.den === 1n ? Number(exact.num) : NaN;
    if (!TYPE_NAMES.has(code)) throw new CommandError('BadValue', `Invalid numerical type code: ${String(spec)}`);
    return [code];
  }
  throw new CommandError('TypeMismatch', 'type must be represented as a number or a string');
}

/** `{ field: { $type: alias | number | [alias | number, ...] } }`. */
export function $type(selector: string, spec: unknown): Predicate {
  const codes = new Set((Array.isArray(spec) ? spec : [spec]).flatMap(typeCodeOf));
  const path = queryPath(selector);
  return (doc) =>
    pathValues(doc, path, true).some((value) => {
      const code = bsonTypeCode(value);
      return code !== undefined && codes.has(code);
    });
}

function modOperand(value: unknown, what: 'divisor' | 'remainder'): bigint {
  if (!isNumeric(value)) throw new CommandError('BadValue', `malformed mod, ${what} not a number`);
  const integer = truncatedInteger(value);
  if (integer === undefined || integer < INT64_MIN || integer > INT64_MAX) {
    throw new CommandError('BadValue', `malformed mod, ${what} value is invalid :: caused by :: ${String(value)}`);
  }
  return integer;
}

/** `{ field: { $mod: [divisor, remainder] } }` with MongoDB's Int64 arithmetic on any numeric types. */
export function $mod(selector: string, spec: unknown): Predicate {
  if (!Array.isArray(spec)) throw new CommandError('BadValue', 'malformed mod, needs to be an array');
  if (spec.length < 2) throw new CommandError('BadValue', 'malformed mod, not enough elements');
  if (spec.length > 2) throw new CommandError('BadValue', 'malformed mod, too many elements');
  const divisor = modOperand(spec[0], 'divisor');
  const remainder = modOperand(spec[1], 'remainder');
  if (divisor === 0n) throw new CommandError('BadValue', 'divisor cannot be 0');
  const path = queryPath(selector);
  return (doc) =>
    pathValues(doc, path, true).some((value) => {
      if (!isNumeric(value)) return false;
      // Document doubles/decimals truncate toward zero; non-finite or out-of-Int64 values never match.
      const dividend = truncatedInteger(value);
      if (dividend === undefined || dividend < INT64_MIN || dividend > INT64_MAX) return false;
      return dividend % divisor === remainder;
    });
}

/** `{ field: { $size: n } }`: n is an int32, Int64 or integral double; arrays at the path only. */
export function $size(selector: string, spec: unknown): Predicate {
  const code = bsonTypeCode(spec);
  if (code !== 16 && code !== 1 && code !== 18) throw new CommandError('BadValue', '$size needs a number');
  const exact = toExactNumber(spec);
  if (exact.kind !== 'finite' || exact.den !== 1n) throw new CommandError('BadValue', '$size must be a whole number');
  if (exact.num < BigInt(INT32_MIN) || exact.num > BigInt(INT32_MAX)) {
    throw new CommandError('BadValue', '$size must be representable as a 32-bit integer');
  }
  if (exact.num < 0n) throw new CommandError('BadValue', '$size may not be negative');
  const size = Number(exact.num);
  const path = queryPath(selector);
  return (doc) => pathValues(doc, path, false).some((value) => Array.isArray(value) && value.length === size);
}

/** The `$type` aggregation expression's answer for a value: its alias, or `'missing'`. */
export function typeAlias(value: unknown): string {
  const code = bsonTypeCode(value);
  return code === undefined ? 'missing' : (TYPE_NAMES.get(code) ?? 'object');
}
