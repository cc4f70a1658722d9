/**
 * The arithmetic expressions with mongod's result types, errors and date
 * rules: `$add`, `$subtract`, `$multiply`, `$divide`, `$mod`, `$pow`, `$log`,
 * `$round`, `$trunc`. mingo took JS numbers only: an Int64 or a NaN failed,
 * an int32 overflow became a double (mongod: an Int64), `$mod` by zero was
 * NaN, `$trunc` of 1.298 to one place was 1.3, and its errors had code 2.
 *
 * Types: the result has the widest operand's type (int32 < Int64 < double <
 * Decimal128); integers are exact, an int32 result past its range is an
 * Int64 and an Int64 one past its range a double; a Decimal128 operand makes
 * the arithmetic decimal (decimal-arithmetic.ts).
 */
import type { Decimal128 } from 'bson';
import type { Options } from 'mingo/types';

import { CommandError } from '../commands/command-error.js';
import { decimalArithmetic, decimalRound } from './decimal-arithmetic.js';
import { typeAlias } from './element-operators.js';
import { notSupported } from './expression-check.js';
import { fitsInt64, type NumericType, numericType, storedDouble, toDouble } from './numeric-types.js';
import { evaluatedOperands, isNullish } from './operand-lists.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const WIDTH: Readonly<Record<NumericType, number>> = { int: 0, long: 1, double: 2, decimal: 3 };

/** The widest numeric type of `values` (all numbers). */
function widest(values: readonly unknown[]): NumericType {
  let type: NumericType = 'int';
  for (const value of values) {
    const t = numericType(value)!;
    if (WIDTH[t] > WIDTH[type]) type = t;
  }
  return type;
}

/** An exact integer typed as mongod types it: int32 when it fits and no operand was an Int64, else Int64, else double. */
function integerResult(value: bigint, long: boolean): unknown {
  if (!fitsInt64(value)) return storedDouble(Number(value));
  return long || value < INT32_MIN || value > INT32_MAX ? value : Number(value);
}

const asBigInt = (value: unknown): bigint => BigInt(String(value));

/**
 * A sum of numbers as mongod's AddState makes it: integers exact and doubles
 * apart (2^62 + 1.5 - 2^62 is 1.5), the integers an Int64 until they leave
 * its range; from the first Decimal128 on, the total so far (a double at 15
 * digits) and each later operand are added in decimal.
 */
function sum(values: readonly unknown[]): unknown {
  let integers = 0n;
  let doubles = 0;
  let sawDouble = false;
  let long = false;
  let decimal: Decimal128 | undefined;
  for (const value of values) {
    const type = numericType(value);
    if (decimal !== undefined || type === 'decimal') {
      // A double total converts at 15 digits, so it stays a double (a marker) even when it is whole.
      decimal ??= decimalArithmetic('$add', [sawDouble ? storedDouble(Number(integers) + doubles) : integers]);
      decimal = decimalArithmetic('$add', [decimal, value]);
    } else if (type === 'double') {
      doubles += toDouble(value);
      sawDouble = true;
    } else {
      integers += asBigInt(value);
      long ||= type === 'long';
    }
  }
  if (decimal !== undefined) return decimal;
  if (sawDouble) return storedDouble(Number(integers) + doubles);
  return integerResult(integers, long);
}

/**
 * A product as mongod's multiplies it, left to right in the widest type so
 * far: exact integers (a double once the product leaves Int64, which also
 * keeps a hostile list from growing one bigint without bound), then double,
 * then decimal (each step rounded to 34 digits, as IEEE does).
 */
function product(values: readonly unknown[]): unknown {
  let type: NumericType = 'int';
  let running: unknown = 1n;
  for (const value of values) {
    const next = numericType(value)!;
    if (WIDTH[next] > WIDTH[type]) type = next;
    if (type === 'decimal') running = decimalArithmetic('$multiply', [running, value]);
    // Kept a double (a marker when whole), so a later decimal step converts it at 15 digits.
    else if (type === 'double') running = storedDouble(toDouble(running) * toDouble(value));
    else {
      running = (running as bigint) * asBigInt(value);
      if (!fitsInt64(running as bigint)) {
        type = 'double';
        running = Number(running);
      }
    }
  }
  if (type === 'decimal') return running;
  if (type === 'double') return running;
  return integerResult(running as bigint, type === 'long');
}

const dateOverflow = () => new CommandError('Overflow', 'date overflow');

/** A number of milliseconds rounded as mongod rounds it (a double halves away from zero, a decimal to even), as an Int64. */
function millisOf(value: unknown): bigint {
  const type = numericType(value);
  if (type === 'int' || type === 'long') return asBigInt(value);
  const text = type === 'decimal' ? String(decimalRound(value as Decimal128, 0, 'round')) : undefined;
  const x = text === undefined ? toDouble(value) : Number(text);
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 63) throw dateOverflow();
  // C's llround: halves away from zero.
  // A decimal under 2^63 rounded to place 0 has at most 19 digits and exponent 0: plain digits.
  return text === undefined ? BigInt(Math.sign(x) * Math.round(Math.abs(x))) : BigInt(text);
}

/** A date's milliseconds as a Date, which JavaScript holds up to ±8.64e15 (mongod, to ±2^63). */
function dateOf(millis: bigint): Date {
  if (!fitsInt64(millis)) throw dateOverflow();
  if (millis > 8_640_000_000_000_000n || millis < -8_640_000_000_000_000n) {
    throw notSupported('A date this far from 1970 (beyond year 275760)');
  }
  return new Date(Number(millis));
}

/** A date moved by `millis` (a number of any type, rounded as mongod rounds it), with mongod's overflow error. */
function dateAdd(date: Date, millis: unknown): Date {
  return dateOf(BigInt(date.getTime()) + millisOf(millis));
}

/**
 * `$add`. With a date, mongod adds the numbers before it as a sum, rounded
 * to milliseconds when the date comes, and each number after it on its own,
 * rounded: so the order of the operands can move the result by a millisecond.
 */
function add(obj: unknown, expr: unknown, options: Options): unknown {
  const operands = evaluatedOperands(obj, expr, options);
  for (const operand of operands) {
    if (isNullish(operand)) return null;
    if (!(operand instanceof Date) && numericType(operand) === undefined) {
      throw new CommandError('TypeMismatch', `$add only supports numeric or date types, not ${typeAlias(operand)}`);
    }
  }
  // After the date, its milliseconds as an Int64: a large number may take it out of a Date's range and back.
  let millis: bigint | undefined;
  const before: unknown[] = [];
  for (const operand of operands) {
    if (operand instanceof Date) {
      if (millis !== undefined) throw new CommandError('Location16612', 'only one date allowed in an $add expression');
      millis = BigInt(operand.getTime()) + (before.length > 0 ? millisOf(sum(before)) : 0n);
    } else if (millis !== undefined) {
      millis += millisOf(operand);
      if (!fitsInt64(millis)) throw dateOverflow();
    } else before.push(operand);
  }
  return millis === undefined ? sum(before) : dateOf(millis);
}

function subtract(obj: unknown, expr: unknown, options: Options): unknown {
  const [a, b] = evaluatedOperands(obj, expr, options);
  if (isNullish(a) || isNullish(b)) return null;
  if (a instanceof Date) {
    if (b instanceof Date) return BigInt(a.getTime() - b.getTime());
    if (numericType(b) !== undefined) {
      if (numericType(b) === 'decimal') return dateAdd(a, decimalArithmetic('$subtract', [0, b]));
      if (numericType(b) === 'long') return dateAdd(a, -asBigInt(b));
      // The double is rounded (llround) before it is subtracted: a date less 0.5 ms is 1 ms earlier.
      const x = toDouble(b);
      return dateAdd(a, -(Math.sign(x) * Math.round(Math.abs(x))));
    }
  } else if (numericType(a) !== undefined && numericType(b) !== undefined) {
    const type = widest([a, b]);
    if (type === 'decimal') return decimalArithmetic('$subtract', [a, b]);
    if (type === 'double') return storedDouble(toDouble(a) - toDouble(b));
    return integerResult(asBigInt(a) - asBigInt(b), type === 'long');
  }
  throw new CommandError('TypeMismatch', `can't $subtract ${typeAlias(b)} from ${typeAlias(a)}`);
}

function multiply(obj: unknown, expr: unknown, options: Options): unknown {
  const operands = evaluatedOperands(obj, expr, options);
  for (const operand of operands) {
    if (isNullish(operand)) return null;
    if (numericType(operand) === undefined) {
      throw new CommandError('TypeMismatch', `$multiply only supports numeric types, not ${typeAlias(operand)}`);
    }
  }
  return product(operands);
}

function divide(obj: unknown, expr: unknown, options: Options): unknown {
  const [a, b] = evaluatedOperands(obj, expr, options);
  if (numericType(a) !== undefined && numericType(b) !== undefined) {
    if (widest([a, b]) === 'decimal') return decimalArithmetic('$divide', [a, b]);
    if (toDouble(b) === 0) throw new CommandError('BadValue', "can't $divide by zero");
    return storedDouble(toDouble(a) / toDouble(b));
  }
  if (isNullish(a) || isNullish(b)) return null;
  throw new CommandError(
    'TypeMismatch',
    `$divide only supports numeric types, not ${typeAlias(a)} and ${typeAlias(b)}`,
  );
}

/** `$mod`: C's fmod for doubles; an integer dividend by a whole double stays an integer, as mongod has it. */
function mod(obj: unknown, expr: unknown, options: Options): unknown {
  const [a, b] = evaluatedOperands(obj, expr, options);
  if (isNullish(a) || isNullish(b)) return null;
  const [ta, tb] = [numericType(a), numericType(b)];
  if (ta === undefined || tb === undefined) {
    throw new CommandError(
      'Location16611',
      `$mod only supports numeric types, not ${typeAlias(a)} and ${typeAlias(b)}`,
    );
  }
  if (ta === 'decimal' || tb === 'decimal') throw notSupported('$mod of a Decimal128');
  if (toDouble(b) === 0) throw new CommandError('Location16610', "can't $mod by zero");
  // A double divisor counts as an integer only if it is a whole int32 (mongod's Value::integral).
  const integralDivisor = tb !== 'double' || (Number.isInteger(toDouble(b)) && Math.abs(toDouble(b)) < 2 ** 31);
  if (ta === 'double' || !integralDivisor) {
    return storedDouble(toDouble(a) % toDouble(b));
  }
  const long = ta === 'long' || tb === 'long';
  const result = asBigInt(a) % BigInt(tb === 'double' ? toDouble(b) : asBigInt(b));
  return long ? result : Number(result);
}

/** `$pow`: exact for integers while the result is one (an int32, then an Int64), a double otherwise. */
function pow(obj: unknown, expr: unknown, options: Options): unknown {
  const [base, exponent] = evaluatedOperands(obj, expr, options);
  if (isNullish(base) || isNullish(exponent)) return null;
  if (numericType(base) === undefined) {
    throw new CommandError('Location28762', `$pow's base must be numeric, not ${typeAlias(base)}`);
  }
  if (numericType(exponent) === undefined) {
    throw new CommandError('Location28763', `$pow's exponent must be numeric, not ${typeAlias(exponent)}`);
  }
  const type = widest([base, exponent]);
  if (toDouble(base) === 0 && toDouble(exponent) < 0) {
    throw new CommandError('Location28764', '$pow cannot take a base of 0 and a negative exponent');
  }
  if (type === 'decimal') throw notSupported('$pow of a Decimal128');
  if (type === 'double') return storedDouble(toDouble(base) ** toDouble(exponent));
  const [b, e] = [asBigInt(base), asBigInt(exponent)];
  const long = type === 'long';
  if (e < 0n) {
    // 1 and -1 to a negative power are integers; anything else is a fraction.
    if (b === 1n || b === -1n) return integerResult(b ** -e, long);
    return storedDouble(Number(b) ** Number(e));
  }
  // An exponent this large overflows Int64 for any base but -1, 0 and 1.
  if (e > 64n && (b > 1n || b < -1n)) return storedDouble(Number(b) ** Number(e));
  return integerResult(b ** e, long);
}

/** `$log: [number, base]`. */
function log(obj: unknown, expr: unknown, options: Options): unknown {
  const [value, base] = evaluatedOperands(obj, expr, options);
  if (isNullish(value) || isNullish(base)) return null;
  if (numericType(value) === undefined) {
    throw new CommandError('Location28756', `$log's argument must be numeric, not ${typeAlias(value)}`);
  }
  if (numericType(base) === undefined) {
    throw new CommandError('Location28757', `$log's base must be numeric, not ${typeAlias(base)}`);
  }
  const [x, b] = [toDouble(value), toDouble(base)];
  // A decimal prints as its text in the messages (`0`, not `0.0`).
  const text = (n: number, original: unknown) => (numericType(original) === 'decimal' ? String(original) : String(n));
  if (!(x > 0) && !Number.isNaN(x)) {
    throw new CommandError('Location28758', `$log's argument must be a positive number, but is ${text(x, value)}`);
  }
  if ((!(b > 0) || b === 1) && !Number.isNaN(b)) {
    throw new CommandError(
      'Location28759',
      `$log's base must be a positive number not equal to 1, but is ${text(b, base)}`,
    );
  }
  if (widest([value, base]) === 'decimal') throw notSupported('$log of a Decimal128');
  return storedDouble(Math.log(x) / Math.log(b));
}

/** The place of `$round`/`$trunc`: a whole number in [-20, 100), with mongod's errors. */
function placeOf(name: string, place: unknown): number {
  const type = numericType(place);
  if (type === undefined) {
    throw new CommandError('Location16004', `can't convert from BSON type ${typeAlias(place)} to long`);
  }
  const text = String(type === 'double' ? toDouble(place) : place);
  if (type === 'double' && /nan|inf/i.test(text)) {
    throw new CommandError('Location31109', `Can't coerce out of range value ${text} to long`);
  }
  const n = Number(text);
  if (!Number.isInteger(n)) {
    throw new CommandError('Location51082', `precision argument to  ${name} must be a integral value`);
  }
  if (n < -20 || n > 100) {
    throw new CommandError(
      'Location51083',
      `cannot apply ${name} with precision value ${n} value must be in [-20, 100]`,
    );
  }
  return n;
}

/** A double rounded or truncated at `place` through its 34-digit decimal, as mongod does (half to even). */
function roundDouble(x: number, place: number, mode: 'round' | 'trunc'): number {
  if (!Number.isFinite(x)) return x;
  const rounded = Number(String(decimalRound(x.toPrecision(34), place, mode)));
  // A zero keeps the sign of the number rounded (-0.4 rounds to -0).
  return rounded === 0 && (x < 0 || Object.is(x, -0)) ? -0 : rounded;
}

/** An integer rounded or truncated at a negative `place`; exact, half to even. */
function roundInteger(n: bigint, place: number, mode: 'round' | 'trunc'): bigint {
  const unit = 10n ** BigInt(-place);
  const truncated = (n / unit) * unit;
  if (mode === 'trunc') return truncated;
  const rest = n - truncated;
  const twice = 2n * (rest < 0n ? -rest : rest);
  const away = twice > unit || (twice === unit && (n / unit) % 2n !== 0n);
  return away ? truncated + (n < 0n ? -unit : unit) : truncated;
}

function rounding(name: '$round' | '$trunc'): ExpressionOperator {
  const mode = name === '$round' ? 'round' : 'trunc';
  return (obj, expr, options) => {
    const [value, place = 0] = evaluatedOperands(obj, expr, options);
    if (isNullish(value) || isNullish(place)) return null;
    const type = numericType(value);
    if (type === undefined) {
      throw new CommandError('Location51081', `${name} only supports numeric types, not ${typeAlias(value)}`);
    }
    const at = placeOf(name, place);
    switch (type) {
      case 'decimal':
        return decimalRound(value as Decimal128, at, mode);
      case 'double':
        return storedDouble(roundDouble(toDouble(value), at, mode));
      default: {
        if (at >= 0) return value;
        const result = roundInteger(asBigInt(value), at, mode);
        if (!fitsInt64(result))
          throw new CommandError(
            'Location51080',
            `invalid conversion from Decimal128 result in ${name} resulting from arguments: [${String(value)}, ${at}]`,
          );
        return integerResult(result, type === 'long');
      }
    }
  };
}

/** The arithmetic operators with mongod's result types and errors. */
export const ARITHMETIC_OPERATORS: Readonly<Record<string, ExpressionOperator>> = {
  $add: add,
  $subtract: subtract,
  $multiply: multiply,
  $divide: divide,
  $mod: mod,
  $pow: pow,
  $log: log,
  $round: rounding('$round'),
  $trunc: rounding('$trunc'),
};
