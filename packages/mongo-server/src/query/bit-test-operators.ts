/**
 * MongoDB's bit test query operators (`$bitsAllSet`, `$bitsAllClear`,
 * `$bitsAnySet`, `$bitsAnyClear`) over the values this server stores.
 *
 * mingo's versions failed on an Int64 (a `bigint` here: "Cannot mix BigInt
 * and other types"), tested non-integral doubles, NaN and strings as numbers,
 * and ignored BinData as the value and as the mask. These follow mongod's
 * BitTestMatchExpression: a value is an integral number within Int64 (two's
 * complement, sign-extended past bit 63) or BinData (bytes little-endian,
 * zero past its end); anything else never matches.
 */
import { bsonTag, toExactNumber } from '../bson/bson-compare.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { bsonTypeCode } from './element-operators.js';
import { pathValues, queryPath } from './path-elements.js';

type Predicate = (doc: unknown) => boolean;

const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const NUMBER_CODES: ReadonlySet<number | undefined> = new Set([1, 16, 18, 19]);

/** The bytes of a BinData value, or undefined for any other value. */
function binaryBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (bsonTag(value) !== 'Binary') return undefined;
  const { buffer, position } = value as { buffer: Uint8Array; position: number };
  return buffer.subarray(0, position);
}

/**
 * A number as an Int64, as mongod's `parseIntegerElementToLong` reads it, or
 * the reason it is none: a double must be integral and within Int64, a
 * Decimal128 exactly an Int64. `element` is the operand as mongod prints it.
 */
function int64(value: unknown, element: string): bigint | string {
  const code = bsonTypeCode(value);
  if (!NUMBER_CODES.has(code)) return `Expected a number in: ${element}`;
  // BigInt reads a bson Int32 or Long wrapper too (its valueOf or its decimal text).
  if (code === 16 || code === 18) return BigInt(value as number | bigint);
  if (code === 1) {
    const double = typeof value === 'number' ? value : (value as { value: number }).value;
    if (Number.isNaN(double)) return `Expected an integer, but found NaN in: ${element}`;
    if (double >= 2 ** 63 || double < -(2 ** 63)) return `Cannot represent as a 64-bit integer: ${element}`;
    if (!Number.isInteger(double)) return `Expected an integer: ${element}`;
    return BigInt(double);
  }
  const exact = toExactNumber(value);
  const integral = exact.kind === 'finite' && exact.num % exact.den === 0n ? exact.num / exact.den : undefined;
  if (integral === undefined || integral < INT64_MIN || integral > INT64_MAX) {
    return `Cannot represent as a 64-bit integer: ${element}`;
  }
  return integral;
}

/**
 * The bit positions a bit test's operand names: a list of positions, a
 * numeric mask or a BinData mask; `path` is the field tested, which mongod's
 * message for another operand starts with.
 */
function bitPositions(name: string, path: string, spec: unknown): number[] {
  if (Array.isArray(spec)) {
    return spec.map((position, i) => {
      const element = `${i}: ${formatKeyValue(position)}`;
      const parsed = int64(position, element);
      const reason =
        typeof parsed === 'string'
          ? parsed
          : parsed > BigInt(INT32_MAX) || parsed < -BigInt(INT32_MAX) - 1n
            ? `Cannot represent ${element} in an int`
            : parsed < 0n
              ? `Expected a non-negative number in: ${element}`
              : undefined;
      if (reason !== undefined) throw new CommandError('BadValue', `Failed to parse bit position. ${reason}`);
      return Number(parsed);
    });
  }
  const bytes = binaryBytes(spec);
  if (bytes) {
    const positions: number[] = [];
    bytes.forEach((byte, i) => {
      for (let bit = 0; bit < 8; bit++) if ((byte >> bit) & 1) positions.push(i * 8 + bit);
    });
    return positions;
  }
  if (NUMBER_CODES.has(bsonTypeCode(spec))) {
    const element = `${name}: ${formatKeyValue(spec)}`;
    const mask = int64(spec, element);
    if (typeof mask === 'string') throw new CommandError('FailedToParse', mask);
    if (mask < 0n) throw new CommandError('FailedToParse', `Expected a non-negative number in: ${element}`);
    const positions: number[] = [];
    for (let bit = 0; bit < 63; bit++) if ((mask >> BigInt(bit)) & 1n) positions.push(bit);
    return positions;
  }
  throw new CommandError(
    'BadValue',
    `${path} takes an Array, a number, or a BinData but received: ${name}: ${formatKeyValue(spec)}`,
  );
}

/**
 * A stored Decimal128 as mongod's bit test reads it (`numberLong()`, that is
 * Decimal128::toLong): rounded to the nearest integer, ties to even; NaN, an
 * infinity or a value past Int64 give the conversion's "integer indefinite",
 * the lowest Int64.
 */
function decimalToLong(value: unknown): bigint {
  const exact = toExactNumber(value);
  if (exact.kind !== 'finite') return INT64_MIN;
  const { num, den } = exact;
  let quotient = num / den;
  const twice = (num % den) * 2n;
  const away = twice < 0n ? -twice : twice;
  // Past halfway, or exactly halfway from an odd quotient: away from zero.
  if (away > den || (away === den && quotient % 2n !== 0n)) quotient += num < 0n ? -1n : 1n;
  return quotient < INT64_MIN || quotient > INT64_MAX ? INT64_MIN : quotient;
}

/** Reads bit `position` of a stored value, or undefined when the value is no integer nor BinData. */
function bitReader(value: unknown): ((position: number) => boolean) | undefined {
  const bytes = binaryBytes(value);
  if (bytes) return (position) => position < bytes.length * 8 && ((bytes[position >> 3]! >> (position & 7)) & 1) === 1;
  const code = bsonTypeCode(value);
  if (!NUMBER_CODES.has(code)) return undefined;
  const number = code === 19 ? decimalToLong(value) : int64(value, '');
  if (typeof number === 'string') return undefined;
  // BigInt shifts are arithmetic: past bit 63 every bit is the sign bit, as mongod's sign extension has it.
  return (position) => ((number >> BigInt(position)) & 1n) === 1n;
}

function bitTest(name: string, test: (positions: number[], bit: (position: number) => boolean) => boolean) {
  return (selector: string, spec: unknown): Predicate => {
    const positions = bitPositions(name, selector, spec);
    const path = queryPath(selector);
    return (doc) =>
      pathValues(doc, path, true).some((value) => {
        const bit = bitReader(value);
        return bit !== undefined && test(positions, bit);
      });
  };
}

/** `{ field: { $bitsAllSet: mask | positions | BinData } }`. */
export const $bitsAllSet = bitTest('$bitsAllSet', (positions, bit) => positions.every((p) => bit(p)));
/** `{ field: { $bitsAllClear: mask | positions | BinData } }`. */
export const $bitsAllClear = bitTest('$bitsAllClear', (positions, bit) => positions.every((p) => !bit(p)));
/** `{ field: { $bitsAnySet: mask | positions | BinData } }`. */
export const $bitsAnySet = bitTest('$bitsAnySet', (positions, bit) => positions.some((p) => bit(p)));
/** `{ field: { $bitsAnyClear: mask | positions | BinData } }`. */
export const $bitsAnyClear = bitTest('$bitsAnyClear', (positions, bit) => positions.some((p) => !bit(p)));
