import { bsonTag } from './bson-compare.js';

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
      // mongod's BSONElement::toString for the doubles JavaScript spells otherwise.
      if (Number.isNaN(value)) return 'nan.0';
      if (!Number.isFinite(value)) return value > 0 ? 'inf.0' : '-inf.0';
      return String(value);
    case 'bigint':
    case 'boolean':
      return String(value);
  }
  if (Array.isArray(value)) return `[ ${value.map(formatKeyValue).join(', ')} ]`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
  switch (bsonTag(value)) {
    case 'ObjectId':
      return `ObjectId('${(value as { toHexString(): string }).toHexString()}')`;
    case 'Long':
      return String(value);
    case 'Double':
      // An integral double (wire/integral-doubles.ts); mongod prints it as `5.0`.
      return `${String(value)}.0`;
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
