/**
 * fast-check arbitraries of BSON values for the server fuzzer: every BSON
 * type (Int64, Decimal128, Binary, regex, MinKey/MaxKey, Code, …), odd
 * numbers and strings, field names that are paths, operators or prototype
 * names, documents nested deeply, and operator documents drawn from the
 * operator lists of mingo (which the server runs on) and MongoDB.
 */
import type { Document } from 'bson';
import fc from 'fast-check';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as updateOperators from 'mingo/operators/update';
import * as windowOperators from 'mingo/operators/window';

import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  UUID,
} from '../bson/bson-library.cjs';

const names = (module: object): string[] => Object.keys(module).filter((name) => name.startsWith('$'));

/** Query operators: mingo's and the MongoDB ones it lacks. */
export const QUERY_OPERATORS = [
  ...names(queryOperators),
  ...['$options', '$text', '$search', '$comment', '$geoWithin', '$geoIntersects', '$near', '$nearSphere', '$rand'],
];
/** Update operators, with `$push`/`$addToSet` modifiers. */
export const UPDATE_OPERATORS = [
  ...names(updateOperators),
  ...['$setOnInsert', '$each', '$position', '$slice', '$sort', '$isolated'],
];
/** Aggregation stages, including the ones the server refuses. */
export const PIPELINE_STAGES = [
  ...names(pipelineOperators),
  ...['$collStats', '$indexStats', '$changeStream', '$currentOp', '$geoNear', '$search', '$listSessions'],
];
/** Expression, accumulator, window and projection operators, and system variables. */
export const EXPRESSION_OPERATORS = [
  ...names(expressionOperators),
  ...names(accumulatorOperators),
  ...names(windowOperators),
  ...names(projectionOperators),
  ...['$meta', '$natural'],
];
const VARIABLES = ['$$ROOT', '$$CURRENT', '$$NOW', '$$REMOVE', '$$KEEP', '$$PRUNE', '$$DESCEND', '$$this', '$$x'];
const ALL_OPERATORS = [
  ...new Set([...QUERY_OPERATORS, ...UPDATE_OPERATORS, ...PIPELINE_STAGES, ...EXPRESSION_OPERATORS]),
];

/** Keys a JavaScript object treats specially. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

const noNul = (s: string): boolean => !s.includes('\0');

/** Field names: plain, dotted and positional paths, `$`-names, prototype names and paths through them, odd and long ones (never NUL: BSON cannot carry it). */
export const fieldName: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('a', 'b', 'c', 'n', '_id', 'tags', 'x') },
  { weight: 3, arbitrary: fc.constantFrom('a.b', 'a.0', 'a.$', 'a.$[]', 'a.$[e]', 'b.c.d', 'tags.1.x', '_id.a') },
  { weight: 2, arbitrary: fc.constantFrom(...ALL_OPERATORS, ...VARIABLES) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  // Paths through a prototype: a write that follows one by property access reaches the process's built-ins.
  {
    weight: 2,
    arbitrary: fc.constantFrom(...PROTO_KEYS.map((key) => `${key}.x`), 'constructor.prototype.x', 'a.__proto__.x'),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '$', '.', '..', 'a..b', '.a', 'a.', ' ', '\u{1F600}', 'é', 'x'.repeat(2000)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 10, unit: 'binary' }).filter(noNul) },
);

/** A document with exactly these entries, in order: `__proto__` stays an own field, as BSON decoding makes it. */
export function documentOf(entries: readonly (readonly [string, unknown])[]): Document {
  const doc: Document = {};
  for (const [key, value] of entries) {
    Object.defineProperty(doc, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return doc;
}

const MB = 1024 * 1024;

/** Strings: short, unicode and lone surrogates, `$`-paths, and now and then megabytes long (within 16 MB). */
export const bsonString: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 3, arbitrary: fc.constantFrom('$a', '$b.c', '$_id', '$$ROOT', '$', '$$', '', 'a\0b', '\uD800', 'x') },
  { weight: 2, arbitrary: fc.string({ maxLength: 20, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.constantFrom(...ALL_OPERATORS, ...VARIABLES) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 4 * MB }).map((n) => 'y'.repeat(n)) },
);

const REGEX_SOURCES = [
  '',
  'a',
  '^a',
  'a$',
  '(a+)+$',
  '(a|a)*b',
  '.*',
  '[',
  '(',
  '\\',
  'a{2,',
  '(?i)a',
  '(?<n>a)\\k<n>',
];
const regexSource = fc.oneof(fc.constantFrom(...REGEX_SOURCES), fc.string({ maxLength: 8 }).filter(noNul));
/** Regexes, as BSONRegExp (any valid flags) and as JavaScript RegExp. */
export const bsonRegex: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(regexSource, fc.subarray(['i', 'm', 'x', 's', 'l', 'u'])).map(([p, f]) => new BSONRegExp(p, f.join(''))),
  fc.constantFrom(/a/, /^x/i, /b$/m),
);

const DECIMALS = [
  '0',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '1E+6144',
  '1E-6176',
  '-1.5',
  '0.1',
  '12345678901234567890',
];
const INT64_EDGES = [0n, -1n, 1n, 2n ** 31n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)];
const DOUBLE_EDGES = [0, -0, NaN, Infinity, -Infinity, 0.5, -1.5, 2 ** 31, 2 ** 53 + 2, 1e308, 5e-324];

/** Scalars of every BSON type, with the edges of each numeric one. */
export const bsonScalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) },
  { weight: 2, arbitrary: fc.integer({ min: -3, max: 10 }) },
  { weight: 2, arbitrary: fc.oneof(fc.double(), fc.constantFrom(...DOUBLE_EDGES)) },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(...INT64_EDGES)),
  },
  { weight: 1, arbitrary: fc.constantFrom(...DECIMALS).map((s) => Decimal128.fromString(s)) },
  { weight: 4, arbitrary: bsonString },
  { weight: 2, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: fc.date() },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 12, maxLength: 12 }).map((b) => new ObjectId(b)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x80, 0xff))
      .map(([bytes, subtype]) => new Binary(bytes, subtype)),
  },
  { weight: 1, arbitrary: fc.uuid().map((id) => new UUID(id)) },
  { weight: 1, arbitrary: bsonRegex },
  { weight: 1, arbitrary: fc.constantFrom(new MinKey(), new MaxKey()) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.string({ maxLength: 12 }).map((s) => new Code(s)),
      fc.string({ maxLength: 12 }).map((s) => new Code(s, { a: 1 })),
      fc.string({ maxLength: 12 }).map((s) => new BSONSymbol(s)),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.tuple(fc.nat(), fc.nat()).map(([t, i]) => new Timestamp({ t, i })),
      fc.integer().map((n) => new Int32(n)),
      fc.double().map((n) => new Double(n)),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => Long.fromBigInt(n)),
      fc.uint8Array({ minLength: 12, maxLength: 12 }).map((b) => new DBRef('things', new ObjectId(b))),
    ),
  },
);

/** `{ $op: value }` for a random operator of any list. */
export function operatorDocument(value: fc.Arbitrary<unknown>, operators = ALL_OPERATORS): fc.Arbitrary<Document> {
  return fc.tuple(fc.constantFrom(...operators), value).map(([op, v]) => documentOf([[op, v]]));
}

/** Wraps `inner` in `depth` levels of documents, arrays or operators. */
function nest(inner: unknown, depth: number, kind: 'doc' | 'array' | 'operator' | 'mixed'): unknown {
  let value = inner;
  for (let i = 0; i < depth; i++) {
    const k = kind === 'mixed' ? (['doc', 'array', 'operator'] as const)[i % 3] : kind;
    value =
      k === 'doc'
        ? { a: value }
        : k === 'array'
          ? [value]
          : documentOf([[['$and', '$not', '$elemMatch'][i % 3]!, value]]);
  }
  return value;
}

/** Values nested tens to thousands of levels deep (mongod refuses beyond 180-200). */
export const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 20, max: 250 }) },
      { weight: 1, arbitrary: fc.integer({ min: 250, max: 3000 }) },
    ),
    fc.constantFrom('doc', 'array', 'operator', 'mixed') as fc.Arbitrary<'doc' | 'array' | 'operator' | 'mixed'>,
    bsonScalar,
  )
  .map(([depth, kind, leaf]) => nest(leaf, depth, kind));

/** Any BSON value: scalars, documents and arrays (with operator documents among them), rarely very deep. */
export const { bsonValue, bsonDocument } = fc.letrec<{
  bsonValue: unknown;
  bsonDocument: Document;
  bsonArray: unknown[];
}>((tie) => ({
  bsonValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 20, arbitrary: bsonScalar },
    { weight: 6, arbitrary: tie('bsonDocument') },
    { weight: 5, arbitrary: tie('bsonArray') },
    { weight: 4, arbitrary: operatorDocument(tie('bsonValue')) },
    { weight: 1, arbitrary: deepValue },
  ),
  bsonDocument: fc.array(fc.tuple(fieldName, tie('bsonValue')), { maxLength: 5 }).map(documentOf),
  bsonArray: fc.array(tie('bsonValue'), { maxLength: 5 }),
}));
