/**
 * Conformance: the errors mongod 7 answers for malformed `find` commands: a
 * `sort` that is not a document or holds a direction other than 1 or -1, a
 * `maxTimeMS` or `showRecordId` of the wrong type or out of range, projection
 * paths that are empty, start with `$` or place the positional `.$`
 * anywhere but at their end, positional projections that find no matching
 * array element while the documents are read, `$expr` filters with bad
 * expressions or variables, and a regular expression compared with `$lt`;
 * and a few exact results of plain `find` commands (exact matches of
 * documents and arrays, dotted paths, `_id` documents whose field order
 * matters, `$regex` with options, `showRecordId`). The cases and answers are
 * those an independent MongoDB-compatible server's integration suite asserts
 * against a real MongoDB. Every command goes through `db.command` so that its
 * arguments reach the server as written. Written to hold against MONGO_URL too.
 */
import { Binary, BSONRegExp, type Document, Double, Long, ObjectId, Timestamp } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

const NAME = 'find_errors';

/** A part of the other suite's shared scalar values, as `{ _id, v }` documents. */
const SCALARS: Document[] = [
  { _id: 'double', v: 42.13 },
  { _id: 'double-whole', v: new Double(42) },
  { _id: 'double-zero', v: new Double(0) },
  { _id: 'string', v: 'foo' },
  { _id: 'string-double', v: '42.13' },
  { _id: 'string-whole', v: '42' },
  { _id: 'string-empty', v: '' },
  { _id: 'bool-false', v: false },
  { _id: 'bool-true', v: true },
  { _id: 'null', v: null },
  { _id: 'regex', v: new BSONRegExp('foo', 'i') },
  { _id: 'regex-empty', v: new BSONRegExp('', '') },
  { _id: 'int32', v: 42 },
  { _id: 'int32-zero', v: 0 },
  { _id: 'int64', v: Long.fromNumber(42) },
  { _id: 'int64-zero', v: Long.fromNumber(0) },
];

/** The other suite's shared composite values, as `{ _id, v }` documents. */
const COMPOSITES: Document[] = [
  { _id: 'document', v: { foo: 42 } },
  { _id: 'document-composite', v: { foo: 42, '42': 'foo', array: [42, 'foo', null] } },
  { _id: 'document-composite-reverse', v: { array: [42, 'foo', null], '42': 'foo', foo: 42 } },
  { _id: 'document-composite-numerical-field-name', v: { foo: 42, '42': 'foo', array: { '42': 42 } } },
  { _id: 'document-null', v: { foo: null } },
  { _id: 'document-empty', v: {} },
  { _id: 'array', v: [42] },
  { _id: 'array-two', v: [42.13, 'foo'] },
  { _id: 'array-three', v: [42, 'foo', null] },
  { _id: 'array-three-reverse', v: [null, 'foo', 42] },
  { _id: 'array-empty', v: [] },
  { _id: 'array-null', v: [null] },
  { _id: 'array-numbers-asc', v: [42, Long.fromNumber(43), 45.5] },
  { _id: 'array-strings-desc', v: ['c', 'b', 'a'] },
  { _id: 'array-documents', v: [{ field: 42 }, { field: 44 }] },
  {
    _id: 'array-composite',
    v: [
      42.13,
      'foo',
      new Binary(Buffer.from([42, 0, 13]), 0x80),
      new ObjectId('000102030405060708091011'),
      true,
      new Date('2021-11-01T10:18:42.123Z'),
      null,
      new BSONRegExp('foo', 'i'),
      42,
      new Timestamp({ t: 42, i: 13 }),
      Long.fromNumber(41),
    ],
  },
];

/** The collection holding the shared documents. */
async function populate(): Promise<void> {
  const collection = await fx.fresh(NAME);
  await collection.insertMany([...SCALARS, ...COMPOSITES] as never[]);
}

/** The `_id`s of the documents a find command answers with, in its order. */
async function ids(command: Document): Promise<unknown[]> {
  const reply = await fx.db.command(command);
  return (reply.cursor as { firstBatch: Document[] }).firstBatch.map((doc) => doc._id);
}

type Case = [label: string, fields: Document, code: number, codeName: string, message: string];

const POSITIONAL_MIDDLE =
  "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional projection may only be " +
  "used at the end, for example: a.b.$. If the query previously used a form like a.b.$.d, remove the parts following the '$' and " +
  'the results will be equivalent.';
const DOLLAR_FIELD = "FieldPath field names may not start with '$'. Consider using $getField or $setField.";
const NO_MATCHING_ELEMENT =
  "Executor error during find command :: caused by :: positional operator '.$' couldn't find a matching element in the array";
const SORT_ORDERING = '$sort key ordering must be 1 (for ascending) or -1 (for descending)';
const OUT_OF_RANGE = 'value for maxTimeMS is out of range [0, 2147483647]';

const sortCases: Case[] = [
  [
    'a double sort',
    { projection: { v: 'some' }, sort: 42.13 },
    14,
    'TypeMismatch',
    'Expected field sortto be of type object',
  ],
  [
    'a string sort',
    { projection: { v: 'some' }, sort: '123' },
    14,
    'TypeMismatch',
    'Expected field sortto be of type object',
  ],
  [
    'a string direction',
    { projection: { v: 42 }, sort: { asc: '123' } },
    15974,
    'Location15974',
    'Illegal key in $sort specification: asc: "123"',
  ],
  ['a fractional direction', { projection: { v: 42 }, sort: { asc: 42.12 } }, 15975, 'Location15975', SORT_ORDERING],
  ['a direction of 12', { projection: { v: 42 }, sort: { asc: 12 } }, 15975, 'Location15975', SORT_ORDERING],
  [
    'a direction of the largest Int64',
    { projection: { v: 42 }, sort: { asc: Long.MAX_VALUE } },
    15975,
    'Location15975',
    SORT_ORDERING,
  ],
];

const maxTimeCases: Case[] = [
  ['a fractional maxTimeMS', { maxTimeMS: 43.15 }, 2, 'BadValue', 'maxTimeMS has non-integral value'],
  [
    'a negative fractional maxTimeMS past Int32',
    { maxTimeMS: new Double(-14245345234123246) },
    2,
    'BadValue',
    `-14245345234123246 ${OUT_OF_RANGE}`,
  ],
  ['a string maxTimeMS', { maxTimeMS: 'string' }, 2, 'BadValue', 'maxTimeMS must be a number'],
  [
    'the largest Int64 as maxTimeMS',
    { maxTimeMS: Long.MAX_VALUE },
    2,
    'BadValue',
    `9223372036854775807 ${OUT_OF_RANGE}`,
  ],
  [
    'the smallest Int64 as maxTimeMS',
    { maxTimeMS: Long.MIN_VALUE },
    2,
    'BadValue',
    `-9223372036854775808 ${OUT_OF_RANGE}`,
  ],
  ['a null maxTimeMS', { maxTimeMS: null }, 2, 'BadValue', 'maxTimeMS must be a number'],
  ['an array maxTimeMS', { maxTimeMS: [42, 'foo', null] }, 2, 'BadValue', 'maxTimeMS must be a number'],
  [
    'a document maxTimeMS',
    { maxTimeMS: { foo: 42, '42': 'foo', array: [42, 'foo', null] } },
    2,
    'BadValue',
    'maxTimeMS must be a number',
  ],
  ['a negative int maxTimeMS', { maxTimeMS: -1123123 }, 2, 'BadValue', `-1123123 ${OUT_OF_RANGE}`],
];

const showRecordIdCases: Case[] = [
  [
    'a null showRecordId',
    { showRecordId: null },
    14,
    'TypeMismatch',
    "Field 'showRecordId' should be a boolean value, but found: null",
  ],
  [
    'an int showRecordId',
    { showRecordId: 0 },
    14,
    'TypeMismatch',
    "Field 'showRecordId' should be a boolean value, but found: int",
  ],
  [
    'a string showRecordId',
    { showRecordId: 'string' },
    14,
    'TypeMismatch',
    "Field 'showRecordId' should be a boolean value, but found: string",
  ],
];

const projection = (
  label: string,
  filter: Document,
  spec: Document,
  code: number,
  message: string,
  codeName = `Location${code}`,
): Case => [`a projection ${label}`, { filter, projection: spec }, code, codeName, message];

// Mid-path positional operators and `$` fields are in conformance-stage-errors.spec.ts, inclusion in an exclusion
// and the reverse in conformance-projection.spec.ts.
const projectionCases: Case[] = [
  projection(
    'with an empty field name',
    { v: 42 },
    { '': true },
    40352,
    'FieldPath cannot be constructed with empty string',
  ),
  projection(
    'with an empty path part',
    { v: 42 },
    { 'v..d': true },
    15998,
    'FieldPath field names may not be empty strings.',
  ),
  projection(
    'with two positional operators',
    { _id: 'array-numbers-asc' },
    { 'v.$.foo.$': true },
    31394,
    POSITIONAL_MIDDLE,
  ),
  projection(
    'with positional operators first and mid-path',
    { v: 42 },
    { '$.v.$.foo': true },
    31394,
    POSITIONAL_MIDDLE,
  ),
  projection(
    'with a positional operator after an empty part',
    { v: 42 },
    { 'v..$': true },
    40353,
    "FieldPath must not end with a '.'.",
  ),
  projection('of the field $', { v: 42 }, { $: true }, 16410, DOLLAR_FIELD),
  projection('of a path starting with $.', { v: 42 }, { '$.foo': true }, 16410, DOLLAR_FIELD),
  projection('of a path with a $ part', { v: 42 }, { 'v.$foo': true }, 16410, DOLLAR_FIELD),
  projection(
    'of a path between positional operators',
    { _id: 'array-numbers-asc' },
    { '$.foo.$': true },
    16410,
    DOLLAR_FIELD,
  ),
  projection(
    'excluding a positional path',
    { v: 42 },
    { 'v.$': false },
    31395,
    'positional projection cannot be used with exclusion',
  ),
  // These fail while the documents are read: on an array the filter did not match, or one under the projected path.
  projection('with a positional path and an empty filter', {}, { 'v.$': true }, 51246, NO_MATCHING_ELEMENT),
  projection(
    'with a positional path over an empty array',
    { _id: 'array-empty' },
    { 'v.$': true },
    51246,
    NO_MATCHING_ELEMENT,
  ),
  projection(
    'with a positional path the filter does not name',
    { _id: 'array' },
    { 'v.$': true },
    51246,
    NO_MATCHING_ELEMENT,
  ),
  projection(
    'with a positional path under an array the filter matched',
    { v: 42 },
    { 'v.foo.$': true },
    51247,
    "Executor error during find command :: caused by :: positional operator '.$' element mismatch",
  ),
];

const expr = (label: string, filter: Document, code: number, codeName: string, message: string): Case => [
  `a filter ${label}`,
  { filter, sort: { _id: 1 } },
  code,
  codeName,
  message,
];

const filterCases: Case[] = [
  expr(
    'with an $expr of two operators',
    { $expr: { $type: 'v', $op: 'v' } },
    15983,
    'Location15983',
    'An object representing an expression must have exactly one field: { $type: "v", $op: "v" }',
  ),
  expr(
    'with an $expr $type of two arguments',
    { $expr: { $type: ['foo', 'bar'] } },
    16020,
    'Location16020',
    'Expression $type takes exactly 1 arguments. 2 were passed in.',
  ),
  expr(
    'with an $expr $type of a $type of two arguments',
    { $expr: { $type: { $type: ['foo', 'bar'] } } },
    16020,
    'Location16020',
    'Expression $type takes exactly 1 arguments. 2 were passed in.',
  ),
  expr(
    'with an unknown operator as an $expr argument',
    { $expr: { $type: { '$non-existent': 'foo' } } },
    168,
    'InvalidPipelineOperator',
    "Unrecognized expression '$non-existent'",
  ),
  expr('with an $expr of $', { $expr: '$' }, 16872, 'Location16872', "'$' by itself is not a valid FieldPath"),
  expr('with an $expr of $$', { $expr: '$$' }, 9, 'FailedToParse', 'empty variable names are not allowed'),
  expr(
    'with an $expr of $$$',
    { $expr: '$$$' },
    9,
    'FailedToParse',
    "'$' starts with an invalid character for a user variable name",
  ),
  expr(
    'with an $expr of $$$s',
    { $expr: '$$$s' },
    9,
    'FailedToParse',
    "'$s' starts with an invalid character for a user variable name",
  ),
  expr(
    'with an $expr inside $expr',
    { $expr: { $expr: 1 } },
    168,
    'InvalidPipelineOperator',
    "Unrecognized expression '$expr'",
  ),
  expr('with $expr under a field', { v: { $expr: 1 } }, 2, 'BadValue', 'unknown operator: $expr'),
  expr(
    'with an $expr $gt of a number',
    { $expr: { $gt: 1 } },
    16020,
    'Location16020',
    'Expression $gt takes exactly 2 arguments. 1 were passed in.',
  ),
  expr(
    'with an $expr $gt of one argument',
    { $expr: { $gt: [1] } },
    16020,
    'Location16020',
    'Expression $gt takes exactly 2 arguments. 1 were passed in.',
  ),
  expr(
    'with an $expr $gt of three arguments',
    { $expr: { $gt: [1, 2, 3] } },
    16020,
    'Location16020',
    'Expression $gt takes exactly 2 arguments. 3 were passed in.',
  ),
  expr(
    'with $lt of a regular expression over an array element',
    { 'v.array.0': { $lt: new BSONRegExp('^$') } },
    2,
    'BadValue',
    "Can't have RegEx as arg to predicate over field 'v.array.0'.",
  ),
];

describe('find errors', () => {
  beforeAll(populate);

  describe.each<[string, Case[]]>([
    ['sort', sortCases],
    ['maxTimeMS', maxTimeCases],
    ['showRecordId', showRecordIdCases],
    ['projection', projectionCases],
    ['filter', filterCases],
  ])('%s', (_group, cases) => {
    it.each(cases)('should refuse %s', async (_label, fields, code, codeName, message) => {
      const error = await rejection(fx.db.command({ find: NAME, ...fields }));
      expect({ code: error.code, codeName: error.codeName, message: error.message }).toEqual({
        code,
        codeName,
        message,
      });
    });
  });
});

describe('find results', () => {
  beforeAll(populate);

  it.each<[string, unknown]>([
    ['a double', new Double(10000)],
    ['a double zero', new Double(0)],
    ['an int', 10000],
    ['an int zero', 0],
    ['an Int64', Long.fromNumber(10000)],
    ['an Int64 zero', Long.fromNumber(0)],
  ])('should take %s as maxTimeMS', async (_label, maxTimeMS) => {
    const reply = await fx.db.command({ find: NAME, maxTimeMS });
    expect(reply.ok).toBe(1);
  });

  it('should project an included field without _id', async () => {
    const reply = await fx.db.command({ find: NAME, filter: { _id: 'int32' }, projection: { v: true, _id: false } });
    expect(reply.cursor.firstBatch).toEqual([{ v: 42 }]);
  });

  it('should answer nothing, without an error, for a missing collection', async () => {
    expect(await ids({ find: `${NAME}_missing`, filter: {} })).toEqual([]);
  });

  describe('exact matches', () => {
    beforeAll(async () => {
      await fx.db.collection(NAME).insertMany([
        { _id: 'document-two-fields', foo: 'bar', baz: 42 },
        { _id: 'document-value-two-fields', v: { foo: 'bar', baz: 42 } },
      ] as never[]);
    });
    afterAll(async () => {
      await fx.db
        .collection(NAME)
        .deleteMany({ _id: { $in: ['document-two-fields', 'document-value-two-fields'] } } as never);
    });

    it.each<[string, Document, unknown[]]>([
      ['top-level fields', { foo: 'bar', baz: 42 }, ['document-two-fields']],
      ['top-level fields in another order', { baz: 42, foo: 'bar' }, ['document-two-fields']],
      ['a document value', { v: { foo: 'bar', baz: 42 } }, ['document-value-two-fields']],
      ['an array value', { v: [42, 'foo', null] }, ['array-three']],
      ['an array value in another order', { v: [42, null, 'foo'] }, []],
    ])('should match %s', async (_label, filter, expected) => {
      expect(await ids({ find: NAME, filter, sort: { _id: 1 } })).toEqual(expected);
    });
  });

  describe('$regex', () => {
    const REGEX = 'find_errors_regex';

    // Over the scalar documents only: the composite ones hold arrays with "foo".
    beforeAll(async () => {
      const collection = await fx.fresh(REGEX);
      await collection.insertMany([
        ...SCALARS,
        { _id: 'multiline-string', v: 'bar\nfoo' },
        { _id: 'document-nested-strings', v: { foo: { bar: 'quz' } } },
      ] as never[]);
    });

    it.each<[string, Document, unknown[]]>([
      ['a regular expression', { v: { $regex: new BSONRegExp('foo') } }, ['multiline-string', 'string']],
      ['a nested path', { 'v.foo.bar': { $regex: new BSONRegExp('quz') } }, ['document-nested-strings']],
      [
        'a regular expression with an option',
        { v: { $regex: new BSONRegExp('42', 'i') } },
        ['string-double', 'string-whole'],
      ],
      ['a string with option i', { v: { $regex: 'foo', $options: 'i' } }, ['multiline-string', 'regex', 'string']],
      ['a string with option s', { v: { $regex: 'b.*foo', $options: 's' } }, ['multiline-string']],
      ['a string with option m', { v: { $regex: '^foo', $options: 'm' } }, ['multiline-string', 'string']],
    ])('should match %s', async (_label, filter, expected) => {
      expect(await ids({ find: REGEX, filter, sort: { _id: 1 } })).toEqual(expected);
    });
  });

  describe('dotted paths', () => {
    const DOTTED = 'find_errors_dotted';

    beforeAll(async () => {
      const collection = await fx.fresh(DOTTED);
      await collection.insertMany([
        {
          _id: 'document-deeply-nested',
          foo: { bar: { baz: { qux: { quz: 42 } } }, qaz: [{ baz: 1 }] },
          wsx: [{ edc: [{ rfv: 1 }] }],
        },
        { _id: { foo: 'bar' } },
      ] as never[]);
    });

    it.each<[string, Document, unknown[]]>([
      ['a deeply nested path', { 'foo.bar.baz.qux.quz': 42 }, ['document-deeply-nested']],
      ['no dotted field name inside a document', { 'foo.bar.baz': { 'qux.quz': 42 } }, []],
      ['an array index', { 'foo.qaz.0.baz': 1 }, ['document-deeply-nested']],
      ['two array indexes', { 'wsx.0.edc.0.rfv': 1 }, ['document-deeply-nested']],
      ['a path into _id', { '_id.foo': 'bar' }, [{ foo: 'bar' }]],
    ])('should match %s', async (_label, filter, expected) => {
      expect(await ids({ find: DOTTED, filter, sort: { _id: 1 } })).toEqual(expected);
    });
  });

  it('should match an _id document only in its field order', async () => {
    const collection = await fx.fresh('find_errors_id_doc');
    await collection.insertMany([
      { _id: { a: 1, z: 2 }, v: 1 },
      { _id: { a: 3, z: 4 }, v: 2 },
    ] as never[]);
    const find = (filter: Document) => fx.db.command({ find: 'find_errors_id_doc', filter });
    expect((await find({ _id: { a: 3, z: 4 } })).cursor.firstBatch).toEqual([{ _id: { a: 3, z: 4 }, v: 2 }]);
    expect((await find({ _id: { z: 4, a: 3 } })).cursor.firstBatch).toEqual([]);
  });

  it.each([true, false])(
    'should show $recordId in every document, through getMore too, as asked (%s)',
    async (show) => {
      const docs = await fx.db.collection(NAME).find({}, { showRecordId: show, batchSize: 2 }).toArray();
      expect(docs).toHaveLength(SCALARS.length + COMPOSITES.length);
      for (const doc of docs) {
        if (show) expect(doc.$recordId).toEqual(expect.anything());
        else expect(doc).not.toHaveProperty('$recordId');
      }
    },
  );
});

describe('find: the positional projection on what the rest of the projection kept', () => {
  const POSITIONAL = 'find_errors_positional';

  beforeAll(async () => {
    const collection = await fx.fresh(POSITIONAL);
    await collection.insertMany([
      { _id: 1, v: 42, w: 'kept' },
      { _id: 2, v: [41, 42, 43], w: 'kept' },
      { _id: 3, v: { a: [7, 42] } },
      { _id: 4, v: [{ a: 1 }, { a: 42 }] },
    ] as never[]);
  });

  const find = async (filter: Document, projection: Document) =>
    (await fx.db.command({ find: POSITIONAL, filter, projection, sort: { _id: 1 } })).cursor.firstBatch;

  it('should leave a matched scalar as it is and keep the matched element of an array', async () => {
    expect(await find({ _id: { $in: [1, 2] }, v: 42 }, { 'v.$': 1 })).toEqual([
      { _id: 1, v: 42 },
      { _id: 2, v: [42] },
    ]);
  });

  it('should take the element from the first array on the path, under a document', async () => {
    expect(await find({ _id: 3, 'v.a': 42 }, { 'v.a.$': 1 })).toEqual([{ _id: 3, v: { a: [42] } }]);
  });

  it('should take the element from an array of documents the projection kept whole', async () => {
    expect(await find({ _id: 4, 'v.a': 42 }, { 'v.a.$': 1 })).toEqual([{ _id: 4, v: [{ a: 42 }] }]);
  });

  it('should refuse an index beyond what the projection kept of the array (51247)', async () => {
    const error = await rejection(find({ _id: 2, v: 42 }, { 'v.foo.$': 1 }));
    expect([error.code, error.message]).toEqual([
      51247,
      "Executor error during find command :: caused by :: positional operator '.$' element mismatch",
    ]);
  });
});
