/**
 * Helpers of the conformance specs that compare mongod's replies exactly:
 * replies read with their BSON types kept (`promoteValues: false`), so an
 * int32, a double and an Int64 stay apart, and compared as lists of
 * `[field, value]` pairs, so that field order counts too.
 */
import {
  type AggregateOptions,
  Binary,
  BSONRegExp,
  type ClientSession,
  type Collection,
  type Db,
  Decimal128,
  type Document,
  Double,
  Int32,
  Long,
  type MongoServerError,
  ObjectId,
  Timestamp,
} from 'mongodb';

/** Numbers keep their BSON type; a regex stays a BSON regex (an empty pattern is no JavaScript RegExp). */
export const RAW = { promoteValues: false, bsonRegExp: true } as const;

export const int = (value: number): Int32 => new Int32(value);
export const double = (value: number): Double => new Double(value);
export const long = (value: number | bigint): Long => Long.fromBigInt(BigInt(value));
export const decimal = (value: string): Decimal128 => Decimal128.fromString(value);

/** Fields a replica set member adds to every reply, left out of the comparisons. */
const CLUSTER_FIELDS = ['$clusterTime', 'operationTime', 'electionId', 'opTime', 'commitQuorum'];

/** The reply to `command` (in `session`, if given) with its BSON types kept, without the fields a replica set adds. */
export async function run(db: Db, command: Document, session?: ClientSession): Promise<Document> {
  const reply = await db.command(command, session === undefined ? RAW : { ...RAW, session });
  for (const field of CLUSTER_FIELDS) delete reply[field];
  return reply;
}

/** Whether `value` is a plain document (not an array, a BSON value or a Map). */
export function isPlainDocument(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * `value` with each document turned into its list of `[field, value]` pairs, a comparison that sees field
 * order (a Map keeps the order of fields whose names are numbers, which a JavaScript object sorts first),
 * and each BSON value into its type and value (`'double 1'`, `'double -0'`), which a diff shows.
 */
export function ordered(value: unknown): unknown {
  if (value instanceof Int32) return `int32 ${value.value}`;
  if (value instanceof Double) return `double ${Object.is(value.value, -0) ? '-0' : value.value}`;
  if (value instanceof Long) return `int64 ${value.toString()}`;
  if (value instanceof Decimal128) return `decimal128 ${value.toString()}`;
  if (value instanceof Binary) return `binary ${value.sub_type} ${value.toString('hex')}`;
  if (value instanceof ObjectId) return `objectId ${value.toHexString()}`;
  if (value instanceof Timestamp) return `timestamp ${value.t} ${value.i}`;
  if (value instanceof BSONRegExp) return `regex /${value.pattern}/${value.options}`;
  if (value instanceof Date) return `date ${value.getTime()}`;
  if (typeof value === 'number') return `number ${value}`;
  if (Array.isArray(value)) return value.map(ordered);
  if (value instanceof Map) return [...(value as Map<string, unknown>)].map(([field, item]) => [field, ordered(item)]);
  if (isPlainDocument(value)) return Object.entries(value).map(([field, item]) => [field, ordered(item)]);
  return value;
}

/** Expects `actual` to be `expected`, field order and BSON types included. */
export function expectDocument(actual: unknown, expected: unknown): void {
  expect(ordered(actual)).toStrictEqual(ordered(expected));
}

/** The error's code (a number, also when the reply was read with its BSON types kept), codeName and message. */
export function answer(error: MongoServerError): Document {
  return { code: Number(error.code), codeName: error.codeName, message: error.message };
}

/** A decimal's text reduced to its value (sign, digits without trailing zeros, exponent), to compare decimals whatever their exponents. */
export function decimalValue(text: string): string {
  const match = /^([-+]?)(\d*)(?:\.(\d*))?(?:E([-+]?\d+))?$/i.exec(text);
  if (!match) return text;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    power += 1;
  }
  return `${sign === '-' ? '-' : ''}${digits}e${power}`;
}

/**
 * A value as its BSON type and text, which a diff shows and a table can state: `int 5`,
 * `long 2147483648`, `double 2.5` (`double -0`), `decimal 2.50`, `date <ISO>`, `objectId <hex>`;
 * arrays and documents element by element, anything else as it is. Read replies with
 * `promoteValues: false` so the numbers keep their wrappers.
 */
export function bsonText(value: unknown): unknown {
  if (value instanceof Double) return `double ${Object.is(value.value, -0) ? '-0' : value.value}`;
  if (value instanceof Int32) return `int ${value.value}`;
  if (value instanceof Long) return `long ${value.toString()}`;
  if (value instanceof Decimal128) return `decimal ${value.toString()}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'date invalid' : `date ${value.toISOString()}`;
  if (value instanceof ObjectId) return `objectId ${value.toHexString()}`;
  if (Array.isArray(value)) return value.map(bsonText);
  if (isPlainDocument(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, bsonText(item)]));
  return value;
}

/**
 * The code and message `pipeline` fails with on `collection`, or `no error` and the
 * documents it answered. Read with promoted values: with promoteValues off, the driver
 * gives an error's code as an Int32.
 */
export function pipelineFailure(
  collection: Collection,
  pipeline: Document[],
  options?: AggregateOptions,
): Promise<{ code: unknown; message: unknown }> {
  return collection
    .aggregate(pipeline, options)
    .toArray()
    .then(
      (docs): { code: unknown; message: unknown } => ({ code: 'no error', message: docs }),
      (error: { code?: unknown; message?: string }) => ({ code: error.code, message: error.message }),
    );
}
