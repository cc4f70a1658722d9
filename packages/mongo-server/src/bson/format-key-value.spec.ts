import { Double, Long, MaxKey } from './bson-library.cjs';
import { formatDouble, formatKeyValue } from './format-key-value.js';

describe('formatDouble', () => {
  // Expected texts from C's printf('%.16g') (as mongod's StringBuilder::appendDoubleNice uses it), then `.0`.
  it.each<[number, string]>([
    [2.5, '2.5'],
    [0.1 + 0.2, '0.3'],
    [1 / 3, '0.3333333333333333'],
    [123.456, '123.456'],
    [0.0001, '0.0001'],
    [1e-5, '1e-05.0'],
    [-1.5e-7, '-1.5e-07'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16.0'],
    [1e20, '1e+20.0'],
    [123456789012345680000, '1.234567890123457e+20'],
    [2 ** 31, '2147483648.0'],
    [5, '5.0'],
    [-0, '-0.0'],
    [Number.NaN, 'nan.0'],
    [Infinity, 'inf.0'],
    [-Infinity, '-inf.0'],
  ])('%p prints as %s', (value, text) => {
    expect(formatDouble(value)).toBe(text);
  });
});

describe('formatKeyValue numbers', () => {
  it.each<[unknown, string]>([
    [5, '5'],
    [-(2 ** 31), '-2147483648'],
    [2 ** 31, '2147483648.0'],
    [2.5, '2.5'],
    [-0, '-0.0'],
    [new Double(5), '5.0'],
    [Long.fromNumber(5), '5'],
    [5n, '5'],
    [new MaxKey(), 'MaxKey'],
  ])('%p prints as %s', (value, text) => {
    expect(formatKeyValue(value)).toBe(text);
  });
});
