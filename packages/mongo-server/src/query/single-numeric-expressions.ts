/**
 * mongod's one-number expression operators (`ExpressionSingleNumericArg`):
 * `$abs`, `$ceil`, `$floor`, `$sqrt`, `$exp`, `$ln`, `$log10`. mingo took
 * only JS numbers: an Int64 or a Decimal128 failed with BadValue ("must
 * resolve to number"), `$abs` of the int32 minimum came back a double,
 * `$ln` of a negative number was NaN, and a string failed with code 2
 * instead of 28765.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { Decimal128 } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { notSupported } from './expression-check.js';
import { INT64_MIN, numericType, storedDouble, toDouble } from './numeric-types.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

const INT32_MIN = -(2 ** 31);

/** A finite Decimal128's value as coefficient × 10^exponent; undefined for NaN and the infinities. */
function decimalParts(value: Decimal128): { coefficient: bigint; exponent: number } | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:E([+-]\d+))?$/.exec(value.toString());
  if (!match) return undefined;
  const fraction = match[3] ?? '';
  const digits = BigInt(`${match[2]}${fraction}`);
  return { coefficient: match[1] ? -digits : digits, exponent: Number(match[4] ?? 0) - fraction.length };
}

/** A Decimal128 rounded to an integer towards `direction` (mongod quantizes to exponent 0); NaN and infinities as they are. */
function roundDecimal(value: Decimal128, direction: 'ceil' | 'floor'): Decimal128 {
  const parts = decimalParts(value);
  if (!parts || parts.exponent >= 0) return value;
  const scale = 10n ** BigInt(-parts.exponent);
  // bigint division truncates towards zero; step once the other way where the direction asks.
  let whole = parts.coefficient / scale;
  const rest = parts.coefficient % scale;
  if (direction === 'ceil' && rest > 0n) whole += 1n;
  if (direction === 'floor' && rest < 0n) whole -= 1n;
  // -0.5 ceils to -0, which mongod keeps.
  return Decimal128.fromString(whole === 0n && parts.coefficient < 0n ? '-0' : whole.toString());
}

/** A number operand's text in mongod's messages: a double as C++ streams it, a decimal by its string. */
function numberText(value: unknown): string {
  return typeof value === 'number' || numericType(value) === 'double' ? String(toDouble(value)) : String(value);
}

/** `$abs`: an int32 minimum widens to Int64 (mongod's `-(long long)n`), an Int64 minimum is 28680. */
function abs(value: unknown): unknown {
  switch (numericType(value)) {
    case 'int':
      return value === INT32_MIN ? 2n ** 31n : Math.abs(value as number);
    case 'long':
      if (value === INT64_MIN) throw new CommandError('Location28680', "can't take $abs of long long min");
      return (value as bigint) < 0n ? -(value as bigint) : value;
    case 'decimal': {
      const text = String(value);
      return text.startsWith('-') ? Decimal128.fromString(text.slice(1)) : value;
    }
    default:
      return storedDouble(Math.abs(toDouble(value)));
  }
}

/** `$ceil`/`$floor`: integers as they are, a double stays one, a decimal rounds exactly. */
function rounding(direction: 'ceil' | 'floor'): (value: unknown) => unknown {
  return (value) => {
    switch (numericType(value)) {
      case 'int':
      case 'long':
        return value;
      case 'decimal':
        return roundDecimal(value as Decimal128, direction);
      default:
        return storedDouble(Math[direction](toDouble(value)));
    }
  };
}

/**
 * An operator that computes in double (`coerceToDouble`, an Int64 too) and
 * refuses a Decimal128: mongod computes those in 34-digit decimal, which a
 * double would answer with other digits.
 */
function inDouble(
  name: string,
  compute: (x: number) => number,
  check?: (x: number, value: unknown) => void,
): (value: unknown) => unknown {
  return (value) => {
    const x = toDouble(value);
    // The domain is checked first: mongod's error for `$ln` of a decimal 0 is the same as for a double's.
    check?.(x, value);
    if (numericType(value) === 'decimal') throw notSupported(`${name} of a Decimal128`);
    return storedDouble(compute(x));
  };
}

/** A domain check of `$ln`/`$log10`: a positive number or NaN. */
function positive(code: 'Location28766' | 'Location28761', name: string): (x: number, value: unknown) => void {
  return (x, value) => {
    if (!(x > 0 || Number.isNaN(x))) {
      throw new CommandError(code, `${name}'s argument must be a positive number, but is ${numberText(value)}`);
    }
  };
}

/** The operator `name` over one evaluated number: null for null or missing, 28765 for a non-number. */
function singleNumeric(name: string, compute: (value: unknown) => unknown): ExpressionOperator {
  return (obj, expr, options) => {
    const value: unknown = evalExpr(obj, expr, options);
    if (value === null || value === undefined) return null;
    if (numericType(value) === undefined) {
      throw new CommandError('Location28765', `${name} only supports numeric types, not ${typeAlias(value)}`);
    }
    return compute(value);
  };
}

/** `$abs`, `$ceil`, `$floor`, `$sqrt`, `$exp`, `$ln`, `$log10` with mongod's types and errors. */
export const SINGLE_NUMERIC_EXPRESSION_OPERATORS: Readonly<Record<string, ExpressionOperator>> = {
  $abs: singleNumeric('$abs', abs),
  $ceil: singleNumeric('$ceil', rounding('ceil')),
  $floor: singleNumeric('$floor', rounding('floor')),
  $sqrt: singleNumeric(
    '$sqrt',
    inDouble('$sqrt', Math.sqrt, (x) => {
      if (!(x >= 0 || Number.isNaN(x))) {
        throw new CommandError('Location28714', "$sqrt's argument must be greater than or equal to 0");
      }
    }),
  ),
  $exp: singleNumeric('$exp', inDouble('$exp', Math.exp)),
  $ln: singleNumeric('$ln', inDouble('$ln', Math.log, positive('Location28766', '$ln'))),
  $log10: singleNumeric('$log10', inDouble('$log10', Math.log10, positive('Location28761', '$log10'))),
};
