import { bsonTag, isSubDocument } from './bson-compare.js';
import { writesAsInt32 } from './int32.js';

/** C's `%.<precision>g`: the shorter of fixed and exponent notation, trailing zeros dropped. */
function formatG(x: number, precision: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, power] = x.toExponential(precision - 1).split('e') as [string, string];
  const exponent = Number(power);
  const trimmed = (digits: string) => (digits.includes('.') ? digits.replace(/\.?0+$/, '') : digits);
  if (exponent < -4 || exponent >= precision) {
    return `${trimmed(mantissa)}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return trimmed(x.toFixed(precision - 1 - exponent));
}

/**
 * A double as mongod prints it (`StringBuilder::appendDoubleNice`): `%.16g`,
 * then `.0` unless the text holds a `.`, `E` or `N` — so `5.0`, `0.3`,
 * `1e+20.0`, `nan.0`, `inf.0`, `-0.0`.
 */
export function formatDouble(x: number): string {
  const text = Number.isNaN(x) ? 'nan' : Number.isFinite(x) ? formatG(x, 16) : x > 0 ? 'inf' : '-inf';
  return /[.EN]/.test(text) ? text : `${text}.0`;
}

/**
 * Renders a value the way mongod prints it in E11000 messages, e.g.
 * `"a"`, `12`, `ObjectId('…')`, `new Date(1700000000000)`, `{ a: 1 }`.
 */
export function formatKeyValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // An int32 on the wire prints as an integer; anything else is a double.
      return writesAsInt32(value) ? String(value) : formatDouble(value);
    case 'bigint':
    case 'boolean':
      return String(value);
  }
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[ ${value.map(formatKeyValue).join(', ')} ]`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
  switch (bsonTag(value)) {
    case 'ObjectId':
      return `ObjectId('${(value as { toHexString(): string }).toHexString()}')`;
    case 'Long':
      return String(value);
    case 'Double':
      // An integral double (wire/integral-doubles.ts); mongod prints it as `5.0`.
      return formatDouble((value as { value: number }).value);
    case 'Decimal128':
      return `${String(value)}`;
    case 'Timestamp': {
      const ts = value as { t: number; i: number };
      return `Timestamp(${ts.t}, ${ts.i})`;
    }
    case 'Binary': {
      const bin = value as { sub_type: number; buffer: Uint8Array; position: number };
      const hex = Buffer.from(bin.buffer.subarray(0, bin.position)).toString('hex').toUpperCase();
      return `BinData(${bin.sub_type}, ${hex})`;
    }
    case 'MinKey':
      return 'MinKey';
    case 'MaxKey':
      return 'MaxKey';
  }
  return formatDocument(value as Record<string, unknown>);
}

/** `{ slug: "a", n: 1 }` — mongod's rendering of a key document. */
export function formatDocument(doc: Record<string, unknown>): string {
  const keys = Object.keys(doc);
  if (keys.length === 0) return '{}';
  return `{ ${keys.map((k) => `${k}: ${formatKeyValue(doc[k])}`).join(', ')} }`;
}

/**
 * A value as mongod prints a pipeline `Value` in expression errors
 * (`operator<<(ostream&, const Value&)`): `"a"`, `5`, `1.5`, `{a: 1}`,
 * `[1, 2]` — no spaces inside brackets, doubles as C++ streams print them
 * (six significant digits). Other types print as in {@link formatKeyValue}.
 */
export function formatValue(value: unknown): string {
  if (value === undefined) return 'MISSING';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return `"${value}"`;
    case 'number':
      if (writesAsInt32(value)) return String(value);
      return Number.isNaN(value) ? 'nan' : Number.isFinite(value) ? formatG(value, 6) : value > 0 ? 'inf' : '-inf';
    case 'bigint':
    case 'boolean':
      return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (bsonTag(value) === 'Double') return formatValue((value as { value: number }).value);
  if (value instanceof RegExp || !isSubDocument(value)) return formatKeyValue(value);
  const keys = Object.keys(value);
  return keys.length === 0 ? '{}' : `{${keys.map((k) => `${k}: ${formatValue(value[k])}`).join(', ')}}`;
}
