/**
 * Conformance: the errors mongod 7 answers for malformed `$project`,
 * `$addFields`/`$set`, `$unset`, `$group` and `$sort` stages and for an
 * aggregate's `maxTimeMS` and `cursor` options, before any document is read.
 * The cases and answers are those an independent MongoDB-compatible server's
 * integration suite asserts against a real MongoDB. `$project`, `$addFields`,
 * `$set` and `$unset` parse their specification in a block that prefixes any
 * error with "Invalid <stage> :: caused by :: "; the other stages do not.
 * Passes against MONGO_URL too.
 */
import { Decimal128, type Document, Double, Long } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

const POSITIONAL_MIDDLE =
  "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional projection may only be " +
  "used at the end, for example: a.b.$. If the query previously used a form like a.b.$.d, remove the parts following the '$' and " +
  'the results will be equivalent.';
const DOLLAR_FIELD = "FieldPath field names may not start with '$'. Consider using $getField or $setField.";
const EMPTY_PART = 'FieldPath field names may not be empty strings.';
const EMPTY_PATH = 'FieldPath cannot be constructed with empty string';
const TRAILING_DOT = "FieldPath must not end with a '.'.";
const POSITIONAL = 'Cannot use positional projection in aggregation projection';

type Case = [label: string, stage: Document, code: number, message: string];

const project = (label: string, spec: Document, code: number, message: string): Case => [
  `$project ${label}`,
  { $project: spec },
  code,
  `Invalid $project :: caused by :: ${message}`,
];
const unset = (label: string, spec: unknown, code: number, message: string, prefixed = true): Case => [
  `$unset ${label}`,
  { $unset: spec },
  code,
  prefixed ? `Invalid $unset :: caused by :: ${message}` : message,
];
const group = (label: string, spec: Document, code: number, message: string): Case => [
  `$group ${label}`,
  { $group: spec },
  code,
  message,
];

const CASES: Case[] = [
  [
    '$addFields naming a $ field',
    { $addFields: { $foo: 'v' } },
    16410,
    `Invalid $addFields :: caused by :: ${DOLLAR_FIELD}`,
  ],
  ['$set naming a $ field', { $set: { $foo: 'v' } }, 16410, `Invalid $set :: caused by :: ${DOLLAR_FIELD}`],

  project('with no field', {}, 51272, 'projection specification must have at least one field'),
  project(
    'with an empty sub-projection',
    { v: {} },
    51270,
    'An empty sub-projection is not a valid value. Found empty object at path',
  ),
  project('with an empty field name', { '': true }, 40352, EMPTY_PATH),
  project('with an empty path part', { 'v..d': true }, 15998, EMPTY_PART),
  project(
    'including after excluding',
    { foo: false, bar: true },
    31253,
    'Cannot do inclusion on field bar in exclusion projection',
  ),
  project(
    'excluding after including',
    { foo: true, bar: false },
    31254,
    'Cannot do exclusion on field bar in inclusion projection',
  ),
  project('with two positional operators', { 'v.$.foo.$': true }, 31324, POSITIONAL),
  project('with a positional operator mid-path', { 'v.$.foo': true }, 31394, POSITIONAL_MIDDLE),
  project('with positional operators first and mid-path', { '$.v.$.foo': true }, 31394, POSITIONAL_MIDDLE),
  project('with a positional operator after an empty part', { 'v..$': true }, 31324, POSITIONAL),
  project('of the field $', { $: true }, 16410, DOLLAR_FIELD),
  project('of a $ field', { $v: true }, 16410, DOLLAR_FIELD),
  project('of a path starting with $.', { '$.foo': true }, 16410, DOLLAR_FIELD),
  project('of a path with a $ part', { 'v.$foo': true }, 16410, DOLLAR_FIELD),
  project('of a path between positional operators', { '$.v.$': true }, 31324, POSITIONAL),
  project('excluding a positional path', { 'v.$': false }, 31324, POSITIONAL),
  project('including a positional path', { 'v.$': true }, 31324, POSITIONAL),
  project('with an object of two operators', { v: { $type: 42, $op: 42 } }, 16410, DOLLAR_FIELD),
  project(
    'with $type of two arguments',
    { v: { $type: ['foo', 'bar'] } },
    16020,
    'Expression $type takes exactly 1 arguments. 2 were passed in.',
  ),
  project('with an unknown operator', { v: { '$non-existent': 'foo' } }, 31325, 'Unknown expression $non-existent'),
  project(
    'with an unknown operator as an argument',
    { v: { $type: { '$non-existent': 'foo' } } },
    168,
    "Unrecognized expression '$non-existent'",
  ),
  project('with $sum of $', { sum: { $sum: '$' } }, 16872, "'$' by itself is not a valid FieldPath"),
  project('with $sum of $$', { sum: { $sum: '$$' } }, 9, 'empty variable names are not allowed'),
  project(
    'with $sum of $$$',
    { sum: { $sum: '$$$' } },
    9,
    "'$' starts with an invalid character for a user variable name",
  ),

  unset('of an empty string', '', 40352, EMPTY_PATH),
  unset('of a document', {}, 31002, '$unset specification must be a string or an array', false),
  unset('of a path with an empty part', 'v..foo', 15998, EMPTY_PART),
  unset('of a path ending with a dot', 'v.', 40353, TRAILING_DOT),
  unset('of a path starting with a dot', '.v', 15998, EMPTY_PART),
  unset('of a $ field', '$v', 16410, DOLLAR_FIELD),
  unset(
    'of an empty array',
    [],
    31119,
    '$unset specification must be a string or an array with at least one field',
    false,
  ),
  unset(
    'of an array with a number',
    ['field1', 1],
    31120,
    '$unset specification must be a string or an array containing only string values',
    false,
  ),
  unset('of an array with an empty string', [''], 40352, EMPTY_PATH),
  unset('of a field twice', ['v', 'v'], 31250, 'Path collision at v'),
  unset('of a field and a path under it', ['v', 'v.foo'], 31249, 'Path collision at v.foo remaining portion foo'),
  unset(
    'of a field and a deeper path',
    ['v', 'v.foo.bar'],
    31249,
    'Path collision at v.foo.bar remaining portion foo.bar',
  ),
  unset('of a path and its parent', ['v.foo', 'v'], 31250, 'Path collision at v'),
  unset('of an array with a path with an empty part', ['v..foo'], 15998, EMPTY_PART),
  unset('of an array with a path ending with a dot', ['v.'], 40353, TRAILING_DOT),
  unset('of an array with a path starting with a dot', ['.v'], 15998, EMPTY_PART),
  unset('of an array with a $ field', ['$v'], 16410, DOLLAR_FIELD),

  group('with $sum of an empty list', { sum: { $sum: [] } }, 40237, 'The $sum accumulator is a unary operator'),
  // parseCountAccumulator.
  group('with $count of 1', { n: { $count: 1 } }, 14, '$count takes no arguments, i.e. $count:{}'),
  group('with $count of a field', { n: { $count: '$a' } }, 14, '$count takes no arguments, i.e. $count:{}'),
  group('with $count of a document', { n: { $count: { a: 1 } } }, 14, '$count takes no arguments, i.e. $count:{}'),
  group('with an empty accumulator', { v: {} }, 40234, "The field 'v' must be an accumulator object"),
  group(
    'with an _id of two operators',
    { _id: { $type: 42, $op: 42 } },
    15983,
    'An object representing an expression must have exactly one field: { $type: 42, $op: 42 }',
  ),
  group(
    'with $type of two arguments',
    { _id: { $type: ['foo', 'bar'] } },
    16020,
    'Expression $type takes exactly 1 arguments. 2 were passed in.',
  ),
  group(
    'with an unknown operator',
    { _id: { '$non-existent': 'foo' } },
    168,
    "Unrecognized expression '$non-existent'",
  ),
  group('with $sum of $', { _id: { $sum: '$' } }, 16872, "'$' by itself is not a valid FieldPath"),
  group('with $sum of $$', { _id: { $sum: '$$' } }, 9, 'empty variable names are not allowed'),
  group(
    'with $sum of $$$',
    { _id: { $sum: '$$$' } },
    9,
    "'$' starts with an invalid character for a user variable name",
  ),
  group(
    'with an unknown operator as an argument',
    { _id: { $type: { '$non-existent': 'foo' } } },
    168,
    "Unrecognized expression '$non-existent'",
  ),
  group('with an _id field of $', { _id: { v: '$' } }, 16872, "'$' by itself is not a valid FieldPath"),
  group('with an _id field of $$', { _id: { v: '$$' } }, 9, 'empty variable names are not allowed'),
  group(
    'with an _id field of $$$',
    { _id: { v: '$$$' } },
    9,
    "'$' starts with an invalid character for a user variable name",
  ),
  group(
    'with an _id field of $$$s',
    { _id: { v: '$$$s' } },
    9,
    "'$s' starts with an invalid character for a user variable name",
  ),
  group('with an _id field of an undefined variable', { _id: { v: '$$s' } }, 17276, 'Use of undefined variable: s'),

  ['$sort by a path with an empty part', { $sort: { 'v..foo': 1 } }, 15998, EMPTY_PART],

  // From mongod's sources (accumulation_statement.cpp, document_source_group.cpp, sort_pattern.cpp, variables.cpp).
  group(
    'with a dotted field name',
    { _id: null, 'a.b': { $sum: 1 } },
    40235,
    "The field name 'a.b' cannot contain '.'",
  ),
  group('with a $ field name', { _id: null, $x: { $sum: 1 } }, 40236, "The field name '$x' cannot be an operator name"),
  group(
    'with two accumulators in a field',
    { _id: null, x: { $sum: 1, $avg: 1 } },
    40238,
    "The field 'x' must specify one accumulator",
  ),
  group(
    'with an unknown accumulator of a list',
    { _id: null, x: { $foo: [] } },
    40237,
    'The $foo accumulator is a unary operator',
  ),
  group('without _id', { x: { $sum: 1 } }, 15955, 'a group specification must include an _id'),
  ['$sort with no key', { $sort: {} }, 15976, '$sort stage must have at least one sort key'],
  [
    '$sort in direction 2',
    { $sort: { a: 2 } },
    15975,
    '$sort key ordering must be 1 (for ascending) or -1 (for descending)',
  ],
  [
    '$let defining a capitalized variable',
    { $project: { x: { $let: { vars: { A: 1 }, in: 1 } } } },
    9,
    "Invalid $project :: caused by :: 'A' starts with an invalid character for a user variable name",
  ],
  [
    '$map naming its variable with a capital',
    { $project: { x: { $map: { input: [1], as: 'A', in: 1 } } } },
    9,
    "Invalid $project :: caused by :: 'A' starts with an invalid character for a user variable name",
  ],
  [
    'a variable name with a dash',
    { $group: { _id: '$$a-b' } },
    9,
    "'a-b' contains an invalid character for a variable name: '-'",
  ],
];

describe('variable names', () => {
  it('should take names with digits, underscores and characters past ASCII, one beyond the BMP included', async () => {
    const collection = await fx.fresh('stage_errors');
    await collection.insertOne({ a: 1 });
    const [doc] = await collection
      .aggregate([{ $project: { _id: 0, x: { $let: { vars: { 'é😀_1': 2 }, in: { $add: ['$$é😀_1', '$a'] } } } } }])
      .toArray();
    expect(doc).toEqual({ x: 3 });
  });
});

describe('find projection errors', () => {
  // find parses its projection as $project does, without the stage's prefix; `.$` at a path's end is its own.
  it.each<[string, Document, number, string]>([
    ['a path inside another', { a: 1, 'a.b': 1 }, 31249, 'Path collision at a.b remaining portion b'],
    ['a path given twice', { 'a.b': 1, a: { b: 1 } }, 31250, 'Path collision at a.b'],
    ['a positional operator mid-path', { 'a.$.b': 1 }, 31394, POSITIONAL_MIDDLE],
    ['a $ field', { $a: 1 }, 16410, DOLLAR_FIELD],
    [
      'an empty sub-projection',
      { a: {} },
      51270,
      'An empty sub-projection is not a valid value. Found empty object at path',
    ],
  ])('should refuse %s', async (_label, projection, code, message) => {
    const collection = await fx.fresh('stage_errors');
    const error = await rejection(collection.find({}, { projection }).toArray());
    expect([error.code, error.message]).toEqual([code, message]);
  });
});

describe('stage errors', () => {
  it.each(CASES)('should refuse %s', async (_label, stage, code, message) => {
    const collection = await fx.fresh('stage_errors');
    const error = await rejection(collection.aggregate([stage]).toArray());
    expect([error.code, error.message]).toEqual([code, message]);
  });
});

describe('$skip, $limit, $replaceRoot, $unionWith and $sortByCount arguments', () => {
  // BSONElement::parseIntegerElementToNonNegativeLong's reasons, the element printed as mongod prints it.
  const skip = (value: unknown, reason: string): [string, Document, number, string] => [
    `$skip: ${String(value)}`,
    { $skip: value },
    5107200,
    `invalid argument to $skip stage: ${reason}`,
  ];
  const SORT_BY_COUNT = 'the sortByCount field must be defined as a $-prefixed path or an expression inside an object';
  it.each<[string, Document, number, string]>([
    skip(-1, 'Expected a non-negative number in: $skip: -1'),
    skip('a', 'Expected a number in: $skip: "a"'),
    skip(true, 'Expected a number in: $skip: true'),
    skip(1.5, 'Expected an integer: $skip: 1.5'),
    skip(Number.NaN, 'Expected an integer, but found NaN in: $skip: nan.0'),
    skip(1e20, 'Cannot represent as a 64-bit integer: $skip: 1e+20.0'),
    skip(Decimal128.fromString('1.5'), 'Cannot represent as a 64-bit integer: $skip: 1.5'),
    skip(Long.fromNumber(-2), 'Expected a non-negative number in: $skip: -2'),
    ['$limit: 0', { $limit: 0 }, 15958, 'the limit must be positive'],
    [
      '$limit: -1',
      { $limit: -1 },
      5107201,
      'invalid argument to $limit stage: Expected a non-negative number in: $limit: -1',
    ],
    ['$limit: 1.5', { $limit: 1.5 }, 5107201, 'invalid argument to $limit stage: Expected an integer: $limit: 1.5'],
    ['$limit: "a"', { $limit: 'a' }, 5107201, 'invalid argument to $limit stage: Expected a number in: $limit: "a"'],
    [
      '$replaceRoot: "x"',
      { $replaceRoot: 'x' },
      40229,
      'expected an object as specification for $replaceRoot stage, got string',
    ],
    [
      '$replaceRoot with another field',
      { $replaceRoot: { newRoot: '$a', x: 1 } },
      40415,
      "BSON field '$replaceRoot.x' is an unknown field.",
    ],
    [
      '$replaceRoot without newRoot',
      { $replaceRoot: {} },
      40414,
      "BSON field '$replaceRoot.newRoot' is missing but a required field",
    ],
    [
      '$unionWith: 5',
      { $unionWith: 5 },
      9,
      'the $unionWith stage specification must be an object or string, but found int',
    ],
    [
      '$unionWith with another field',
      { $unionWith: { coll: 'x', y: 1 } },
      40415,
      "BSON field '$unionWith.y' is an unknown field.",
    ],
    [
      '$unionWith with a numeric coll',
      { $unionWith: { coll: 1 } },
      14,
      "BSON field '$unionWith.coll' is the wrong type 'int', expected type 'string'",
    ],
    [
      '$unionWith with a stage that is no object',
      { $unionWith: { coll: 'x', pipeline: [1] } },
      14,
      "BSON field '$unionWith.pipeline.0' is the wrong type 'int', expected type 'object'",
    ],
    [
      '$unionWith without coll or $documents',
      { $unionWith: { pipeline: [] } },
      9,
      '$unionWith stage without explicit collection must have a pipeline with $documents as first stage',
    ],
    [
      '$sortByCount: 5',
      { $sortByCount: 5 },
      40149,
      'the sortByCount field must be specified as a string or as an object',
    ],
    ['$sortByCount: "a"', { $sortByCount: 'a' }, 40148, SORT_BY_COUNT],
    ['$sortByCount: "$"', { $sortByCount: '$' }, 40148, SORT_BY_COUNT],
    ['$sortByCount: {}', { $sortByCount: {} }, 40147, SORT_BY_COUNT],
    ['$sortByCount: { a: 1 }', { $sortByCount: { a: 1 } }, 40147, SORT_BY_COUNT],
  ])('should refuse %s before reading a document', async (_label, stage, code, message) => {
    const collection = await fx.fresh('stage_errors');
    const error = await rejection(collection.aggregate([stage]).toArray());
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('should take a whole $skip and $limit of any numeric type', async () => {
    const collection = await fx.fresh('stage_errors');
    await collection.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }, { _id: 4 }] as Document[]);
    const results = await collection
      .aggregate([
        { $sort: { _id: 1 } },
        { $skip: Long.fromNumber(1) },
        { $skip: new Double(1) },
        { $limit: Decimal128.fromString('1') },
      ])
      .toArray();
    expect(results).toEqual([{ _id: 3 }]);
  });

  it.each<[string, Document, string]>([
    [
      'a number',
      { $replaceRoot: { newRoot: '$a' } },
      "'newRoot' expression must evaluate to an object, but resulting value was: 5. Type of resulting value: 'int'. Input document: {a: 5}",
    ],
    [
      'a missing field',
      { $replaceRoot: { newRoot: '$b' } },
      "'newRoot' expression must evaluate to an object, but resulting value was: MISSING. Type of resulting value: 'missing'. Input document: {}",
    ],
    [
      'a string, with $replaceWith',
      { $replaceWith: '$s' },
      '\'replacement document\' must evaluate to an object, but resulting value was: "x". Type of resulting value: \'string\'. Input document: {s: "x"}',
    ],
  ])('should fail a new root that is %s (40228)', async (_label, stage, message) => {
    const collection = await fx.fresh('stage_errors');
    await collection.insertOne({ _id: 1, a: 5, s: 'x' } as Document);
    const error = await rejection(collection.aggregate([stage]).toArray());
    expect([error.code, error.message]).toEqual([40228, message]);
  });
});

describe('$documents elements', () => {
  it.each<[string, unknown[], string]>([
    ['a number', [{ a: 1 }, 1], "'int'"],
    ['an array', [[{ a: 1 }]], "'array'"],
    ['null', [null], "'null'"],
  ])(
    'should fail on an element that is %s (40228), as the $replaceRoot of its rewrite',
    async (_label, documents, type) => {
      const error = await rejection(fx.db.aggregate([{ $documents: documents }]).toArray());
      expect(error.code).toBe(40228);
      expect(error.message).toContain(`Type of resulting value: ${type}.`);
    },
  );
});

describe('$redact errors', () => {
  // document_source_redact.cpp: 17053 with the expression's result as Value::toString() prints it.
  const REDACT =
    "$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned ";
  it.each<[string, unknown, string]>([
    ['a string', 'x', '"x"'],
    ['a number', 5, '5'],
    ['a document', { $literal: { a: 1 } }, '{a: 1}'],
    ['null', null, 'null'],
    ['a missing field', '$nothing', 'MISSING'],
  ])('should refuse an expression returning %s (17053)', async (_label, expression, printed) => {
    const collection = await fx.fresh('stage_errors');
    await collection.insertOne({ a: 1 });
    const error = await rejection(collection.aggregate([{ $redact: expression }]).toArray());
    expect([error.code, error.message]).toEqual([17053, `${REDACT}${printed}`]);
  });
});

describe("an aggregate's maxTimeMS and cursor", () => {
  const aggregate = (fields: Document): Promise<Document> =>
    fx.db.command({ aggregate: 'stage_errors', pipeline: [], cursor: {}, ...fields });

  it.each<[string, Document, number, string | RegExp]>([
    [
      'a negative maxTimeMS',
      { maxTimeMS: -1123123 },
      51024,
      "BSON field 'maxTimeMS' value must be >= 0, actual value '-1123123'",
    ],
    [
      'a negative Int64 maxTimeMS',
      { maxTimeMS: -1n },
      51024,
      "BSON field 'maxTimeMS' value must be >= 0, actual value '-1'",
    ],
    [
      'a negative fractional maxTimeMS',
      { maxTimeMS: -1.5 },
      51024,
      // Truncated toward zero, as a negative fractional batchSize is.
      "BSON field 'maxTimeMS' value must be >= 0, actual value '-1'",
    ],
    ['a maxTimeMS past int32', { maxTimeMS: 2 ** 31 }, 2, /^2147483648 value for maxTimeMS is out of range/],
    ['a fractional maxTimeMS', { maxTimeMS: 1000.5 }, 2, 'maxTimeMS has non-integral value'],
    ['a null maxTimeMS', { maxTimeMS: null }, 2, 'maxTimeMS must be a number'],
    [
      'a string maxTimeMS',
      { maxTimeMS: 'string' },
      14,
      "BSON field 'aggregate.maxTimeMS' is the wrong type 'string', expected types '[long, int, decimal, double']",
    ],
    [
      'an array maxTimeMS',
      { maxTimeMS: [42, 'foo', null] },
      14,
      "BSON field 'aggregate.maxTimeMS' is the wrong type 'array', expected types '[long, int, decimal, double']",
    ],
    [
      'a document maxTimeMS',
      { maxTimeMS: { foo: 42 } },
      14,
      "BSON field 'aggregate.maxTimeMS' is the wrong type 'object', expected types '[long, int, decimal, double']",
    ],
    [
      'a negative batchSize',
      { cursor: { batchSize: -1n } },
      51024,
      "BSON field 'batchSize' value must be >= 0, actual value '-1'",
    ],
    [
      'a negative fractional batchSize',
      { cursor: { batchSize: -1.1 } },
      51024,
      "BSON field 'batchSize' value must be >= 0, actual value '-1'",
    ],
    [
      'a boolean batchSize',
      { cursor: { batchSize: true } },
      14,
      "BSON field 'cursor.batchSize' is the wrong type 'bool', expected types '[long, int, decimal, double']",
    ],
    ['a string cursor', { cursor: 'invalid' }, 14, 'cursor field must be missing or an object'],
  ])('should refuse %s', async (_label, fields, code, message) => {
    const error = await rejection(aggregate(fields));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(
      typeof message === 'string' ? new RegExp(`^${message.replace(/[$.[\]()*+?^{}|\\]/g, '\\$&')}$`) : message,
    );
  });

  it('should refuse an aggregate without cursor', async () => {
    const error = await rejection(fx.db.command({ aggregate: 'stage_errors', pipeline: [] }));
    expect([error.code, error.message]).toEqual([
      9,
      "The 'cursor' option is required, except for aggregate with the explain argument",
    ]);
  });

  it.each<[string, unknown, number]>([
    ['a fractional batchSize, floored', 1.9, 1],
    ['a batchSize of 0.0', 0, 0],
    ['an Int64 batchSize', 2n, 2],
  ])('should take %s', async (_label, batchSize, expected) => {
    const collection = await fx.fresh('stage_batches');
    await collection.insertMany([{ a: 1 }, { a: 2 }, { a: 3 }]);
    const reply = await fx.db.command({ aggregate: 'stage_batches', pipeline: [], cursor: { batchSize } });
    expect(((reply.cursor as Document).firstBatch as unknown[]).length).toBe(expected);
  });
});
