/**
 * Decimal128 arithmetic as mongod does it (IEEE 754-2008 decimal, 34
 * digits, rounding half to even), for the expressions and accumulators that
 * meet a Decimal128: `$add`, `$subtract`, `$multiply`, `$divide`, `$sum`,
 * `$avg`. mingo has no decimal type: `$sum` of Decimal128 values answered 0
 * and `$add` failed.
 *
 * A value is held exactly as sign × coefficient × 10^exponent (bigint
 * coefficient); an int32 or Int64 converts exactly, a double to its 15
 * significant digits (mongod's `Decimal128(double)`: 2.5 is 2.50000000000000).
 */

import { Decimal128 } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';
import { numericType, toDouble } from './numeric-types.js';

/** A finite decimal, or one of the specials. */
type Decimal =
  | { kind: 'finite'; negative: boolean; coefficient: bigint; exponent: number }
  | { kind: 'nan' }
  | { kind: 'infinity'; negative: boolean };

const DIGITS = 34;
const MAX_COEFFICIENT = 10n ** BigInt(DIGITS);
const MAX_EXPONENT = 6111;
const MIN_EXPONENT = -6176;

const NAN: Decimal = { kind: 'nan' };

/** The longest text {@link parseDecimal} reads: every digit a Decimal128 can hold, and room for an exponent. */
const MAX_DECIMAL_TEXT = 6200;

/** Parses a decimal's text ("-1.50", "1.2E+5", "NaN", "-Infinity", a double's `toPrecision`). */
function parse(text: string): Decimal {
  if (/^[-+]?nan$/i.test(text)) return NAN;
  const infinity = /^([-+])?inf(inity)?$/i.exec(text);
  if (infinity) return { kind: 'infinity', negative: infinity[1] === '-' };
  const match = /^([-+])?(\d*)(?:\.(\d*))?(?:e([-+]?\d+))?$/i.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const fraction = match[3] ?? '';
  return {
    kind: 'finite',
    negative: match[1] === '-',
    coefficient: BigInt(`${match[2] ?? ''}${fraction}` || '0'),
    exponent: Number(match[4] ?? 0) - fraction.length,
  };
}

/** A number (int32, Int64, double, Decimal128) as a decimal; undefined for anything else. */
function toDecimal(value: unknown): Decimal | undefined {
  switch (numericType(value)) {
    case 'int':
    case 'long': {
      const n = BigInt(String(value));
      return { kind: 'finite', negative: n < 0n, coefficient: n < 0n ? -n : n, exponent: 0 };
    }
    case 'double': {
      const x = toDouble(value);
      if (Number.isNaN(x)) return NAN;
      if (!Number.isFinite(x)) return { kind: 'infinity', negative: x < 0 };
      const parsed = parse(Math.abs(x).toPrecision(15));
      return parsed.kind === 'finite' ? { ...parsed, negative: x < 0 || Object.is(x, -0) } : parsed;
    }
    case 'decimal':
      return parse(String(value));
    default:
      return undefined;
  }
}

/** `n` divided by 10^`places`, rounded half to even. */
function roundHalfEven(n: bigint, places: number): bigint {
  if (places <= 0) return n;
  const divisor = 10n ** BigInt(places);
  const quotient = n / divisor;
  const twice = (n % divisor) * 2n;
  if (twice > divisor || (twice === divisor && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

function digitsOf(n: bigint): number {
  return n === 0n ? 1 : n.toString().length;
}

/** `value` fitted to Decimal128: at most 34 digits and the exponent's range (rounded, or padded with zeros). */
function fitted(value: Decimal): Decimal128 {
  if (value.kind === 'nan') return Decimal128.fromString('NaN');
  if (value.kind === 'infinity') return Decimal128.fromString(value.negative ? '-Infinity' : 'Infinity');
  let { coefficient, exponent } = value;
  const excess = Math.max(digitsOf(coefficient) - DIGITS, MIN_EXPONENT - exponent);
  if (excess > 0) {
    coefficient = roundHalfEven(coefficient, excess);
    exponent += excess;
    // Rounding up may carry into a 35th digit (99…9.5 is 10…0).
    if (coefficient >= MAX_COEFFICIENT) {
      coefficient /= 10n;
      exponent += 1;
    }
  }
  if (exponent > MAX_EXPONENT) {
    const pad = exponent - MAX_EXPONENT;
    if (coefficient !== 0n && digitsOf(coefficient) + pad > DIGITS) {
      return Decimal128.fromString(value.negative ? '-Infinity' : 'Infinity');
    }
    coefficient *= coefficient === 0n ? 1n : 10n ** BigInt(pad);
    exponent = MAX_EXPONENT;
  }
  return Decimal128.fromString(`${value.negative ? '-' : ''}${coefficient}E${exponent}`);
}

/** `value` rounded to what a Decimal128 holds, kept as a {@link Decimal} for the next step. */
function refit(value: Decimal): Decimal {
  return parse(fitted(value).toString());
}

function add(a: Decimal, b: Decimal): Decimal {
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  if (a.kind === 'infinity' || b.kind === 'infinity') {
    if (a.kind === 'infinity' && b.kind === 'infinity' && a.negative !== b.negative) return NAN;
    return a.kind === 'infinity' ? a : b;
  }
  const exponent = Math.min(a.exponent, b.exponent);
  const signed = (d: typeof a) => (d.negative ? -1n : 1n) * d.coefficient * 10n ** BigInt(d.exponent - exponent);
  const sum = signed(a) + signed(b);
  // An exact zero sum is +0, unless both were -0.
  const negative = sum < 0n || (sum === 0n && a.negative && b.negative);
  return { kind: 'finite', negative, coefficient: sum < 0n ? -sum : sum, exponent };
}

function negate(a: Decimal): Decimal {
  return a.kind === 'nan' ? a : { ...a, negative: !a.negative };
}

function multiply(a: Decimal, b: Decimal): Decimal {
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  const negative = a.negative !== b.negative;
  if (a.kind === 'infinity' || b.kind === 'infinity') {
    const other = a.kind === 'infinity' ? b : a;
    return other.kind === 'finite' && other.coefficient === 0n ? NAN : { kind: 'infinity', negative };
  }
  return { kind: 'finite', negative, coefficient: a.coefficient * b.coefficient, exponent: a.exponent + b.exponent };
}

/** a ÷ b to 34 digits; an exact quotient keeps the exponent IEEE prefers (a's less b's) where it can. */
function divide(a: Decimal, b: Decimal): Decimal {
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  const negative = a.negative !== b.negative;
  if (a.kind === 'infinity') return b.kind === 'infinity' ? NAN : { kind: 'infinity', negative };
  if (b.kind === 'infinity') return { kind: 'finite', negative, coefficient: 0n, exponent: 0 };
  // mongod 7's ExpressionDivide::apply: BadValue (16608 was an older server's).
  if (b.coefficient === 0n) throw new CommandError('BadValue', "can't $divide by zero");
  const preferred = a.exponent - b.exponent;
  if (a.coefficient === 0n) return { kind: 'finite', negative, coefficient: 0n, exponent: preferred };
  // Enough digits for 34 and a rounding digit, whatever the operands' lengths.
  const shift = Math.max(0, DIGITS + 1 - digitsOf(a.coefficient) + digitsOf(b.coefficient));
  const scaled = a.coefficient * 10n ** BigInt(shift);
  let coefficient = scaled / b.coefficient;
  let exponent = preferred - shift;
  if (scaled % b.coefficient === 0n) {
    while (exponent < preferred && coefficient % 10n === 0n) {
      coefficient /= 10n;
      exponent += 1;
    }
  } else {
    // Not exact: a sticky digit so half-even rounding sees the remainder.
    coefficient = coefficient * 10n + 1n;
    exponent -= 1;
  }
  return { kind: 'finite', negative, coefficient, exponent };
}

/**
 * Text read as a Decimal128 as mongod reads it: rounded to 34 digits, or
 * `overflow`/`underflow` where the exponent leaves Decimal128's range;
 * undefined for text that is not a number.
 */
export function parseDecimal(text: string): Decimal128 | 'overflow' | 'underflow' | undefined {
  // A megabyte of digits (a client's) is refused rather than read into a bigint, where mongod would round it.
  if (text.length > MAX_DECIMAL_TEXT) return undefined;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) && !/^[-+]?(inf|infinity|nan)$/i.test(text)) {
    return undefined;
  }
  const value = parse(text);
  const result = fitted(value);
  if (value.kind === 'finite' && value.coefficient !== 0n) {
    const shown = result.toString();
    if (/inf/i.test(shown)) return 'overflow';
    if (/^-?0(E|$)/.test(shown)) return 'underflow';
  }
  return result;
}

/**
 * A decimal (or a number's text) rounded half to even (`round`) or
 * truncated (`trunc`) to `place` digits after the point, as mongod's
 * `$round`/`$trunc` quantize it: the result has exactly that exponent
 * (`$round` of 1.5 to 2 places is 1.50), NaN and the infinities stay.
 */
export function decimalRound(value: Decimal128 | string, place: number, mode: 'round' | 'trunc'): Decimal128 {
  const parsed = parse(String(value));
  if (parsed.kind !== 'finite') return fitted(parsed);
  const target = -place;
  let { coefficient, exponent } = parsed;
  if (exponent < target) {
    const drop = target - exponent;
    coefficient = mode === 'round' ? roundHalfEven(coefficient, drop) : coefficient / 10n ** BigInt(drop);
    exponent = target;
  } else if (exponent > target && coefficient !== 0n) {
    // Zeros appended towards the place, as many as 34 digits hold (1.298 to 100 places is 1.298000…, 34 digits).
    const pad = Math.min(exponent - target, DIGITS - digitsOf(coefficient));
    coefficient *= 10n ** BigInt(Math.max(0, pad));
    exponent -= Math.max(0, pad);
  }
  return fitted({ ...parsed, coefficient, exponent });
}

/** Whether any of `values` is a Decimal128: then the arithmetic is decimal. */
export function hasDecimal(values: readonly unknown[]): boolean {
  return values.some((value) => numericType(value) === 'decimal');
}

/** The sum of the numbers among `values` as a Decimal128 (non-numbers skipped, as `$sum` skips them). */
export function decimalSum(values: readonly unknown[]): Decimal128 {
  return fitted(sumOf(values));
}

function sumOf(values: readonly unknown[]): Decimal {
  let total: Decimal = { kind: 'finite', negative: false, coefficient: 0n, exponent: 0 };
  for (const value of values) {
    const decimal = toDecimal(value);
    if (decimal) total = add(total, decimal);
  }
  return total;
}

/** The mean of the numbers among `values` as a Decimal128 (`$avg` once one is a Decimal128); null without numbers. */
export function decimalAverage(values: readonly unknown[]): Decimal128 | null {
  const count = values.filter((value) => toDecimal(value) !== undefined).length;
  if (count === 0) return null;
  return fitted(divide(sumOf(values), { kind: 'finite', negative: false, coefficient: BigInt(count), exponent: 0 }));
}

/** `$add`/`$subtract`/`$multiply`/`$divide` of numbers one of which is a Decimal128. */
export function decimalArithmetic(
  operator: '$add' | '$subtract' | '$multiply' | '$divide',
  operands: readonly unknown[],
): Decimal128 {
  const decimals = operands.map((operand) => toDecimal(operand)!);
  switch (operator) {
    case '$add':
      return fitted(decimals.reduce((a, b) => refit(add(a, b))));
    case '$subtract':
      return fitted(add(decimals[0]!, negate(decimals[1]!)));
    case '$multiply':
      // Each step rounded as IEEE rounds it: an overflow to infinity then times 0 is NaN, not 0.
      return fitted(decimals.reduce((a, b) => refit(multiply(a, b))));
    case '$divide':
      return fitted(divide(decimals[0]!, decimals[1]!));
  }
}
