/**
 * Conformance: `$convert` and its shortcuts (`$toString`, `$toInt`,
 * `$toLong`, `$toDouble`, `$toDecimal`, `$toBool`, `$toDate`,
 * `$toObjectId`). The cases and their answers are mongod's own, ported from
 * jstests/aggregation/expressions/convert.js (one row per supported
 * conversion, run through `$convert` and through the shortcut, and the
 * unsupported conversions with and without `onError`) and from
 * src/mongo/db/pipeline/expression_convert_test.cpp (identity conversions,
 * every type to bool, numbers to double and decimal, truncation to int and
 * long with the overflow, NaN and infinity errors, numbers and ObjectIds to
 * dates, text parsed to each number type, to an ObjectId and to a date, each
 * type formatted as text, the unsupported conversions (ConversionFailure,
 * 241), nullish input and `to`, `onNull`, `onError`, the errors of a bad
 * `to` (BadValue 2, FailedToParse 9), and the shortcuts' argument count,
 * 50723). Error messages are the fragments the C++ test checks, in the
 * wording it has had since MongoDB 4.2 (whose number parser says "Did not
 * consume whole string", where 4.0's said "Bad digit"); an unsupported `to`
 * type is a ConversionFailure that `onError` catches, as convert.js has it
 * (4.0's first version refused it with FailedToParse). A result whose source
 * compares values only (a double made a decimal) is checked by value.
 * Inputs are stored as the fields of one document and read back through
 * `$project` with their BSON types (`promoteValues: false`): `int 5`,
 * `long 5`, `double 2.5`, `decimal 2.50`, `date 1970-01-01T00:00:00.000Z`,
 * `objectId …`, strings as they are. Written to hold against a real
 * MongoDB 7 (MONGO_URL) too.
 */
import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  type Collection,
  DBRef,
  Decimal128,
  type Document,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
} from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';
import { bsonText, decimalValue, pipelineFailure } from './raw-replies.fixture.js';
import { StoredInputs } from './stored-inputs.fixture.js';

const fx = useDriverFixture();

/** The suite's inputs, stored as the fields of its one document. */
const inputs = new StoredInputs();

/** The path of `value` in the suite's document, so that the input reaches `$convert` through storage. */
function stored(value: unknown): string {
  return inputs.store(value);
}

const double = (n: number) => stored(new Double(n));
const int = (n: number) => stored(new Int32(n));
const long = (text: string) => stored(Long.fromString(text));
const dec = (text: string) => stored(Decimal128.fromString(text));
const oid = (hex: string) => stored(new ObjectId(hex));
const date = (millis: number) => stored(new Date(millis));
const str = (text: string) => stored(text);

/** Decimal128's negative NaN (the driver's parser drops the sign of "-NaN"). */
const DECIMAL_NEGATIVE_NAN = new Decimal128(Uint8Array.from([...Array<number>(15).fill(0), 0xfc]));

/** The double next to `x` away from zero (C's nextafter towards ±infinity). */
function awayFromZero(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}

/** The double next to `x` towards zero. */
function towardZero(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) - 1n);
  return view.getFloat64(0);
}

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;
/** ExpressionConvert::kLongLongMaxPlusOneAsDouble. */
const LONG_MAX_PLUS_ONE = 2 ** 63;

/**
 * A Decimal128 of `text`'s value in whatever exponent, for the cases whose
 * source compares values only (mongod's Value equality ignores the exponent).
 */
function decimalOfValue(text: string) {
  return {
    $$typeof: Symbol.for('jest.asymmetricMatcher'),
    asymmetricMatch: (actual: unknown) =>
      typeof actual === 'string' &&
      actual.startsWith('decimal ') &&
      decimalValue(actual.slice(8)) === decimalValue(text),
    toAsymmetricMatcher: () => `decimal of the value ${text}`,
  };
}

/** The shortcut of each target type. */
const SHORTCUT: Readonly<Record<string, string>> = {
  double: '$toDouble',
  string: '$toString',
  objectId: '$toObjectId',
  bool: '$toBool',
  date: '$toDate',
  int: '$toInt',
  long: '$toLong',
  decimal: '$toDecimal',
};

/** convert.js's conversion table: [label, input, target type, the typed answer]. */
const CONVERSION_TABLE: [string, string, string, unknown][] = [
  ['double 1.9', double(1.9), 'double', 'double 1.9'],
  ['double 1.9', double(1.9), 'string', '1.9'],
  ['double 1.9', double(1.9), 'bool', true],
  ['double 1.9', double(1.9), 'date', 'date 1970-01-01T00:00:00.001Z'],
  ['double 1.9', double(1.9), 'int', 'int 1'],
  ['double 1.9', double(1.9), 'long', 'long 1'],
  ['double 1.9', double(1.9), 'decimal', decimalOfValue('1.9')],
  ['string "1.9"', str('1.9'), 'double', 'double 1.9'],
  ['string "str"', str('str'), 'string', 'str'],
  ['a hex string', str('0123456789abcdef01234567'), 'objectId', 'objectId 0123456789abcdef01234567'],
  ['an empty string', str(''), 'bool', true],
  ['an ISO date string', str('1970-01-01T00:00:00.001Z'), 'date', 'date 1970-01-01T00:00:00.001Z'],
  ['string "1"', str('1'), 'int', 'int 1'],
  ['string "1"', str('1'), 'long', 'long 1'],
  ['string "1.9"', str('1.9'), 'decimal', 'decimal 1.9'],
  ['an ObjectId', oid('0123456789abcdef01234567'), 'string', '0123456789abcdef01234567'],
  ['an ObjectId', oid('0123456789abcdef01234567'), 'bool', true],
  ['an ObjectId', oid('0123456789abcdef01234567'), 'objectId', 'objectId 0123456789abcdef01234567'],
  ['an ObjectId', oid('0123456789abcdef01234567'), 'date', 'date 1970-08-09T22:25:43.000Z'],
  ['false', stored(false), 'double', 'double 0'],
  ['false', stored(false), 'string', 'false'],
  ['false', stored(false), 'bool', false],
  ['false', stored(false), 'int', 'int 0'],
  ['false', stored(false), 'long', 'long 0'],
  ['false', stored(false), 'decimal', 'decimal 0'],
  ['a date', date(123), 'double', 'double 123'],
  ['a date', date(123), 'string', '1970-01-01T00:00:00.123Z'],
  ['a date', date(123), 'bool', true],
  ['a date', date(123), 'date', 'date 1970-01-01T00:00:00.123Z'],
  ['a date', date(123), 'long', 'long 123'],
  ['a date', date(123), 'decimal', 'decimal 123'],
  ['int 1', int(1), 'double', 'double 1'],
  ['int 1', int(1), 'string', '1'],
  ['int 1', int(1), 'bool', true],
  ['int 1', int(1), 'int', 'int 1'],
  ['int 1', int(1), 'long', 'long 1'],
  ['int 1', int(1), 'decimal', 'decimal 1'],
  ['long 1', long('1'), 'double', 'double 1'],
  ['long 1', long('1'), 'string', '1'],
  ['long 1', long('1'), 'bool', true],
  ['long 1', long('1'), 'date', 'date 1970-01-01T00:00:00.001Z'],
  ['long 1', long('1'), 'int', 'int 1'],
  ['long 1', long('1'), 'long', 'long 1'],
  ['long 1', long('1'), 'decimal', 'decimal 1'],
  ['decimal 1.9', dec('1.9'), 'double', 'double 1.9'],
  ['decimal 1.9', dec('1.9'), 'string', '1.9'],
  ['decimal 1.9', dec('1.9'), 'bool', true],
  ['decimal 1.9', dec('1.9'), 'date', 'date 1970-01-01T00:00:00.001Z'],
  ['decimal 1.9', dec('1.9'), 'int', 'int 1'],
  ['decimal 1.9', dec('1.9'), 'long', 'long 1'],
  ['decimal 1.9', dec('1.9'), 'decimal', 'decimal 1.9'],
  ['MinKey', stored(new MinKey()), 'bool', true],
  ['an object', stored({ foo: 1, bar: 2 }), 'bool', true],
  ['an array', stored([1, 2]), 'bool', true],
  ['BinData', stored(Binary.createFromBase64('BBBBBBBBBBBBBBBBBBBBBBBBBBBB', 0)), 'bool', true],
  ['a regex', stored(new BSONRegExp('B*')), 'bool', true],
  ['a DBRef', stored(new DBRef('db.test', 'oid' as unknown as ObjectId)), 'bool', true],
  ['JavaScript code', stored(new Code('function() {}')), 'bool', true],
  ['a timestamp', stored(new Timestamp({ t: 0, i: 1 })), 'bool', true],
];

/** expression_convert_test.cpp's conversions: [label, input, target type, the typed answer]. */
const CONVERSIONS: [string, string, string, unknown][] = [
  // Identity conversions.
  ['double 2.4', double(2.4), 'double', 'double 2.4'],
  ['double NaN', double(NaN), 'double', 'double NaN'],
  ['double infinity', double(Infinity), 'double', 'double Infinity'],
  ['double -infinity', double(-Infinity), 'double', 'double -Infinity'],
  ['true', stored(true), 'bool', true],
  ['false', stored(false), 'bool', false],
  ['a string', str('More cowbell'), 'string', 'More cowbell'],
  ['an ObjectId', oid('0123456789abcdef01234567'), 'objectId', 'objectId 0123456789abcdef01234567'],
  ['a date', date(0), 'date', 'date 1970-01-01T00:00:00.000Z'],
  ['int 123', int(123), 'int', 'int 123'],
  ['long 123', long('123'), 'long', 'long 123'],
  ['decimal 2.4', dec('2.4'), 'decimal', 'decimal 2.4'],
  ['decimal NaN', dec('NaN'), 'decimal', 'decimal NaN'],
  ['decimal infinity', dec('Infinity'), 'decimal', 'decimal Infinity'],
  ['decimal -infinity', dec('-Infinity'), 'decimal', 'decimal -Infinity'],
  // To bool.
  ['a date', date(0), 'bool', true],
  ['int 1', int(1), 'bool', true],
  ['int 0', int(0), 'bool', false],
  ['long -1', long('-1'), 'bool', true],
  ['long 0', long('0'), 'bool', false],
  ['double 2.4', double(2.4), 'bool', true],
  ['double -0', double(-0), 'bool', false],
  ['double NaN', double(NaN), 'bool', true],
  ['double infinity', double(Infinity), 'bool', true],
  ['double -infinity', double(-Infinity), 'bool', true],
  ['decimal 5', dec('5'), 'bool', true],
  ['decimal 0', dec('0'), 'bool', false],
  ['decimal 0.00', dec('0.00'), 'bool', false],
  ['decimal -0.00', dec('-0.00'), 'bool', false],
  ['decimal NaN', dec('NaN'), 'bool', true],
  ['decimal -NaN', stored(DECIMAL_NEGATIVE_NAN), 'bool', true],
  ['decimal infinity', dec('Infinity'), 'bool', true],
  ['decimal -infinity', dec('-Infinity'), 'bool', true],
  ['string "str"', str('str'), 'bool', true],
  ['an empty string', str(''), 'bool', true],
  ['an ObjectId', oid('59E8A8D8FEDCBA9876543210'), 'bool', true],
  ['MinKey', stored(new MinKey()), 'bool', true],
  ['an object', stored({ foo: 1 }), 'bool', true],
  ['an array', stored([1]), 'bool', true],
  ['BinData', stored(new Binary(new TextEncoder().encode('(^_^)\0'))), 'bool', true],
  ['a regex', stored(new BSONRegExp('ab*a')), 'bool', true],
  ['JavaScript code', stored(new Code("print('Hello world!');")), 'bool', true],
  ['a symbol', stored(new BSONSymbol('print')), 'bool', true],
  ['JavaScript code with scope', stored(new Code("print('Hello again, world!')", {})), 'bool', true],
  ['a timestamp', stored(new Timestamp({ t: 1, i: 1 })), 'bool', true],
  ['MaxKey', stored(new MaxKey()), 'bool', true],
  // To double.
  ['int 1', int(1), 'double', 'double 1'],
  ['long 0xf00000000', long('64424509440'), 'double', 'double 64424509440'],
  ['decimal 5.5', dec('5.5'), 'double', 'double 5.5'],
  ['false', stored(false), 'double', 'double 0'],
  ['true', stored(true), 'double', 'double 1'],
  ['decimal NaN', dec('NaN'), 'double', 'double NaN'],
  ['decimal -NaN', stored(DECIMAL_NEGATIVE_NAN), 'double', 'double NaN'],
  ['decimal infinity', dec('Infinity'), 'double', 'double Infinity'],
  ['decimal -infinity', dec('-Infinity'), 'double', 'double -Infinity'],
  ['long 0xf0000000000000f, losing its low bits', long('1080863910568919055'), 'double', `double ${0xf00000000000000}`],
  ['decimal 1.125000000000000000005, losing precision', dec('1.125000000000000000005'), 'double', 'double 1.125'],
  ['a date', date(123), 'double', 'double 123'],
  // To decimal.
  ['int 1', int(1), 'decimal', 'decimal 1'],
  ['long 0xf00000000', long('64424509440'), 'decimal', 'decimal 64424509440'],
  ['double 0.1', double(0.1), 'decimal', decimalOfValue('0.1')],
  ['false', stored(false), 'decimal', 'decimal 0'],
  ['true', stored(true), 'decimal', 'decimal 1'],
  ['double NaN', double(NaN), 'decimal', 'decimal NaN'],
  ['double infinity', double(Infinity), 'decimal', 'decimal Infinity'],
  ['double -infinity', double(-Infinity), 'decimal', 'decimal -Infinity'],
  ['long 0xf0000000000000f, exactly', long('1080863910568919055'), 'decimal', 'decimal 1080863910568919055'],
  ['a date', date(123), 'decimal', 'decimal 123'],
  // Double to int and long, truncated towards zero.
  ['double 1', double(1), 'int', 'int 1'],
  ['double 2.1', double(2.1), 'int', 'int 2'],
  ['double 2.9', double(2.9), 'int', 'int 2'],
  ['double -2.1', double(-2.1), 'int', 'int -2'],
  ['double -2.9', double(-2.9), 'int', 'int -2'],
  ['the int maximum as a double', double(INT_MAX), 'int', `int ${INT_MAX}`],
  ['the int minimum as a double', double(INT_MIN), 'int', `int ${INT_MIN}`],
  ['double 1', double(1), 'long', 'long 1'],
  ['double 2.1', double(2.1), 'long', 'long 2'],
  ['double 2.9', double(2.9), 'long', 'long 2'],
  ['double -2.1', double(-2.1), 'long', 'long -2'],
  ['double -2.9', double(-2.9), 'long', 'long -2'],
  ['the highest double under 2^63', double(towardZero(LONG_MAX_PLUS_ONE)), 'long', 'long 9223372036854774784'],
  ['-2^63 as a double', double(-LONG_MAX_PLUS_ONE), 'long', 'long -9223372036854775808'],
  // Decimal to int and long, truncated towards zero.
  ['decimal 1.0', dec('1.0'), 'int', 'int 1'],
  ['decimal 2.1', dec('2.1'), 'int', 'int 2'],
  ['decimal 2.9', dec('2.9'), 'int', 'int 2'],
  ['decimal -2.1', dec('-2.1'), 'int', 'int -2'],
  ['decimal -2.9', dec('-2.9'), 'int', 'int -2'],
  ['the int maximum as a decimal', dec(String(INT_MAX)), 'int', `int ${INT_MAX}`],
  ['the int minimum as a decimal', dec(String(INT_MIN)), 'int', `int ${INT_MIN}`],
  ['decimal 1.0', dec('1.0'), 'long', 'long 1'],
  ['decimal 2.1', dec('2.1'), 'long', 'long 2'],
  ['decimal 2.9', dec('2.9'), 'long', 'long 2'],
  ['decimal -2.1', dec('-2.1'), 'long', 'long -2'],
  ['decimal -2.9', dec('-2.9'), 'long', 'long -2'],
  ['the long maximum as a decimal', dec('9223372036854775807'), 'long', 'long 9223372036854775807'],
  ['the long minimum as a decimal', dec('-9223372036854775808'), 'long', 'long -9223372036854775808'],
  // Between the integer types, and from dates and bools.
  ['a date', date(123), 'long', 'long 123'],
  ['int 1', int(1), 'long', 'long 1'],
  ['the int maximum', int(INT_MAX), 'long', `long ${INT_MAX}`],
  ['the int minimum', int(INT_MIN), 'long', `long ${INT_MIN}`],
  ['int 1', int(1), 'int', 'int 1'],
  ['the int maximum as a long', long(String(INT_MAX)), 'int', `int ${INT_MAX}`],
  ['the int minimum as a long', long(String(INT_MIN)), 'int', `int ${INT_MIN}`],
  ['false', stored(false), 'int', 'int 0'],
  ['true', stored(true), 'int', 'int 1'],
  ['false', stored(false), 'long', 'long 0'],
  ['true', stored(true), 'long', 'long 1'],
  // Numbers and ObjectIds to dates.
  ['long 0', long('0'), 'date', 'date 1970-01-01T00:00:00.000Z'],
  ['double 431568000000', double(431568000000), 'date', 'date 1983-09-05T00:00:00.000Z'],
  ['double 431568000000.987', double(431568000000.987), 'date', 'date 1983-09-05T00:00:00.000Z'],
  ['decimal 872835240000', dec('872835240000'), 'date', 'date 1997-08-29T06:14:00.000Z'],
  ['decimal 872835240000.987', dec('872835240000.987'), 'date', 'date 1997-08-29T06:14:00.000Z'],
  ['an ObjectId', oid('59E8A8D8FEDCBA9876543210'), 'date', 'date 2017-10-19T13:30:00.000Z'],
  ['an ObjectId past 2038', oid('8071be82122d3312074f0300'), 'date', 'date 2038-04-15T09:53:06.000Z'],
  // Text to int and long.
  ['string "5"', str('5'), 'int', 'int 5'],
  ['the int maximum as text', str(String(INT_MAX)), 'int', `int ${INT_MAX}`],
  ['string "5"', str('5'), 'long', 'long 5'],
  ['the long maximum as text', str('9223372036854775807'), 'long', 'long 9223372036854775807'],
  // Text to double.
  ['string "5"', str('5'), 'double', 'double 5'],
  ['string "5.5"', str('5.5'), 'double', 'double 5.5'],
  ['string ".5"', str('.5'), 'double', 'double 0.5'],
  ['string "+5"', str('+5'), 'double', 'double 5'],
  ['string "+5.0e42"', str('+5.0e42'), 'double', `double ${5.0e42}`],
  ['string "10000000000000000001", losing precision', str('10000000000000000001'), 'double', `double ${1e19}`],
  ['string "1.125000000000000000005", losing precision', str('1.125000000000000000005'), 'double', 'double 1.125'],
  ['string "Infinity"', str('Infinity'), 'double', 'double Infinity'],
  ['string "INF"', str('INF'), 'double', 'double Infinity'],
  ['string "infinity"', str('infinity'), 'double', 'double Infinity'],
  ['string "+InFiNiTy"', str('+InFiNiTy'), 'double', 'double Infinity'],
  ['string "-Infinity"', str('-Infinity'), 'double', 'double -Infinity'],
  ['string "-INF"', str('-INF'), 'double', 'double -Infinity'],
  ['string "-InFiNiTy"', str('-InFiNiTy'), 'double', 'double -Infinity'],
  ['string "-inf"', str('-inf'), 'double', 'double -Infinity'],
  ['string "-infinity"', str('-infinity'), 'double', 'double -Infinity'],
  ['string "-0"', str('-0'), 'double', 'double -0'],
  ['string "-0.0"', str('-0.0'), 'double', 'double -0'],
  ['string "+0"', str('+0'), 'double', 'double 0'],
  ['string "+0.0"', str('+0.0'), 'double', 'double 0'],
  ['string "nan"', str('nan'), 'double', 'double NaN'],
  ['string "Nan"', str('Nan'), 'double', 'double NaN'],
  ['string "NaN"', str('NaN'), 'double', 'double NaN'],
  ['string "-NAN"', str('-NAN'), 'double', 'double NaN'],
  ['string "+NaN"', str('+NaN'), 'double', 'double NaN'],
  // Text to decimal.
  ['string "5"', str('5'), 'decimal', 'decimal 5'],
  ['string "2.02"', str('2.02'), 'decimal', 'decimal 2.02'],
  ['string "2.02E200"', str('2.02E200'), 'decimal', 'decimal 2.02E+200'],
  [
    'the largest decimal as text',
    str('9.999999999999999999999999999999999E+6144'),
    'decimal',
    'decimal 9.999999999999999999999999999999999E+6144',
  ],
  [
    'the lowest decimal as text',
    str('-9.999999999999999999999999999999999E+6144'),
    'decimal',
    'decimal -9.999999999999999999999999999999999E+6144',
  ],
  ['string "Infinity"', str('Infinity'), 'decimal', 'decimal Infinity'],
  ['string "INF"', str('INF'), 'decimal', 'decimal Infinity'],
  ['string "infinity"', str('infinity'), 'decimal', 'decimal Infinity'],
  ['string "+InFiNiTy"', str('+InFiNiTy'), 'decimal', 'decimal Infinity'],
  ['string "-Infinity"', str('-Infinity'), 'decimal', 'decimal -Infinity'],
  ['string "-INF"', str('-INF'), 'decimal', 'decimal -Infinity'],
  ['string "-InFiNiTy"', str('-InFiNiTy'), 'decimal', 'decimal -Infinity'],
  ['string "-inf"', str('-inf'), 'decimal', 'decimal -Infinity'],
  ['string "-infinity"', str('-infinity'), 'decimal', 'decimal -Infinity'],
  ['string "nan"', str('nan'), 'decimal', 'decimal NaN'],
  ['string "Nan"', str('Nan'), 'decimal', 'decimal NaN'],
  ['string "NaN"', str('NaN'), 'decimal', 'decimal NaN'],
  ['string "+NaN"', str('+NaN'), 'decimal', 'decimal NaN'],
  ['string "-NAN"', str('-NAN'), 'decimal', 'decimal NaN'],
  ['string "-nan"', str('-nan'), 'decimal', 'decimal NaN'],
  ['string "-NaN"', str('-NaN'), 'decimal', 'decimal NaN'],
  ['string "-0"', str('-0'), 'decimal', 'decimal -0'],
  ['string "-0.0"', str('-0.0'), 'decimal', 'decimal -0.0'],
  ['string "+0"', str('+0'), 'decimal', 'decimal 0'],
  ['string "+0.0"', str('+0.0'), 'decimal', 'decimal 0.0'],
  [
    'string "10000000000000000000000000000000001", losing precision',
    str('10000000000000000000000000000000001'),
    'decimal',
    decimalOfValue('1e34'),
  ],
  [
    'string "1.1250000000000000000000000000000001", losing precision',
    str('1.1250000000000000000000000000000001'),
    'decimal',
    decimalOfValue('1.125'),
  ],
  // Text to ObjectId and to date.
  ['a hex string', str('123456789abcdef123456789'), 'objectId', 'objectId 123456789abcdef123456789'],
  ['string "2017-07-06T12:35:37Z"', str('2017-07-06T12:35:37Z'), 'date', 'date 2017-07-06T12:35:37.000Z'],
  ['string "2017-07-06T12:35:37.513Z"', str('2017-07-06T12:35:37.513Z'), 'date', 'date 2017-07-06T12:35:37.513Z'],
  ['string "2017-07-06"', str('2017-07-06'), 'date', 'date 2017-07-06T00:00:00.000Z'],
  // Each type as text.
  ['double 0', double(0), 'string', '0'],
  ['double -0', double(-0), 'string', '-0'],
  ['double 1337', double(1337), 'string', '1337'],
  ['double -1337', double(-1337), 'string', '-1337'],
  ['double 0.1337', double(0.1337), 'string', '0.1337'],
  ['double -0.1337', double(-0.1337), 'string', '-0.1337'],
  ['double 1.3e37', double(1.3e37), 'string', '1.3e+37'],
  ['double -1.3e37', double(-1.3e37), 'string', '-1.3e+37'],
  ['double 1.3e-37', double(1.3e-37), 'string', '1.3e-37'],
  ['double -1.3e-37', double(-1.3e-37), 'string', '-1.3e-37'],
  ['double infinity', double(Infinity), 'string', 'Infinity'],
  ['double -infinity', double(-Infinity), 'string', '-Infinity'],
  ['double NaN', double(NaN), 'string', 'NaN'],
  ['the zero ObjectId', oid('000000000000000000000000'), 'string', '000000000000000000000000'],
  ['an ObjectId', oid('0123456789abcdef01234567'), 'string', '0123456789abcdef01234567'],
  ['true', stored(true), 'string', 'true'],
  ['false', stored(false), 'string', 'false'],
  ['the epoch', date(0), 'string', '1970-01-01T00:00:00.000Z'],
  ['a date', date(872835240000), 'string', '1997-08-29T06:14:00.000Z'],
  ['int 0', int(0), 'string', '0'],
  ['int 1337', int(1337), 'string', '1337'],
  ['int -1337', int(-1337), 'string', '-1337'],
  ['long 0', long('0'), 'string', '0'],
  ['long 1337133713371337', long('1337133713371337'), 'string', '1337133713371337'],
  ['long -1337133713371337', long('-1337133713371337'), 'string', '-1337133713371337'],
  ['decimal 0', dec('0'), 'string', '0'],
  ['decimal -0', dec('-0'), 'string', '-0'],
  ['decimal 0.0', dec('0.0'), 'string', '0.0'],
  ['decimal -0.0', dec('-0.0'), 'string', '-0.0'],
  ['decimal 0.0000', dec('0.0000'), 'string', '0.0000'],
  ['decimal 1337', dec('1337'), 'string', '1337'],
  [
    'decimal 13370000000000000000000000000000000',
    dec('13370000000000000000000000000000000'),
    'string',
    '1.337000000000000000000000000000000E+34',
  ],
  ['decimal -1337', dec('-1337'), 'string', '-1337'],
  ['decimal 0.1337', dec('0.1337'), 'string', '0.1337'],
  ['decimal 0.133700', dec('0.133700'), 'string', '0.133700'],
  ['decimal -0.1337', dec('-0.1337'), 'string', '-0.1337'],
  ['decimal -0.133700', dec('-0.133700'), 'string', '-0.133700'],
  ['decimal 1.3e37', dec('1.3e37'), 'string', '1.3E+37'],
  ['decimal -1.3e37', dec('-1.3e37'), 'string', '-1.3E+37'],
  ['decimal 1.3e-37', dec('1.3e-37'), 'string', '1.3E-37'],
  ['decimal -1.3e-37', dec('-1.3e-37'), 'string', '-1.3E-37'],
  ['decimal infinity', dec('Infinity'), 'string', 'Infinity'],
  ['decimal -infinity', dec('-Infinity'), 'string', '-Infinity'],
  ['decimal NaN', dec('NaN'), 'string', 'NaN'],
  ['decimal -NaN', stored(DECIMAL_NEGATIVE_NAN), 'string', 'NaN'],
];

/** Date strings in the free forms mongod's date parser (timelib) reads besides ISO 8601. */
const FREE_FORM_DATES: [string, string, string, unknown][] = [
  [
    'string "2017-07-14T12:02:44.771 GMT+02:00"',
    str('2017-07-14T12:02:44.771 GMT+02:00'),
    'date',
    'date 2017-07-14T10:02:44.771Z',
  ],
  ['string "2017-07-14T12:02:44.771 A"', str('2017-07-14T12:02:44.771 A'), 'date', 'date 2017-07-14T11:02:44.771Z'],
  ['string "July 4th, 2017"', str('July 4th, 2017'), 'date', 'date 2017-07-04T00:00:00.000Z'],
  ['string "July 4th, 2017 12pm"', str('July 4th, 2017 12pm'), 'date', 'date 2017-07-04T12:00:00.000Z'],
  ['string "2017-Jul-04 noon"', str('2017-Jul-04 noon'), 'date', 'date 2017-07-04T12:00:00.000Z'],
];

const UNSUPPORTED = 'Unsupported conversion';
const OVERFLOW = 'Conversion would overflow target type';
const NAN = 'Attempt to convert NaN value to integer';
const INFINITY = 'Attempt to convert infinity value to integer';
const HEX = 'Illegal hexadecimal input in $convert';

/** The failed conversions (ConversionFailure): [label, input, target type, code, message fragment]. */
const FAILURES: [string, string, string, number, string][] = [
  // Unsupported conversions (expression_convert_test.cpp, then convert.js).
  ['an ObjectId', oid('0123456789abcdef01234567'), 'double', 241, UNSUPPORTED],
  ['an ObjectId', oid('0123456789abcdef01234567'), 'int', 241, UNSUPPORTED],
  ['an ObjectId', oid('0123456789abcdef01234567'), 'long', 241, UNSUPPORTED],
  ['an ObjectId', oid('0123456789abcdef01234567'), 'decimal', 241, UNSUPPORTED],
  ['a date', date(0), 'objectId', 241, UNSUPPORTED],
  ['a date', date(0), 'int', 241, UNSUPPORTED],
  ['int 1', int(1), 'date', 241, UNSUPPORTED],
  ['true', stored(true), 'date', 241, UNSUPPORTED],
  ...[
    'minKey',
    'missing',
    'object',
    'array',
    'binData',
    'undefined',
    'null',
    'regex',
    'dbPointer',
    'javascript',
    'symbol',
    'javascriptWithScope',
    'timestamp',
    'maxKey',
  ].map((to): [string, string, string, number, string] => ['double 1', double(1), to, 241, UNSUPPORTED]),
  ['double 1.9', double(1.9), 'objectId', 241, UNSUPPORTED],
  ['false', stored(false), 'objectId', 241, UNSUPPORTED],
  ['int 1', int(1), 'objectId', 241, UNSUPPORTED],
  ['long 1', long('1'), 'objectId', 241, UNSUPPORTED],
  ['decimal 1.9', dec('1.9'), 'objectId', 241, UNSUPPORTED],
  // Numbers out of the target's range.
  ['decimal 1e309', dec('1e309'), 'double', 241, OVERFLOW],
  ['decimal -1e309', dec('-1e309'), 'double', 241, OVERFLOW],
  ['the double above the int maximum', double(awayFromZero(INT_MAX)), 'int', 241, OVERFLOW],
  ['the double below the int minimum', double(awayFromZero(INT_MIN)), 'int', 241, OVERFLOW],
  ['double NaN', double(NaN), 'int', 241, NAN],
  ['double infinity', double(Infinity), 'int', 241, INFINITY],
  ['double -infinity', double(-Infinity), 'int', 241, INFINITY],
  ['2^63 as a double', double(LONG_MAX_PLUS_ONE), 'long', 241, OVERFLOW],
  ['the double below -2^63', double(awayFromZero(-LONG_MAX_PLUS_ONE)), 'long', 241, OVERFLOW],
  ['double NaN', double(NaN), 'long', 241, NAN],
  ['double infinity', double(Infinity), 'long', 241, INFINITY],
  ['double -infinity', double(-Infinity), 'long', 241, INFINITY],
  ['the int maximum plus 1 as a decimal', dec('2147483648'), 'int', 241, OVERFLOW],
  ['the int minimum minus 1 as a decimal', dec('-2147483649'), 'int', 241, OVERFLOW],
  ['decimal NaN', dec('NaN'), 'int', 241, NAN],
  ['decimal -NaN', stored(DECIMAL_NEGATIVE_NAN), 'int', 241, NAN],
  ['decimal infinity', dec('Infinity'), 'int', 241, INFINITY],
  ['decimal -infinity', dec('-Infinity'), 'int', 241, INFINITY],
  ['the long maximum plus 1 as a decimal', dec('9223372036854775808'), 'long', 241, OVERFLOW],
  ['the long minimum minus 1 as a decimal', dec('-9223372036854775809'), 'long', 241, OVERFLOW],
  ['decimal NaN', dec('NaN'), 'long', 241, NAN],
  ['decimal -NaN', stored(DECIMAL_NEGATIVE_NAN), 'long', 241, NAN],
  ['decimal infinity', dec('Infinity'), 'long', 241, INFINITY],
  ['decimal -infinity', dec('-Infinity'), 'long', 241, INFINITY],
  ['the int maximum plus 1 as a long', long('2147483648'), 'int', 241, OVERFLOW],
  ['the int minimum minus 1 as a long', long('-2147483649'), 'int', 241, OVERFLOW],
  ['double 1e100', double(1e100), 'date', 241, OVERFLOW],
  ['double -1e100', double(-1e100), 'date', 241, OVERFLOW],
  ['double NaN', double(NaN), 'date', 241, `${NAN} type`],
  ['double infinity', double(Infinity), 'date', 241, `${INFINITY} type`],
  ['double -infinity', double(-Infinity), 'date', 241, `${INFINITY} type`],
  ['decimal 1.0e100', dec('1.0e100'), 'date', 241, OVERFLOW],
  ['decimal NaN', dec('NaN'), 'date', 241, `${NAN} type`],
  ['decimal -NaN', stored(DECIMAL_NEGATIVE_NAN), 'date', 241, `${NAN} type`],
  ['decimal infinity', dec('Infinity'), 'date', 241, `${INFINITY} type`],
  ['decimal -infinity', dec('-Infinity'), 'date', 241, `${INFINITY} type`],
  // Text that does not parse.
  ['string "2147483648"', str('2147483648'), 'int', 241, 'Overflow'],
  ['string "-2147483649"', str('-2147483649'), 'int', 241, 'Overflow'],
  ['string "9223372036854775808"', str('9223372036854775808'), 'long', 241, 'Overflow'],
  ['string "-9223372036854777856"', str('-9223372036854777856'), 'long', 241, 'Overflow'],
  ['string "5.5"', str('5.5'), 'long', 241, 'Did not consume whole string'],
  ['string "5.0"', str('5.0'), 'long', 241, 'Did not consume whole string'],
  ['string ".5."', str('.5.'), 'double', 241, 'Did not consume whole string'],
  ['string "5.5f"', str('5.5f'), 'double', 241, 'Did not consume whole string'],
  ['string "1E+309"', str('1E+309'), 'double', 241, 'Out of range'],
  ['string "-1E+309"', str('-1E+309'), 'double', 241, 'Out of range'],
  [
    'string "1E-1000"',
    str('1E-1000'),
    'double',
    241,
    "Failed to parse number '1E-1000' in $convert with no onError value: Out of range",
  ],
  [
    'string "-1E-1000"',
    str('-1E-1000'),
    'double',
    241,
    "Failed to parse number '-1E-1000' in $convert with no onError value: Out of range",
  ],
  ['string "1E6145"', str('1E6145'), 'decimal', 241, 'Conversion from string to decimal would overflow'],
  ['string "-1E6145"', str('-1E6145'), 'decimal', 241, 'Conversion from string to decimal would overflow'],
  ['string "1E-6178"', str('1E-6178'), 'decimal', 241, 'Conversion from string to decimal would underflow'],
  ['string "-1E-6177"', str('-1E-6177'), 'decimal', 241, 'Conversion from string to decimal would underflow'],
  ['string "0xFF"', str('0xFF'), 'int', 241, HEX],
  ['string "0xFF"', str('0xFF'), 'long', 241, HEX],
  ['string "0xFF"', str('0xFF'), 'double', 241, HEX],
  ['string "0xFF"', str('0xFF'), 'decimal', 241, HEX],
  ['string "0x00"', str('0x00'), 'int', 241, HEX],
  ['string "0x00"', str('0x00'), 'decimal', 241, HEX],
  ['string "FF"', str('FF'), 'double', 241, 'Did not consume any digits'],
  ['string "FF"', str('FF'), 'decimal', 241, 'Failed to parse string to decimal'],
  [
    'string "InvalidHexButSizeCorrect"',
    str('InvalidHexButSizeCorrect'),
    'objectId',
    241,
    'Invalid character found in hex string',
  ],
  ['string "InvalidSize"', str('InvalidSize'), 'objectId', 241, 'Invalid string length for parsing to OID'],
  [
    'string "0x123456789abcdef123456789"',
    str('0x123456789abcdef123456789'),
    'objectId',
    241,
    'Invalid string length for parsing to OID',
  ],
  ['string "60.Monday1770/06:59"', str('60.Monday1770/06:59'), 'date', 241, ''],
  ['string "Definitely not a date"', str('Definitely not a date'), 'date', 241, ''],
  ['string "2017-07-13T10:02:57 Europe/London"', str('2017-07-13T10:02:57 Europe/London'), 'date', 241, ''],
  ['string "July 4, 2017 Europe/London"', str('July 4, 2017 Europe/London'), 'date', 241, ''],
];

/** The source's "…WithOnError" cases: [label, input, target type, the onError value answered]. */
const ON_ERROR: [string, string, string, string][] = [
  ...FAILURES.filter(([, , , , message]) => message === UNSUPPORTED).map(
    ([label, input, to]): [string, string, string, string] => [label, input, to, 'X'],
  ),
  ['decimal 1e309', dec('1e309'), 'double', 'X'],
  ['decimal -1e309', dec('-1e309'), 'double', 'X'],
  ['the double above the int maximum', double(awayFromZero(INT_MAX)), 'int', 'X'],
  ['the double below the int minimum', double(awayFromZero(INT_MIN)), 'int', 'X'],
  ['double NaN', double(NaN), 'int', 'X'],
  ['double infinity', double(Infinity), 'int', 'X'],
  ['double -infinity', double(-Infinity), 'int', 'X'],
  ['2^63 as a double', double(LONG_MAX_PLUS_ONE), 'long', 'X'],
  ['the double below -2^63', double(awayFromZero(-LONG_MAX_PLUS_ONE)), 'long', 'X'],
  ['double NaN', double(NaN), 'long', 'X'],
  ['double infinity', double(Infinity), 'long', 'X'],
  ['double -infinity', double(-Infinity), 'long', 'X'],
  ['the int maximum plus 1 as a decimal', dec('2147483648'), 'int', 'X'],
  ['the int minimum minus 1 as a decimal', dec('-2147483649'), 'int', 'X'],
  ['decimal NaN', dec('NaN'), 'int', 'X'],
  ['decimal -NaN', stored(DECIMAL_NEGATIVE_NAN), 'int', 'X'],
  ['decimal infinity', dec('Infinity'), 'int', 'X'],
  ['decimal -infinity', dec('-Infinity'), 'int', 'X'],
  ['the long maximum plus 1 as a decimal', dec('9223372036854775808'), 'long', 'X'],
  ['the long minimum minus 1 as a decimal', dec('-9223372036854775809'), 'long', 'X'],
  ['decimal NaN', dec('NaN'), 'long', 'X'],
  ['decimal -NaN', stored(DECIMAL_NEGATIVE_NAN), 'long', 'X'],
  ['decimal infinity', dec('Infinity'), 'long', 'X'],
  ['decimal -infinity', dec('-Infinity'), 'long', 'X'],
  ['the int maximum plus 1 as a long', long('2147483648'), 'int', 'X'],
  ['the int minimum minus 1 as a long', long('-2147483649'), 'int', 'X'],
  ['int 0', int(0), 'date', 'X'],
  ['double 1e100', double(1e100), 'date', 'X'],
  ['double -1e100', double(-1e100), 'date', 'X'],
  ['double NaN', double(NaN), 'date', 'X'],
  ['double infinity', double(Infinity), 'date', 'X'],
  ['double -infinity', double(-Infinity), 'date', 'X'],
  ['decimal 1.0e100', dec('1.0e100'), 'date', 'X'],
  ['decimal NaN', dec('NaN'), 'date', 'X'],
  ['decimal -NaN', stored(DECIMAL_NEGATIVE_NAN), 'date', 'X'],
  ['decimal infinity', dec('Infinity'), 'date', 'X'],
  ['decimal -infinity', dec('-Infinity'), 'date', 'X'],
  ['string "2147483648"', str('2147483648'), 'int', '><(((((>'],
  ['string "-2147483649"', str('-2147483649'), 'int', '><(((((>'],
  ['string "9223372036854775808"', str('9223372036854775808'), 'long', '><(((((>'],
  ['string "-9223372036854777856"', str('-9223372036854777856'), 'long', '><(((((>'],
  ['string "5.5"', str('5.5'), 'long', '><(((((>'],
  ['string "5.0"', str('5.0'), 'long', '><(((((>'],
  ['string "1E+309"', str('1E+309'), 'double', '><(((((>'],
  ['string "-1E+309"', str('-1E+309'), 'double', '><(((((>'],
  ['string ".5."', str('.5.'), 'double', '><(((((>'],
  ['string "5.5f"', str('5.5f'), 'double', '><(((((>'],
  ['string "1E6145"', str('1E6145'), 'decimal', '><(((((>'],
  ['string "-1E-6177"', str('-1E-6177'), 'decimal', '><(((((>'],
  ['string "InvalidHexButSizeCorrect"', str('InvalidHexButSizeCorrect'), 'objectId', '><(((((>'],
  ['string "InvalidSize"', str('InvalidSize'), 'objectId', '><(((((>'],
  ['string "0x123456789abcdef123456789"', str('0x123456789abcdef123456789'), 'objectId', '><(((((>'],
  ['string "Not a date"', str('Not a date'), 'date', '(-_-)'],
  ['string "60.Monday1770/06:59"', str('60.Monday1770/06:59'), 'date', '(-_-)'],
  ['string "2017-07-13T10:02:57 Europe/London"', str('2017-07-13T10:02:57 Europe/London'), 'date', '(-_-)'],
];

const NULL = stored(null);

describe('$convert and its shortcuts', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('type_conversions');
    await inputs.insert(c);
  });

  /** The projected document, its values typed. */
  async function projected(expr: unknown): Promise<Document> {
    const [doc] = await c
      .aggregate([{ $project: { _id: 0, v: expr } }], { promoteValues: false, promoteLongs: false })
      .toArray();
    return Object.fromEntries(Object.entries(doc ?? {}).map(([key, v]) => [key, bsonText(v)]));
  }

  async function value(expr: unknown): Promise<unknown> {
    const doc = await projected(expr);
    return 'v' in doc ? doc.v : 'missing';
  }

  /** The code and message the expression fails with, or what it answered. */
  async function failure(expr: unknown): Promise<{ code: unknown; message: unknown }> {
    return pipelineFailure(c, [{ $project: { _id: 0, v: expr } }]);
  }

  it.each(CONVERSION_TABLE)(
    'converts %s (%s) to %s with $convert (convert.js)',
    async (_label, input, to, expected) => {
      expect(await value({ $convert: { input, to } })).toEqual(expected);
    },
  );

  it.each(CONVERSION_TABLE)(
    'converts %s (%s) to %s with its shortcut (convert.js)',
    async (_label, input, to, expected) => {
      expect(await value({ [SHORTCUT[to]!]: input })).toEqual(expected);
    },
  );

  it.each(CONVERSIONS)('converts %s (%s) to %s', async (_label, input, to, expected) => {
    expect(await value({ $convert: { input, to } })).toEqual(expected);
  });

  it.each(FREE_FORM_DATES)('converts %s (%s) to %s', async (_label, input, to, expected) => {
    expect(await value({ $convert: { input, to } })).toEqual(expected);
  });

  it.each(FAILURES)('refuses to convert %s (%s) to %s', async (_label, input, to, code, message) => {
    expect(await failure({ $convert: { input, to } })).toEqual({ code, message: expect.stringContaining(message) });
  });

  it.each(ON_ERROR)('answers onError for %s (%s) to %s', async (_label, input, to, onError) => {
    expect(await value({ $convert: { input, to, onError } })).toBe(onError);
  });

  it('leaves the field out for an onError of $$REMOVE (convert.js)', async () => {
    // A constant: an input stored now would not be in the document the suite inserted before.
    expect(await projected({ $convert: { input: 1.9, to: 'objectId', onError: '$$REMOVE' } })).toEqual({});
  });

  it('lets an error of the input itself through onError (convert.js)', async () => {
    const { code } = await failure({ $convert: { input: { $divide: [1, 0] }, to: 'string', onError: 'ERROR' } });
    expect(code).not.toBe('no error');
  });

  it.each<[string, unknown, unknown]>([
    ['a null input', { $convert: { input: NULL, to: 'int' } }, null],
    ['a missing input', { $convert: { input: '$path1', to: 'int' } }, null],
    [
      'a null input with onNull',
      { $convert: { input: NULL, to: 'int', onNull: 'B)', onError: 'Should not be used here' } },
      'B)',
    ],
    [
      'a missing input with onNull',
      { $convert: { input: '$path1', to: 'int', onNull: 'B)', onError: 'Should not be used here' } },
      'B)',
    ],
    [
      'a null to',
      {
        $convert: {
          input: 'inputString',
          to: NULL,
          onNull: 'Should not be used here',
          onError: 'Also should not be used',
        },
      },
      null,
    ],
    [
      'a missing to',
      {
        $convert: {
          input: 'inputString',
          to: '$path1',
          onNull: 'Should not be used here',
          onError: 'Also should not be used',
        },
      },
      null,
    ],
    ['a null input and a null to, with onNull', { $convert: { input: null, to: null, onNull: 'X' } }, 'X'],
    ['a stored null input and a null to, with onNull', { $convert: { input: NULL, to: null, onNull: 'NULL' } }, 'NULL'],
    ['a missing input and a null to, with onNull', { $convert: { input: '$path1', to: null, onNull: 'NULL' } }, 'NULL'],
    ['a missing input to date, with onNull', { $convert: { input: '$path1', to: 'date', onNull: '(-_-)' } }, '(-_-)'],
    ['a null input to date, with onNull', { $convert: { input: NULL, to: 'date', onNull: '(-_-)' } }, '(-_-)'],
    ['a constant input', { $convert: { input: 0, to: 'double' } }, 'double 0'],
    ['a constant input that fails, with onError', { $convert: { input: 0, to: 'objectId', onError: 'X' } }, 'X'],
  ])('answers %s', async (_label, expr, expected) => {
    expect(await value(expr)).toEqual(expected);
  });

  it.each<[string, unknown, number, string]>([
    ['no input', { $convert: { to: 'int', onError: 0 } }, 9, "Missing 'input' parameter to $convert"],
    ['no to', { $convert: { input: '$path1', onError: 0 } }, 9, "Missing 'to' parameter to $convert"],
    ['an unknown type name', { $convert: { input: '$path1', to: 'dinosaur', onError: 0 } }, 2, 'Unknown type name'],
    [
      'a to of 3.6',
      { $convert: { input: '$path1', to: 3.6, onError: 0 } },
      9,
      "In $convert, numeric 'to' argument is not an integer",
    ],
    [
      'a to that is an object',
      { $convert: { input: '$path1', to: { dinosaur: 'Tyrannosaurus rex' }, onError: 0 } },
      9,
      "$convert's 'to' argument must be a string or number",
    ],
    [
      'a to of 100',
      { $convert: { input: '$path1', to: 100, onError: 0 } },
      9,
      "In $convert, numeric value for 'to' does not correspond to a BSON type",
    ],
    [
      'a to of -2',
      { $convert: { input: '$path1', to: -2, onError: 0 } },
      9,
      "In $convert, numeric value for 'to' does not correspond to a BSON type",
    ],
  ])('refuses %s, onError or not', async (_label, expr, code, message) => {
    expect(await failure(expr)).toEqual({ code, message: expect.stringContaining(message) });
  });

  it.each<[string, unknown, unknown]>([
    ['$toInt of "1"', { $toInt: '1' }, 'int 1'],
    ['$toInt of ["1"]', { $toInt: ['1'] }, 'int 1'],
    ['$toLong of "1"', { $toLong: '1' }, 'long 1'],
    ['$toDouble of "1"', { $toDouble: '1' }, 'double 1'],
    ['$toDecimal of "1"', { $toDecimal: '1' }, 'decimal 1'],
    ['$toDate of long 0', { $toDate: Long.fromNumber(0) }, 'date 1970-01-01T00:00:00.000Z'],
    ['$toObjectId of a hex string', { $toObjectId: 'deadbeefdeadbeefdeadbeef' }, 'objectId deadbeefdeadbeefdeadbeef'],
    ['$toString of 1', { $toString: 1 }, '1'],
    ['$toBool of 1', { $toBool: 1 }, true],
    ['$toBool of null', { $toBool: null }, null],
    ['$toInt of a missing field', { $toInt: '$missing' }, null],
  ])('answers %s', async (_label, expr, expected) => {
    expect(await value(expr)).toEqual(expected);
  });

  it.each<[string, unknown, number]>([
    ['$toInt of two arguments', { $toInt: [1, 3] }, 50723],
    ['$toLong of two arguments', { $toLong: [1, 3] }, 50723],
    ['$toDouble of two arguments', { $toDouble: [1, 3] }, 50723],
    ['$toInt of no argument', { $toInt: [] }, 50723],
    ['$toLong of no argument', { $toLong: [] }, 50723],
    ['$toDouble of no argument', { $toDouble: [] }, 50723],
    ['$toInt of [["1"]], an array', { $toInt: [['1']] }, 241],
    ['$toInt of "not an int"', { $toInt: 'not an int' }, 241],
    ['$toObjectId of "not all hex values"', { $toObjectId: 'not all hex values' }, 241],
  ])('refuses %s', async (_label, expr, code) => {
    expect((await failure(expr)).code).toBe(code);
  });
});
