/**
 * Arithmetic expressions over Int64 operands, as mongod types them. mingo
 * takes JS numbers only, and the server holds an Int64 as a `bigint`: every
 * `$add`, `$subtract`, `$multiply`, `$divide`, `$mod`, `$pow`, `$round` and
 * `$trunc` that met one failed ("must resolve to array of numbers"), so a
 * counter past 2^31 could no longer be computed with.
 *
 * mongod's rules: the result has the widest operand type (int32 < Int64 <
 * double); an int32 result that overflows is an Int64, an Int64 one that
 * overflows is a double; `$divide` is a double.
 */
import { CommandError } from '../commands/command-error.js';
import { fitsInt64, numericType, storedDouble, toDouble } from './numeric-types.js';

/** The operators this module computes when an operand is an Int64. */
export const INTEGER_OPERATORS = new Set([
  '$add',
  '$subtract',
  '$multiply',
  '$divide',
  '$mod',
  '$pow',
  '$round',
  '$trunc',
]);

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/** An exact integer result typed as mongod types it: int32 if it fits and no operand was wider, else Int64, else double. */
function integerResult(value: bigint, long: boolean): unknown {
  if (!fitsInt64(value)) return storedDouble(Number(value));
  return long || value < INT32_MIN || value > INT32_MAX ? value : Number(value);
}

/**
 * A sum or product of integers, exact while it is an Int64; past that mongod
 * goes on in double (which also keeps a hostile list of operands from
 * growing one bigint without bound).
 */
function foldIntegers(values: readonly bigint[], sum: boolean, long: boolean): unknown {
  let exact = sum ? 0n : 1n;
  for (let i = 0; i < values.length; i++) {
    exact = sum ? exact + values[i]! : exact * values[i]!;
    if (!fitsInt64(exact)) {
      let rest = Number(exact);
      for (const value of values.slice(i + 1)) rest = sum ? rest + Number(value) : rest * Number(value);
      return storedDouble(rest);
    }
  }
  return integerResult(exact, long);
}

/** `$pow` of integers: exact while the result is an Int64 (an exponent this large makes any base but -1, 0, 1 overflow). */
function integerPower(base: bigint, exponent: bigint, long: boolean): unknown {
  if (exponent < 0n) return storedDouble(Number(base) ** Number(exponent));
  if (exponent > 64n && (base > 1n || base < -1n)) return storedDouble(Number(base) ** Number(exponent));
  return integerResult(base ** exponent, long);
}

/** `value` (an integer) rounded or truncated to `place` digits (a negative place rounds to tens, hundreds…). */
function integerPlace(value: bigint, place: number, round: boolean): bigint {
  if (place >= 0) return value;
  const unit = 10n ** BigInt(-place);
  const truncated = (value / unit) * unit;
  if (!round) return truncated;
  // Half to even, as $round rounds: 25 → 20, 35 → 40 at place -1.
  const rest = value - truncated;
  const twice = 2n * (rest < 0n ? -rest : rest);
  const quotient = value / unit;
  const away = twice > unit || (twice === unit && quotient % 2n !== 0n);
  return away ? truncated + (value < 0n ? -unit : unit) : truncated;
}

/**
 * `operator` over evaluated numeric `operands` of which one is an Int64 (and
 * none a Decimal128, see decimal-arithmetic.ts); undefined when this module
 * leaves the case to mingo (a date, a non-numeric place).
 */
export function integerArithmetic(operator: string, operands: readonly unknown[]): unknown {
  const types = operands.map(numericType);
  if (types.includes(undefined) || types.includes('decimal')) return undefined;
  const long = types.includes('long');
  if (operator === '$round' || operator === '$trunc') {
    const place = operands.length > 1 ? toDouble(operands[1]) : 0;
    // mongod's range of places; outside it (and for a double) mingo answers.
    if (types[0] === 'double' || !Number.isInteger(place) || place < -20 || place >= 100) return undefined;
    return integerResult(integerPlace(BigInt(String(operands[0])), place, operator === '$round'), long);
  }
  if (operator === '$divide') {
    const [a, b] = operands.map(toDouble) as [number, number];
    if (b === 0) throw new CommandError('BadValue', "can't $divide by zero");
    return storedDouble(a / b);
  }
  if (types.includes('double')) {
    const values = operands.map(toDouble);
    if (operator === '$mod' && values[1] === 0) throw new CommandError('Location16610', "can't $mod by zero");
    const compute: Record<string, (values: number[]) => number> = {
      $add: (v) => v.reduce((a, b) => a + b, 0),
      $subtract: ([a, b]) => a! - b!,
      $multiply: (v) => v.reduce((a, b) => a * b, 1),
      $mod: ([a, b]) => a! % b!,
      $pow: ([a, b]) => a! ** b!,
    };
    return storedDouble(compute[operator]!(values));
  }
  const values = operands.map((operand) => BigInt(String(operand)));
  switch (operator) {
    case '$add':
    case '$multiply':
      return foldIntegers(values, operator === '$add', long);
    case '$subtract':
      return integerResult(values[0]! - values[1]!, long);
    case '$mod':
      if (values[1] === 0n) throw new CommandError('Location16610', "can't $mod by zero");
      return integerResult(values[0]! % values[1]!, long);
    case '$pow':
      if (values[0] === 0n && values[1]! < 0n) {
        throw new CommandError('Location28764', '$pow cannot take a base of 0 and a negative exponent');
      }
      return integerPower(values[0]!, values[1]!, long);
    default:
      return undefined;
  }
}
