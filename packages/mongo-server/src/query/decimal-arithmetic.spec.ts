import { Decimal128, Double } from '../bson/bson-library.cjs';
import { decimalArithmetic, decimalAverage, decimalSum, hasDecimal } from './decimal-arithmetic.js';

const dec = (text: string) => Decimal128.fromString(text);

/**
 * Decimal128 arithmetic by IEEE 754-2008's rules (34 digits, half to even,
 * the exponent an exact result prefers), the answers mongod gives.
 * conformance-decimal-arithmetic.spec.ts checks the operators through the driver.
 */
describe('decimal arithmetic', () => {
  it.each<[string, '$add' | '$subtract' | '$multiply' | '$divide', unknown[], string]>([
    ['keeps the finer exponent of a sum', '$add', [dec('1.10'), dec('2.205')], '3.305'],
    ['adds three', '$add', [dec('-1.0'), dec('2.0'), dec('3.0')], '4.0'],
    ['adds one alone', '$add', [dec('-1.0')], '-1.0'],
    ['adds an int32 exactly', '$add', [dec('1.10'), 1], '2.10'],
    ['adds an Int64 exactly', '$add', [dec('0.5'), 9007199254740993n], '9007199254740993.5'],
    ['adds a double at 15 digits', '$add', [dec('1.1'), 2.5], '3.60000000000000'],
    ['adds an integral double marker at 15 digits', '$add', [dec('0'), new Double(3)], '3.00000000000000'],
    ['gives +0 for x + -x', '$add', [dec('0.1'), dec('-0.1')], '0.0'],
    ['gives -0 for -0 + -0', '$add', [dec('-0'), dec('-0')], '-0'],
    [
      'rounds a 35th digit half to even (down)',
      '$add',
      [dec('1234567890123456789012345678901234'), dec('0.5')],
      '1234567890123456789012345678901234',
    ],
    [
      'rounds a 35th digit half to even (up)',
      '$add',
      [dec('1234567890123456789012345678901235'), dec('0.5')],
      '1234567890123456789012345678901236',
    ],
    [
      'carries a rounding into a new digit',
      '$add',
      [dec('9999999999999999999999999999999999'), dec('0.5')],
      '1.000000000000000000000000000000000E+34',
    ],
    ['is NaN with a NaN', '$add', [dec('NaN'), 1], 'NaN'],
    ['is NaN for +Inf + -Inf', '$add', [dec('Infinity'), dec('-Infinity')], 'NaN'],
    ['keeps an infinity', '$add', [dec('-Infinity'), 5], '-Infinity'],
    ['subtracts', '$subtract', [dec('1.10'), 2], '-0.90'],
    ['multiplies, adding exponents', '$multiply', [dec('1.10'), 2], '2.20'],
    ['multiplies three', '$multiply', [dec('1.5'), dec('1.5'), dec('2')], '4.50'],
    ['is NaN for 0 × Inf', '$multiply', [dec('0'), dec('Infinity')], 'NaN'],
    ['divides to 34 digits', '$divide', [dec('1'), 3], '0.3333333333333333333333333333333333'],
    ['rounds a quotient half to even', '$divide', [dec('2'), 3], '0.6666666666666666666666666666666667'],
    ['divides exactly at the preferred exponent', '$divide', [dec('10'), 4], '2.5'],
    ['divides an exact quotient to the exponents difference', '$divide', [dec('3.305'), 2], '1.6525'],
    ['keeps trailing zeros the preferred exponent asks', '$divide', [dec('6.00'), 2], '3.00'],
    ['is 0 for x ÷ Inf', '$divide', [dec('5'), dec('Infinity')], '0'],
  ])('%s', (_label, operator, operands, expected) => {
    expect(decimalArithmetic(operator, operands).toString()).toBe(expected);
  });

  it('refuses a division by zero as mongod 7 does (BadValue)', () => {
    expect(() => decimalArithmetic('$divide', [dec('1'), 0])).toThrow(
      expect.objectContaining({ code: 2, message: "can't $divide by zero" }),
    );
  });

  it.each<[string, unknown[], string]>([
    ['ints and decimals', [1, dec('1.10'), 2n, 'text', null], '4.10'],
    ['decimals only', [dec('1.10'), dec('2.205')], '3.305'],
  ])('sums %s, skipping non-numbers', (_label, values, expected) => {
    expect(decimalSum(values).toString()).toBe(expected);
  });

  it.each<[string, unknown[], string | null]>([
    ['two decimals', [dec('1.10'), dec('2.205')], '1.6525'],
    ['a decimal and an int, skipping a string', [dec('1'), 2, 'x'], '1.5'],
    ['thirds', [dec('1'), 0, 0], '0.3333333333333333333333333333333333'],
    ['no numbers', ['a', null], null],
  ])('averages %s', (_label, values, expected) => {
    expect(decimalAverage(values)?.toString() ?? null).toBe(expected);
  });

  it.each<[unknown[], boolean]>([
    [[1, 2.5, 3n], false],
    [[1, dec('1')], true],
    [[], false],
  ])('hasDecimal(%p) is %p', (values, expected) => {
    expect(hasDecimal(values)).toBe(expected);
  });
});
