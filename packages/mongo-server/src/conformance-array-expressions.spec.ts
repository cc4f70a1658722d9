/**
 * Conformance: the array and set expressions (`$arrayElemAt`, `$first` and
 * `$last`, `$slice`, `$concatArrays`, `$filter`, `$map`, `$reduce`, `$zip`,
 * `$reverseArray`, `$indexOfArray`, `$in`, `$size`, `$isArray`, `$range`,
 * `$arrayToObject`, `$objectToArray`, `$sortArray`, `$firstN`, `$lastN`,
 * `$maxN` and `$minN` as expressions, `$setUnion`, `$setIntersection`,
 * `$setDifference`, `$setEquals`, `$setIsSubset`, `$allElementsTrue`,
 * `$anyElementTrue`), ported from mongod's own jstests:
 * jstests/aggregation/expressions/array_elem_at.js, first_last.js, slice.js
 * (jstests/aggregation/bugs/server6074.js before it moved), concat_arrays.js,
 * concat_arrays2.js, filter.js (and bugs/server17943.js, its first version),
 * map.js, reduce.js, zip.js, reverseArray.js, indexof_array.js,
 * indexof_array_dup.js, in.js, size.js, is_array.js, range.js,
 * arrayToObject.js, objectToArray.js, sortArray.js, n_expressions.js,
 * set.js, all_elements_true.js and any_element_true.js. The cases and their
 * answers are mongod's; none is made up here. A representative subset of the
 * larger files is taken (about 300 cases in all). Written to hold against a
 * real MongoDB 7 (MONGO_URL) too. Left out: the sources' `undefined` values
 * (the Node driver cannot store one), filter.js's `$POISON` cases (they need
 * the `failOnPoisonedFieldLookup` fail point), objectToArray.js's `$$ROOT`
 * case (the suite's one document is not the source's), in.js's cases that
 * need a collection collation or a hashed index, the `$out` variants of
 * arrayToObject.js, and concat_arrays.js's cases whose answer depends on
 * whether the query runs in SBE. No stored version of filter.js with
 * `$filter`'s `limit` could be read, so that option has no case here rather
 * than an invented one.
 *
 * Operands keep the sources' BSON types: the shell's bare numbers are doubles
 * (every plain number of a case is sent as a double), `NumberInt` an int32,
 * `NumberLong` an int64, `NumberDecimal` a Decimal128 (the shell's
 * `NumberDecimal(4)` of a number is the double at 15 digits,
 * `4.00000000000000`). Where a source stores its operands in a document,
 * they are stored here too, as the fields of the suite's one document (named
 * in the test names by the source's field names, `$a`); a source with several
 * documents is run over each of them in one `$project`, and its answer is the
 * list of the per-document results. Where a source writes its operands as
 * constants, so does this port. Results are read with their BSON types
 * (`promoteValues: false`) as `int 5`, `long 5`, `double 2.5`,
 * `decimal 2.50`, `date <ISO>`, strings as they are, `missing` for an absent
 * field, and checked as strictly as the source checks them: `assert.eq` of a
 * scalar compares numbers by value (`==`), of a document or an array by its
 * `tojson` (an int and a double alike, a NumberLong or a Decimal128 by its
 * text, fields in their order); `arrayEq`/`assertArrayEq` (concat_arrays.js,
 * range.js) take arrays in any order at every depth and numbers by value;
 * set.js sorts each result array before comparing. An error is checked by
 * the code the source names and, where mongod's message is known from its
 * sources, a fragment of that message.
 */
import {
  type AggregateOptions,
  type Collection,
  Decimal128,
  type Document,
  Double,
  Int32,
  Long,
  ObjectId,
} from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';
import { shellText } from './jstest-labels.fixture.js';
import { intOrDouble, numberOf, oneOf } from './jstest-matchers.fixture.js';
import { bsonText, isPlainDocument, pipelineFailure } from './raw-replies.fixture.js';
import { StoredInputs } from './stored-inputs.fixture.js';

const fx = useDriverFixture();

/** ErrorCodes::FailedToParse. */
const FAILED_TO_PARSE = 9;
/** ErrorCodes::ExceededMemoryLimit. */
const EXCEEDED_MEMORY_LIMIT = 146;

// The shell's number constructors.
const int = (n: number) => new Int32(n);
const long = (value: string | number) => (typeof value === 'string' ? Long.fromString(value) : Long.fromNumber(value));
const decimal = (text: string) => Decimal128.fromString(text);
/** A double the source writes with a point (`2.0`); a bare number is a double as well, this only names it so. */
const dbl = (n: number) => new Double(n);

/** A fixed date where filter.js takes `new Date()`. */
const DATE = new Date('2024-05-06T07:08:09.010Z');

/** `value` as the shell sends it: its bare numbers are doubles. */
function shellValue(value: unknown): unknown {
  if (typeof value === 'number') return new Double(value);
  if (Array.isArray(value)) return value.map(shellValue);
  if (isPlainDocument(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shellValue(v)]));
  return value;
}

/** The labels of the stored inputs, by their field path. */
const storedLabels = new Map<string, string>();

/** A value as the shell writes it, for the test names; a {@link PerDoc} by its first expression. */
function shell(value: unknown): string {
  return value instanceof PerDoc
    ? `${shell(value.exprs[0])} over each of ${value.exprs.length} documents`
    : shellText(value, storedLabels);
}

/** An expression evaluated on each of a source's documents. */
class PerDoc {
  constructor(readonly exprs: unknown[]) {}
}

/** The suite's inputs, stored as the fields of its one document. */
const inputs = new StoredInputs();

/** The path of `value` in the suite's document, so that the operand reaches the expression through storage. */
function stored(value: unknown, label = `stored(${shell(value)})`): string {
  const path = inputs.store(shellValue(value));
  storedLabels.set(path, label);
  return path;
}

/** The paths of one source document's fields; a field the document lacks is a path to nothing. */
type Fields = (name: string) => string;

let missingPaths = 0;

/** Stores each field of one of a source's documents, named in the test names as the source names it. */
function storeDoc(fields: Document): Fields {
  const paths = new Map(Object.entries(fields).map(([name, value]) => [name, stored(value, `$${name}`)]));
  return (name) => {
    const path = paths.get(name);
    if (path !== undefined) return path;
    const missing = `$missing${missingPaths++}`;
    storedLabels.set(missing, `$${name}`);
    return missing;
  };
}

/** `build`'s expression for each of `docs`. */
const overDocs = (docs: Fields[], build: (d: Fields) => unknown) => new PerDoc(docs.map(build));

/** The expected value as the shell's `tojson` (or, `loose`, `bsonWoCompare`) compares it with a result. */
function tojsonOf(raw: unknown, loose = false): unknown {
  if (typeof raw === 'number') return loose ? numberOf(raw) : intOrDouble(raw);
  if (raw instanceof Long) return loose ? numberOf(raw.toNumber()) : `long ${raw.toString()}`;
  if (raw instanceof Decimal128) return `decimal ${raw.toString()}`;
  if (raw instanceof Date) return `date ${raw.toISOString()}`;
  if (raw instanceof ObjectId) return `objectId ${raw.toHexString()}`;
  if (Array.isArray(raw)) return raw.map((v) => tojsonOf(v, loose));
  if (isPlainDocument(raw)) return Object.fromEntries(Object.entries(raw).map(([key, v]) => [key, tojsonOf(v, loose)]));
  return raw;
}

/** What the shell's `assert.eq` accepts: a number of that value (`==`), a document or array by its `tojson`. */
const eq = (raw: unknown) => (typeof raw === 'number' ? numberOf(raw) : tojsonOf(raw));

/** A result compared as part of a whole document (`tojson`), as most sources compare theirs. */
const inDoc = (raw: unknown) => tojsonOf(raw);

/** An expected array compared regardless of order. */
class Unordered {
  constructor(
    readonly raw: unknown,
    readonly loose: boolean,
  ) {}
}

/** `arrayEq` (utils.js): arrays in any order at every depth, numbers by value. */
const anyOrder = (raw: unknown) => (raw === null ? null : new Unordered(raw, true));

/** set.js: the result array sorted, then compared by its `tojson`. */
const asSet = (raw: unknown) => new Unordered(raw, false);

/** A key that orders a value the same whether it is a result (`int 5`) or a source's expectation (`5`). */
function orderKey(value: unknown): string {
  if (typeof value === 'number') return `n ${value}`;
  if (value instanceof Double || value instanceof Int32) return `n ${value.value}`;
  if (value instanceof Long) return `n ${value.toString()}`;
  if (value instanceof Decimal128) return `s decimal ${value.toString()}`;
  if (typeof value === 'string') {
    const number = /^(?:int|long|double) (.*)$/.exec(value);
    return number ? `n ${Number(number[1])}` : `s ${value}`;
  }
  if (Array.isArray(value)) return `[${value.map(orderKey).sort().join(',')}]`;
  if (isPlainDocument(value)) {
    return `{${Object.entries(value)
      .map(([key, v]) => `${key}:${orderKey(v)}`)
      .join(',')}}`;
  }
  return `o ${String(value)}`;
}

/** `value` with its arrays sorted by {@link orderKey}, at every depth. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortedDeep).sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0));
  }
  if (isPlainDocument(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, sortedDeep(v)]));
  return value;
}

/** The result and the expectation, both sorted where the source compares regardless of order. */
function arrange(actual: unknown, expected: unknown): [unknown, unknown] {
  if (expected instanceof Unordered) {
    const wanted = tojsonOf(sortedDeep(expected.raw), expected.loose);
    return [Array.isArray(actual) ? sortedDeep(actual) : actual, wanted];
  }
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    const pairs = expected.map((e, i) => arrange(actual[i], e));
    return [pairs.map(([a]) => a), pairs.map(([, e]) => e)];
  }
  return [actual, expected];
}

/** The nesting and field order of a value, which `toEqual` does not check. */
function shape(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(shape).join(',')}]`;
  if (isPlainDocument(value) && !('asymmetricMatch' in value)) {
    return `{${Object.entries(value)
      .map(([key, v]) => `${key}:${shape(v)}`)
      .join(',')}}`;
  }
  return '_';
}

type Case = [label: string, expr: unknown, expected: unknown, options?: AggregateOptions];
type Failure = [label: string, expr: unknown, codes: number | number[], message: string, stage?: '$replaceWith'];

/** A case named by its source file and its expression. */
const of = (source: string, expr: unknown, expected: unknown, options?: AggregateOptions): Case => [
  `${shell(expr)}${options?.collation ? ` with collation ${shell(options.collation)}` : ''} (${source})`,
  expr,
  expected,
  options,
];

/** An error case named by its source file and its expression. */
const failing = (
  source: string,
  expr: unknown,
  codes: number | number[],
  message: string,
  stage?: '$replaceWith',
): Failure => [`${shell(expr)}${stage ? ` in ${stage}` : ''} (${source})`, expr, codes, message, stage];

// ---------------------------------------------------------------------------
// array_elem_at.js
// ---------------------------------------------------------------------------

const elemAt = storeDoc({ a: [1, 2, 3, 4, 5] });

const ARRAY_ELEM_AT: Case[] = (
  [
    [2, 3],
    [dbl(1), 2],
    [decimal('2.0'), 3],
    [-1, 5],
    // Out of bounds: the field is left out.
    [5, 'missing'],
    [2 ** 31 - 1, 'missing'],
    [-6, 'missing'],
    [long(-(2 ** 31)), 'missing'],
    [null, null],
  ] as [unknown, unknown][]
).map(([index, expected]) => of('array_elem_at.js', { $arrayElemAt: [elemAt('a'), index] }, inDoc(expected)));
ARRAY_ELEM_AT.push(of('array_elem_at.js', { $arrayElemAt: [null, 4] }, null));

const ARRAY_ELEM_AT_ERRORS: Failure[] = [
  failing('array_elem_at.js', { $arrayElemAt: [['one', 'arg']] }, 16020, 'Expression $arrayElemAt takes exactly 2'),
  failing(
    'array_elem_at.js',
    { $arrayElemAt: ['one', 2] },
    28689,
    "$arrayElemAt's first argument must be an array, but is string",
  ),
  failing(
    'array_elem_at.js',
    { $arrayElemAt: [[1, 2], '2'] },
    28690,
    "$arrayElemAt's second argument must be a numeric value, but is string",
  ),
  ...[1.5, 2 ** 32, -(2 ** 31) - 1].map((index) =>
    failing(
      'array_elem_at.js',
      { $arrayElemAt: [[1, 2], index] },
      28691,
      "$arrayElemAt's second argument must be representable as a 32-bit integer",
    ),
  ),
];

// ---------------------------------------------------------------------------
// first_last.js
// ---------------------------------------------------------------------------

const firstLastDocs = [{ a: [] }, { a: ['A'] }, { a: ['A', 'B'] }, { a: ['A', 'B', 'C'] }, { a: null }, {}].map(
  (doc: Document) => storeDoc(doc),
);

const FIRST_LAST: Case[] = [
  of(
    'first_last.js',
    overDocs(firstLastDocs, (d) => ({ $first: d('a') })),
    ['missing', 'A', 'A', 'A', null, null],
  ),
  of(
    'first_last.js',
    overDocs(firstLastDocs, (d) => ({ $last: d('a') })),
    ['missing', 'A', 'B', 'C', null, null],
  ),
];

// ---------------------------------------------------------------------------
// slice.js
// ---------------------------------------------------------------------------

const FIVE = [0, 1, 2, 3, 4];

const SLICE: Case[] = (
  [
    [
      [FIVE, 2],
      [0, 1],
    ],
    [
      [FIVE, dbl(2)],
      [0, 1],
    ],
    [
      [FIVE, -2],
      [3, 4],
    ],
    [[FIVE, 0], []],
    [
      [FIVE, 10],
      [0, 1, 2, 3, 4],
    ],
    [[null, -10], null],
    [[FIVE, null], null],
    [
      [FIVE, 1, 2],
      [1, 2],
    ],
    [
      [FIVE, -3, 2],
      [2, 3],
    ],
    [
      [FIVE, -10, 2],
      [0, 1],
    ],
    [[FIVE, 4, 3], [4]],
    [[FIVE, -1, null], null],
  ] as [unknown[], unknown][]
).map(([args, expected]) => of('slice.js', { $slice: args }, inDoc(expected)));

const SLICE_ERRORS: Failure[] = [
  failing('slice.js', { $slice: [[1, 2, 3], 4, 5, 6] }, 28667, 'Expression $slice takes at least 2 arguments'),
  failing('slice.js', { $slice: ['one', 2] }, 28724, 'First argument to $slice must be an array'),
  failing('slice.js', { $slice: [[1, 2], '2'] }, 28725, 'Second argument to $slice must be a numeric value'),
  ...[1.5, 2 ** 32, -(2 ** 31) - 1].map((n) =>
    failing('slice.js', { $slice: [[1, 2], n] }, 28726, "Second argument to $slice can't be represented as"),
  ),
  failing('slice.js', { $slice: [[1, 2], 0, '2'] }, 28727, 'Third argument to $slice must be numeric'),
  ...[1.5, 2 ** 32].map((n) =>
    failing('slice.js', { $slice: [[1, 2], 0, n] }, 28728, "Third argument to $slice can't be represented"),
  ),
  failing('slice.js', { $slice: [[1, 2], 0, 0] }, 28729, 'Third argument to $slice must be positive'),
];

// ---------------------------------------------------------------------------
// concat_arrays.js, concat_arrays2.js
// ---------------------------------------------------------------------------

const ca = storeDoc({
  int_arr: [1, 2, 3, 4],
  dbl_arr: [10.0, 20.1, 20.4, 50.5],
  nested_arr: [['an', 'array'], 'arr', [[], [[], 'a', 'b']]],
  str_arr: ['a', 'b', 'c'],
  obj_arr: [{ a: 1, b: 2 }, { c: 3 }, { d: 4, e: 5 }],
  null_arr: [null, null, null],
  one_null_arr: [null],
  one_str_arr: ['one'],
  empty_arr: [],
  null_val: null,
  str_val: 'a string',
  dbl_val: 2.0,
  int_val: 1,
  obj_val: { a: 1, b: 'two' },
});

const OBJ_ARR = [{ a: 1, b: 2 }, { c: 3 }, { d: 4, e: 5 }];

const CONCAT_ARRAYS: Case[] = (
  [
    [[ca('int_arr')], [1, 2, 3, 4]],
    [
      [[0], ca('int_arr'), [5, 6, 7]],
      [0, 1, 2, 3, 4, 5, 6, 7],
    ],
    [
      [ca('obj_arr'), ca('obj_arr'), ca('null_arr')],
      [...OBJ_ARR, ...OBJ_ARR, null, null, null],
    ],
    [
      [ca('int_arr'), ca('str_arr'), ca('nested_arr')],
      [1, 2, 3, 4, 'a', 'b', 'c', ['an', 'array'], 'arr', [[], [[], 'a', 'b']]],
    ],
    // Arrays containing null can be concatenated.
    [ca('one_null_arr'), [null]],
    [
      [ca('null_arr'), ca('one_null_arr'), ca('int_arr'), ca('null_arr')],
      [null, null, null, null, 1, 2, 3, 4, null, null, null],
    ],
    // Operands that are expressions.
    [
      [{ $concatArrays: ca('int_arr') }, { $concatArrays: { $concatArrays: ca('str_arr') } }],
      [1, 2, 3, 4, 'a', 'b', 'c'],
    ],
    [
      [
        ca('str_arr'),
        {
          $filter: {
            input: ca('int_arr'),
            as: 'num',
            cond: { $and: [{ $gte: ['$$num', 2] }, { $lte: ['$$num', 3] }] },
          },
        },
        ca('int_arr'),
      ],
      ['a', 'b', 'c', 2, 3, 1, 2, 3, 4],
    ],
    [
      [ca('str_arr'), { $filter: { input: [], cond: { $isArray: [{ $concatArrays: [[], '$$this'] }] } } }],
      ['a', 'b', 'c'],
    ],
    // No operands: the empty array.
    [[], []],
  ] as [unknown, unknown][]
).map(([operands, expected]) => of('concat_arrays.js', { $concatArrays: operands }, anyOrder(expected)));

// Any null or missing operand with valid ones gives null, also where null precedes a non-array.
CONCAT_ARRAYS.push(
  ...[
    [ca('int_arr'), ca('null_val')],
    [ca('int_arr'), null],
    [ca('int_arr'), '$not_a_field'],
    [{ $concatArrays: ca('int_arr') }, null, { $concatArrays: { $concatArrays: [ca('obj_arr'), ca('str_arr')] } }],
    [ca('int_arr'), ca('null_val'), ca('int_val')],
    [ca('null_val'), null, ca('null_val')],
  ].map((operands) => of('concat_arrays.js', { $concatArrays: operands }, null)),
);

const concatDocs = [
  { arr1: [42, 35.0, 197865432], arr2: ['albatross', 'abbacus', 'alien'] },
  { arr1: [1], arr2: ['albatross', 'abbacus', 'alien'] },
  { arr1: [1, 2, 3, 4, 5, 6, 11, 12, 23], arr2: [] },
  { arr1: [], arr2: ['foo', 'bar'] },
  { arr1: [], arr2: [] },
  { arr1: [1, 2, 3, 4, 5, 6, 11, 12, 23], arr2: null },
  { some_field: 'foo' },
].map((doc: Document) => storeDoc(doc));

CONCAT_ARRAYS.push(
  of(
    'concat_arrays.js',
    overDocs(concatDocs, (d) => ({ $concatArrays: [d('arr1'), d('arr2')] })),
    [
      [42, 35.0, 197865432, 'albatross', 'abbacus', 'alien'],
      [1, 'albatross', 'abbacus', 'alien'],
      [1, 2, 3, 4, 5, 6, 11, 12, 23],
      ['foo', 'bar'],
      [],
      null,
      null,
    ].map(anyOrder),
  ),
  of(
    'concat_arrays.js',
    overDocs(concatDocs, (d) => ({ $concatArrays: [d('arr1'), [1, 2, 3], d('arr2')] })),
    [
      [42, 35.0, 197865432, 1, 2, 3, 'albatross', 'abbacus', 'alien'],
      [1, 1, 2, 3, 'albatross', 'abbacus', 'alien'],
      [1, 2, 3, 4, 5, 6, 11, 12, 23, 1, 2, 3],
      ['foo', 1, 2, 3, 'bar'],
      [1, 2, 3],
      null,
      null,
    ].map(anyOrder),
  ),
);

const concat2 = storeDoc({ a: [1, 2], b: ['three'], c: [], d: [[3], 4], e: null, str: 'x' });

CONCAT_ARRAYS.push(
  of('concat_arrays2.js', { $concatArrays: [concat2('a'), concat2('b'), concat2('c')] }, inDoc([1, 2, 'three'])),
  of('concat_arrays2.js', { $concatArrays: [concat2('a'), concat2('d')] }, inDoc([1, 2, [3], 4])),
  of('concat_arrays2.js', { $concatArrays: [concat2('a')] }, inDoc([1, 2])),
  of('concat_arrays2.js', { $concatArrays: [concat2('a'), concat2('e')] }, null),
  of('concat_arrays2.js', { $concatArrays: [concat2('a'), concat2('f')] }, null),
);

const CONCAT_ARRAYS_ERRORS: Failure[] = (
  [
    [[ca('dbl_val')], 'double'],
    [['some_val', [1, 2, 3]], 'string'],
    [[ca('obj_val')], 'object'],
    [[ca('int_arr'), ca('int_val')], 'double'],
    [[ca('int_arr'), 32], 'double'],
  ] as [unknown[], string][]
).map(([operands, type]) =>
  failing('concat_arrays.js', { $concatArrays: operands }, 28664, `$concatArrays only supports arrays, not ${type}`),
);
CONCAT_ARRAYS_ERRORS.push(
  failing(
    'concat_arrays2.js',
    { $concatArrays: [concat2('a'), concat2('str')] },
    28664,
    '$concatArrays only supports arrays, not string',
  ),
);

// ---------------------------------------------------------------------------
// filter.js
// ---------------------------------------------------------------------------

// Its documents _id 0 to 6, without _id 5 ({a: undefined}).
const filterDocs = [
  { c: 1, d: 3, a: [1, 2, 3, 4, 5] },
  { c: 2, d: 4, a: [1, 2] },
  { c: 3, d: 5, a: [] },
  { c: 4, d: 6, a: [4] },
  { c: 5, d: 7, a: null },
  { c: 7, d: 9 },
].map((doc: Document) => storeDoc(doc));

/** `{$filter: {input: $a, cond: {$eq: ['$$this', n]}}}`, as filter.js nests it. */
const equalTo = (d: Fields, n: number) => ({ $filter: { input: d('a'), cond: { $eq: ['$$this', n] } } });

const FILTER: Case[] = [
  of(
    'filter.js',
    overDocs(filterDocs, (d) => ({ $filter: { input: d('a'), as: 'x', cond: { $gt: ['$$x', 2] } } })),
    inDoc([[3, 4, 5], [], [], [4], null, null]),
  ),
  of(
    'filter.js',
    overDocs(filterDocs, (d) => ({ $filter: { input: d('a'), cond: { $eq: [2, '$$this'] } } })),
    inDoc([[2], [2], [], [], null, null]),
  ),
  of(
    'filter.js',
    overDocs(filterDocs, (d) => ({
      $let: {
        vars: { value: d('d') },
        in: { $filter: { input: d('a'), cond: { $gte: [{ $add: [d('c'), '$$this'] }, '$$value'] } } },
      },
    })),
    inDoc([[2, 3, 4, 5], [2], [], [4], null, null]),
  ),
  of(
    'filter.js',
    overDocs(filterDocs, (d) => ({
      $filter: {
        input: d('a'),
        cond: { $or: [{ $and: [{ $gt: ['$$this', 1] }, { $lt: ['$$this', 3] }] }, { $eq: ['$$this', 5] }] },
      },
    })),
    inDoc([[2, 5], [2], [], [], null, null]),
  ),
  of(
    'filter.js',
    overDocs(filterDocs, (d) => ({
      $or: [
        {
          $and: [
            {
              $filter: {
                input: d('a'),
                cond: { $or: [{ $and: [{ $gt: ['$$this', 1] }, { $lt: ['$$this', 3] }] }, { $eq: ['$$this', 5] }] },
              },
            },
            d('d'),
          ],
        },
        equalTo(d, 1),
      ],
    })),
    [true, true, true, true, false, false],
  ),
  of(
    'filter.js',
    overDocs(filterDocs, (d) => ({ $cond: { if: equalTo(d, 1), then: equalTo(d, 2), else: equalTo(d, 3) } })),
    inDoc([[2], [2], [], [], null, null]),
  ),
];

// A non-boolean predicate (without the source's undefined element).
const filterNonBool = storeDoc({ a: [DATE, null, 0, false, decimal('1'), [], { c: 3 }] });
const filterDeep = storeDoc({
  a: [{ b: { c: { d: 1 } } }, { b: { c: { d: 2 } } }, { b: { c: { d: 3 } } }, { b: { c: { d: 4 } } }],
});
const filterNested = storeDoc({ a: [[1, 2, 3], null, [4, 5, 6]] });
const filterNegative = storeDoc({ a: [-1, -2, -3, -4] });

FILTER.push(
  of(
    'filter.js',
    { $filter: { input: filterNonBool('a'), as: 'x', cond: '$$x' } },
    inDoc([DATE, decimal('1'), [], { c: 3 }]),
  ),
  of(
    'filter.js',
    { $filter: { input: filterDeep('a'), cond: { $gt: ['$$this.b.c.d', 2] } } },
    inDoc([{ b: { c: { d: 3 } } }, { b: { c: { d: 4 } } }]),
  ),
  of(
    'filter.js',
    { $filter: { input: filterNested('a'), cond: { $filter: { input: '$$this', cond: { $gt: ['$$this', 3] } } } } },
    inDoc([
      [1, 2, 3],
      [4, 5, 6],
    ]),
  ),
  // $and and $or short-circuit an invalid $ln.
  of(
    'filter.js',
    { $filter: { input: filterNegative('a'), cond: { $and: [{ $gt: ['$$this', 0] }, { $ln: '$$this' }] } } },
    inDoc([]),
  ),
  of(
    'filter.js',
    { $filter: { input: filterNegative('a'), cond: { $or: [{ $lt: ['$$this', 0] }, { $ln: '$$this' }] } } },
    inDoc([-1, -2, -3, -4]),
  ),
);

const filterA = filterDocs[0]('a');
const filterString = storeDoc({ a: 'string' });

const FILTER_ERRORS: Failure[] = [
  failing('filter.js', { $filter: 'string' }, 28646, '$filter only supports an object as its argument'),
  failing(
    'filter.js',
    { $filter: { input: filterA, as: 'x', cond: true, extra: 1 } },
    28647,
    'Unrecognized parameter to $filter: extra',
  ),
  failing('filter.js', { $filter: { as: 'x', cond: true } }, 28648, "Missing 'input' parameter to $filter"),
  failing('filter.js', { $filter: { input: filterA, as: 'x' } }, 28650, "Missing 'cond' parameter to $filter"),
  failing(
    'filter.js',
    { $filter: { input: filterA, as: '$x', cond: true } },
    FAILED_TO_PARSE,
    "'$x' starts with an invalid character for a user variable name",
  ),
  failing(
    'filter.js',
    { $filter: { input: 'string', as: 'x', cond: true } },
    28651,
    'input to $filter must be an array not string',
  ),
  failing(
    'filter.js',
    { $filter: { input: filterA, cond: { $eq: [1, '$$var'] } } },
    17276,
    'Use of undefined variable: var',
  ),
  failing(
    'filter.js',
    { $filter: { input: filterString('a'), as: 'x', cond: true } },
    28651,
    'input to $filter must be an array not string',
  ),
];

// ---------------------------------------------------------------------------
// map.js
// ---------------------------------------------------------------------------

const mapDoc = storeDoc({
  simple: [1, 2, 3, 4],
  nested: [{ a: 1 }, { a: 2 }],
  mixed: [{ a: 1 }, {}, { a: 2 }, { a: null }],
  notArray: 1,
  null: null,
});

const MAP: Case[] = (
  [
    [{ input: mapDoc('simple'), as: 'var', in: { $add: [10, '$$var'] } }, [11, 12, 13, 14]],
    [{ input: mapDoc('simple'), in: '$$this' }, [1, 2, 3, 4]],
    [{ input: mapDoc('nested'), as: 'var', in: '$$var.a' }, [1, 2]],
    [{ input: mapDoc('nested'), as: 'CURRENT', in: '$a' }, [1, 2]],
    // A missing value becomes null.
    [{ input: mapDoc('mixed'), as: 'var', in: '$$var.a' }, [1, null, 2, null]],
    [{ input: mapDoc('null'), as: 'var', in: '$$var' }, null],
  ] as [unknown, unknown][]
).map(([args, expected]) => of('map.js', { $map: args }, inDoc(expected)));

const MAP_ERRORS: Failure[] = [
  failing(
    'map.js',
    { $map: { input: mapDoc('simple'), as: 'ROOT', in: '$$ROOT' } },
    FAILED_TO_PARSE,
    "'ROOT' starts with an invalid character for a user variable name",
  ),
  failing(
    'map.js',
    { $map: { input: mapDoc('notArray'), as: 'var', in: '$$var' } },
    16883,
    'input to $map must be an array not double',
  ),
  failing(
    'map.js',
    { $map: { x: 1, input: mapDoc('simple'), as: 'var', in: '$$var' } },
    16879,
    'Unrecognized parameter to $map: x',
  ),
  failing('map.js', { $map: { as: 'var', in: '$$var' } }, 16880, "Missing 'input' parameter to $map"),
  failing('map.js', { $map: { input: mapDoc('simple'), as: 'var' } }, 16882, "Missing 'in' parameter to $map"),
  failing('map.js', { $map: { input: mapDoc('simple'), in: '$$var' } }, 17276, 'Use of undefined variable: var'),
];

// ---------------------------------------------------------------------------
// reduce.js
// ---------------------------------------------------------------------------

const REDUCE: Case[] = (
  [
    [{ input: [1, 2, 3], initialValue: { $literal: 0 }, in: { $sum: ['$$this', '$$value'] } }, 6],
    [{ input: [], initialValue: { $literal: 0 }, in: 10 }, 0],
    [{ input: [1, 2, 3], initialValue: [], in: { $concatArrays: ['$$value', ['$$this']] } }, [1, 2, 3]],
    [{ input: [1, 2], initialValue: [], in: { $concatArrays: ['$$value', ['$$value.notAField']] } }, [[], []]],
    // A nested $reduce which sums each subarray, then multiplies the results.
    [
      {
        input: [
          [1, 2, 3],
          [4, 5],
        ],
        initialValue: 1,
        in: {
          $multiply: [
            '$$value',
            { $reduce: { input: '$$this', initialValue: 0, in: { $sum: ['$$value', '$$this'] } } },
          ],
        },
      },
      54,
    ],
    // A nested $reduce using a $let to reach the outer one's variables.
    [
      {
        input: [
          [0, 1],
          [2, 3],
        ],
        initialValue: { allElements: [], sumOfInner: { $literal: 0 } },
        in: {
          $let: {
            vars: { outerValue: '$$value', innerArray: '$$this' },
            in: {
              $reduce: {
                input: '$$innerArray',
                initialValue: '$$outerValue',
                in: {
                  allElements: { $concatArrays: ['$$value.allElements', ['$$this']] },
                  sumOfInner: { $sum: ['$$value.sumOfInner', '$$this'] },
                },
              },
            },
          },
        },
      },
      { allElements: [0, 1, 2, 3], sumOfInner: 6 },
    ],
    // Nullish input gives null.
    [{ input: null, initialValue: { $literal: 0 }, in: 5 }, null],
    [{ input: '$nonexistent', initialValue: { $literal: 0 }, in: 5 }, null],
  ] as [unknown, unknown][]
).map(([args, expected]) => of('reduce.js', { $reduce: args }, eq(expected)));

const REDUCE_ERRORS: Failure[] = [
  failing('reduce.js', { $reduce: 0 }, 40075, '$reduce requires an object as an argument'),
  failing(
    'reduce.js',
    {
      $reduce: {
        input: { $literal: 0 },
        initialValue: { $literal: 0 },
        in: { $literal: 0 },
        notAField: { $literal: 0 },
      },
    },
    40076,
    '$reduce found an unknown argument: notAField',
  ),
  failing(
    'reduce.js',
    { $reduce: { initialValue: { $literal: 0 }, in: { $literal: 0 } } },
    40077,
    "$reduce requires 'input' to be specified",
  ),
  failing(
    'reduce.js',
    { $reduce: { input: { $literal: 0 }, initialValue: { $literal: 0 } } },
    40079,
    "$reduce requires 'in' to be specified",
  ),
  failing(
    'reduce.js',
    { $reduce: { input: '$$value', initialValue: [], in: [] } },
    17276,
    'Use of undefined variable: value',
  ),
];

// ---------------------------------------------------------------------------
// zip.js
// ---------------------------------------------------------------------------

const zipDoc = storeDoc({ long: [1, 2, 3], short: ['x', 'y'] });

const ZIP: Case[] = (
  [
    [
      {
        inputs: [
          [1, 2, 3],
          ['A', 'B', 'C'],
        ],
      },
      [
        [1, 'A'],
        [2, 'B'],
        [3, 'C'],
      ],
    ],
    [{ inputs: [[1, 2, 3], null] }, null],
    [
      {
        inputs: [
          [1, 2, 3],
          ['A', 'B'],
        ],
      },
      [
        [1, 'A'],
        [2, 'B'],
      ],
    ],
    [
      {
        inputs: [
          ['A', 'B'],
          [1, 2, 3],
        ],
      },
      [
        ['A', 1],
        ['B', 2],
      ],
    ],
    [{ inputs: [[], []] }, []],
    [
      { inputs: [[zipDoc('short')], [zipDoc('long')]] },
      [
        [
          ['x', 'y'],
          [1, 2, 3],
        ],
      ],
    ],
    [
      { inputs: [zipDoc('short'), zipDoc('long')] },
      [
        ['x', 1],
        ['y', 2],
      ],
    ],
    [{ inputs: [[zipDoc('long')]] }, [[[1, 2, 3]]]],
    [
      {
        inputs: [
          [1, 2, 3],
          ['A', 'B'],
        ],
        defaults: ['C', 'D'],
        useLongestLength: true,
      },
      [
        [1, 'A'],
        [2, 'B'],
        [3, 'D'],
      ],
    ],
    [
      {
        inputs: [
          [1, 2, 3],
          ['A', 'B'],
        ],
        useLongestLength: true,
      },
      [
        [1, 'A'],
        [2, 'B'],
        [3, null],
      ],
    ],
  ] as [unknown, unknown][]
).map(([args, expected]) => of('zip.js', { $zip: args }, inDoc(expected)));

const ZIP_ERRORS: Failure[] = [
  failing('zip.js', { $zip: 3 }, 34460, '$zip only supports an object as an argument'),
  failing('zip.js', { $zip: { inputs: [] } }, 34465, '$zip requires at least one input array'),
  failing('zip.js', { $zip: { inputs: { a: 'b' } } }, 34461, 'inputs must be an array of expressions'),
  failing(
    'zip.js',
    { $zip: { inputs: ['$a'], defaults: ['A'] } },
    34466,
    'cannot specify defaults unless useLongestLength is true',
  ),
  failing(
    'zip.js',
    { $zip: { inputs: ['$a'], defaults: ['A', 'B'], useLongestLength: true } },
    34467,
    'defaults and inputs must have the same length',
  ),
  failing('zip.js', { $zip: { inputs: ['$a'], defaults: { a: 'b' } } }, 34462, 'defaults must be an array of'),
  failing(
    'zip.js',
    { $zip: { inputs: ['$a'], defaults: ['A'], useLongestLength: 1 } },
    34463,
    'useLongestLength must be a bool',
  ),
  failing(
    'zip.js',
    { $zip: { inputs: ['$a', '$b'], defaults: ['A'], notAField: 1 } },
    34464,
    '$zip found an unknown argument: notAField',
  ),
  failing('zip.js', { $zip: { inputs: ['A', 'B'] } }, 34468, '$zip found a non-array expression in input'),
];

// ---------------------------------------------------------------------------
// reverseArray.js
// ---------------------------------------------------------------------------

const reverseDoc = storeDoc({
  nullField: null,
  embedded: [
    [1, 2],
    [3, 4],
  ],
  singleElem: [1],
  normal: [1, 2, 3],
  num: 1,
  empty: [],
});

const REVERSE_ARRAY: Case[] = (
  [
    [{ $literal: [1, 2] }, [2, 1]],
    [{ $literal: [[1, 2]] }, [[1, 2]]],
    ['$notAField', null],
    [
      reverseDoc('embedded'),
      [
        [3, 4],
        [1, 2],
      ],
    ],
    [{ $literal: null }, null],
    [reverseDoc('nullField'), null],
    [reverseDoc('singleElem'), [1]],
    [reverseDoc('normal'), [3, 2, 1]],
    [reverseDoc('empty'), []],
  ] as [unknown, unknown][]
).map(([arg, expected]) => of('reverseArray.js', { $reverseArray: arg }, inDoc(expected)));

const REVERSE_ARRAY_ERRORS: Failure[] = [reverseDoc('num')].map((arg) =>
  failing(
    'reverseArray.js',
    { $reverseArray: arg },
    34435,
    'The argument to $reverseArray must be an array, but was of type: double',
  ),
);

// ---------------------------------------------------------------------------
// indexof_array.js, indexof_array_dup.js
// ---------------------------------------------------------------------------

const INDEX_OF_ARRAY: Case[] = (
  [
    [[[1, 2, 3], 2], 1],
    [[[1, 2, 3], 4], -1],
    [[[1, 2, 3, 2, 1], 2, 2], 3],
    [[[1, 2, 3, 4, 5], 4, 0, 3], -1],
    [[[1, 2, 3, 2, 1, 2, 3], 2, 2, 4], 3],
    [[null, 2], null],
    [[[1, 2, 3], 2, 3], -1],
    [[[], 1], -1],
  ] as [unknown[], unknown][]
).map(([args, expected]) => of('indexof_array.js', { $indexOfArray: args }, eq(expected)));

const dupNumber = storeDoc({ number: 222 })('number');

INDEX_OF_ARRAY.push(
  ...(
    [
      [[[111, 111, 222], dupNumber], 2],
      [[[111, 111, 222, 222, 333], dupNumber, 3, 5], 3],
    ] as [unknown[], unknown][]
  ).map(([args, expected]) => of('indexof_array_dup.js', { $indexOfArray: args }, inDoc(expected))),
);

const INDEX_OF_ARRAY_ERRORS: Failure[] = [
  // Today's mongod names 40090; a constant array is checked when the expression is optimized, where
  // an older one named 50809 (the SBE error-code override in the source maps one to the other).
  failing('indexof_array.js', { $indexOfArray: ['string', 's'] }, [40090, 50809], '$indexOfArray'),
  failing('indexof_array.js', { $indexOfArray: [[1, 2, 3], 2, 'bad'] }, 40096, 'requires an integral starting index'),
  failing('indexof_array.js', { $indexOfArray: [[1, 2, 3], 2, 0, 'bad'] }, 40096, 'requires an integral ending index'),
  failing('indexof_array.js', { $indexOfArray: [[1, 2, 3], 2, -1] }, 40097, 'requires a nonnegative starting index'),
];

// ---------------------------------------------------------------------------
// in.js
// ---------------------------------------------------------------------------

const IN: Case[] = (
  [
    [1, [1, 2, 3], true],
    ['A', ['a', 'A', 'a'], true],
    [{ a: 1 }, [{ a: 1 }], true],
    [[1, 2], [[1, 2]], true],
    [7, [7, 10, 7, 10, 2, 5, 3, 7], true],
    [8, [10, 7, 2, 5, 3], false],
    [1, [], false],
    // Unlike the query's $in, no regex matching and no matching into an array.
    ['abc', [/a/, /b/, /c/], false],
    [/a/, ['a', 'b', 'c'], false],
    [[], [1, 2, 3], false],
    [[1, 2], [1, 2, 3], false],
  ] as [unknown, unknown[], boolean][]
).map(([element, array, included]) => of('in.js', { $in: [stored(element), { $literal: array }] }, eq(included)));

const IN_ERRORS: Failure[] = [
  failing('in.js', { $in: [[1, 2], 1] }, 40081, '$in requires an array as a second argument, found: double'),
  failing('in.js', { $in: [1, null] }, 40081, '$in requires an array as a second argument, found: null'),
  failing('in.js', { $in: [1, '$notAField'] }, 40081, '$in requires an array as a second argument, found: missing'),
  ...[null, [1, 2, 3]].map((args) =>
    failing('in.js', { $in: args }, 16020, 'Expression $in takes exactly 2 arguments'),
  ),
];

// ---------------------------------------------------------------------------
// size.js, is_array.js
// ---------------------------------------------------------------------------

const sizeDocs = [[], [1], ['asdf', 'asdfasdf'], [1, 'asdf', 1234, 4.3, { key: 23 }], [3, [31, 31, 13, 13]]].map(
  (arr) => storeDoc({ arr }),
);

const isArrayDocs = [
  0,
  '0',
  new ObjectId('65f0a1b2c3d4e5f601234567'),
  long(0),
  { y: [] },
  null,
  NaN,
  [],
  [0],
  ['0'],
].map((x) => storeDoc({ x }));

const SIZE_IS_ARRAY: Case[] = [
  of(
    'size.js',
    overDocs(sizeDocs, (d) => ({ $size: d('arr') })),
    inDoc([0, 1, 2, 5, 2]),
  ),
  of(
    'is_array.js',
    overDocs(isArrayDocs, (d) => ({ $isArray: d('x') })),
    [false, false, false, false, false, false, false, true, true, true],
  ),
];

const SIZE_ERRORS: Failure[] = [
  failing(
    'size.js',
    { $size: storeDoc({ arr: 231 })('arr') },
    17124,
    'The argument to $size must be an array, but was of type: double',
  ),
];

// ---------------------------------------------------------------------------
// range.js
// ---------------------------------------------------------------------------

const rangeDocs = [42, 88, 218, 383].map((distance) => storeDoc({ distance: int(distance) }));
const rangeShortDocs = [5, 8, 2, 1].map((distance) => storeDoc({ distance: int(distance) }));
const distance100 = storeDoc({ distance: int(100) })('distance');

const POSITIVE_STOPS = [
  [0, 25],
  [0, 25, 50, 75],
  [0, 25, 50, 75, 100, 125, 150, 175, 200],
  [0, 25, 50, 75, 100, 125, 150, 175, 200, 225, 250, 275, 300, 325, 350, 375],
];
const NO_STOPS = [[], [], [], []];

const RANGE: Case[] = [
  of(
    'range.js',
    overDocs(rangeDocs, (d) => ({ $range: [int(0), d('distance'), int(25)] })),
    POSITIVE_STOPS.map(anyOrder),
  ),
  of(
    'range.js',
    overDocs(rangeDocs, (d) => ({ $range: [int(0), { $multiply: [d('distance'), -1] }, int(-25)] })),
    [
      [0, -25],
      [0, -25, -50, -75],
      [0, -25, -50, -75, -100, -125, -150, -175, -200],
      [0, -25, -50, -75, -100, -125, -150, -175, -200, -225, -250, -275, -300, -325, -350, -375],
    ].map(anyOrder),
  ),
  of(
    'range.js',
    overDocs(rangeDocs, (d) => ({ $range: [int(0), { $multiply: [d('distance'), -1] }, int(25)] })),
    NO_STOPS.map(anyOrder),
  ),
  of(
    'range.js',
    overDocs(rangeDocs, (d) => ({ $range: [d('distance'), d('distance'), int(25)] })),
    NO_STOPS.map(anyOrder),
  ),
  // The default step.
  of(
    'range.js',
    overDocs(rangeShortDocs, (d) => ({ $range: [int(0), d('distance')] })),
    [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5, 6, 7], [0, 1], [0]].map(anyOrder),
  ),
  of(
    'range.js',
    overDocs(rangeShortDocs, (d) => ({ $range: [int(0), { $multiply: [d('distance'), int(-1)] }] })),
    NO_STOPS.map(anyOrder),
  ),
  // The int32 sum overflowing past the end is not a stop.
  of('range.js', { $range: [distance100, int(2147483647), int(1073741824)] }, anyOrder([100, 1073741924])),
  // Decimals an Int32 can represent.
  of('range.js', { $range: [distance100, decimal('201.0'), decimal('100.0')] }, anyOrder([100, 200])),
  of('range.js', { $range: [0, 1073741924, -1] }, anyOrder([])),
];

const RANGE_ERRORS: Failure[] = [
  failing(
    'range.js',
    { $range: [long('12147483647'), distance100] },
    34444,
    '$range requires a starting value that can be represented as a 32-bit integer',
  ),
  failing(
    'range.js',
    { $range: ['String is not a number', distance100] },
    34443,
    '$range requires a numeric starting value',
  ),
  failing(
    'range.js',
    { $range: [distance100, decimal('0.35')] },
    34446,
    '$range requires an ending value that can be represented as a 32-bit integer',
  ),
  failing('range.js', { $range: [distance100, null] }, 34445, '$range requires a numeric ending value'),
  failing(
    'range.js',
    { $range: [distance100, int(100), decimal('0.35')] },
    34448,
    '$range requires a step value that can be represented as a 32-bit integer',
  ),
  failing(
    'range.js',
    { $range: [distance100, int(100), 'String is not a number'] },
    34447,
    '$range requires a numeric step value',
  ),
  failing('range.js', { $range: [0, distance100, 0] }, 34449, '$range requires a non-zero step value'),
  failing('range.js', { $range: [0, 1073741924] }, EXCEEDED_MEMORY_LIMIT, ''),
];

// ---------------------------------------------------------------------------
// arrayToObject.js
// ---------------------------------------------------------------------------

const ARRAY_TO_OBJECT: Case[] = (
  [
    [
      [
        ['price', 24],
        ['item', 'apple'],
      ],
      { price: 24, item: 'apple' },
    ],
    [
      [
        { k: 'price', v: 24 },
        { k: 'item', v: 'apple' },
      ],
      { price: 24, item: 'apple' },
    ],
    // With a duplicate field name, the last value.
    [
      [
        { k: 'price', v: 24 },
        { k: 'price', v: 100 },
      ],
      { price: 100 },
    ],
    [
      [
        ['price', 24],
        ['price', 100],
      ],
      { price: 100 },
    ],
    [[], {}],
    [null, null],
  ] as [unknown, unknown][]
).map(([expanded, expected]) => of('arrayToObject.js', { $arrayToObject: { $const: expanded } }, inDoc(expected)));
ARRAY_TO_OBJECT.push(of('arrayToObject.js', { $arrayToObject: '$expanded' }, null));

const ARRAY_TO_OBJECT_ERRORS: Failure[] = (
  [
    [[{ k: 'price', v: 24 }, ['item', 'apple']], 40391, '$arrayToObject requires a consistent input format'],
    [[['item', 'apple'], { k: 'price', v: 24 }], 40396, '$arrayToObject requires a consistent input format'],
    ['string', 40386, '$arrayToObject requires an array input, found: string'],
    [long(0), 40386, '$arrayToObject requires an array input, found: long'],
    [[0], 40398, 'Unrecognised input type format for $arrayToObject: double'],
    [[['missing_value']], 40397, '$arrayToObject requires an array of size 2 arrays'],
    [[[321, 12]], 40395, '$arrayToObject requires an array of key-value pairs, where the key must be of type string'],
    [[{ y: 'x', x: 'y' }], 40393, "$arrayToObject requires an object with keys 'k' and 'v'"],
    [[{ k: 'missing' }], 40392, '$arrayToObject requires an object'],
    [[{ k: 24, v: 'string' }], 40394, "the value of 'k' must be of type string"],
  ] as [unknown, number, string][]
).map(([expanded, code, message]) =>
  failing('arrayToObject.js', { $arrayToObject: { $const: expanded } }, code, message),
);
// A key with a null byte, as the root of $replaceWith.
ARRAY_TO_OBJECT_ERRORS.push(
  failing(
    'arrayToObject.js',
    { $arrayToObject: { $literal: [['a\0b', 'abra cadabra']] } },
    4940400,
    '',
    '$replaceWith',
  ),
  failing(
    'arrayToObject.js',
    { $arrayToObject: { $literal: [{ k: 'a\0b', v: 'blah' }] } },
    4940401,
    '',
    '$replaceWith',
  ),
);

// ---------------------------------------------------------------------------
// objectToArray.js
// ---------------------------------------------------------------------------

/** objectToArray.js's `$subDoc`, named by its value. */
const subDoc = (value: unknown) => stored(value);

const OBJECT_TO_ARRAY: Case[] = (
  [
    [
      { a: 1, b: 2, c: 'foo' },
      [
        { k: 'a', v: 1 },
        { k: 'b', v: 2 },
        { k: 'c', v: 'foo' },
      ],
    ],
    [{ y: [] }, [{ k: 'y', v: [] }]],
    [
      { a: 1, b: { d: 'string' }, c: [1, 2] },
      [
        { k: 'a', v: 1 },
        { k: 'b', v: { d: 'string' } },
        { k: 'c', v: [1, 2] },
      ],
    ],
    [{}, []],
    // Null and missing give null.
    [null, null],
  ] as [unknown, unknown][]
).map(([value, expected]) => of('objectToArray.js', { $objectToArray: subDoc(value) }, inDoc(expected)));
OBJECT_TO_ARRAY.push(
  of('objectToArray.js', { $objectToArray: storeDoc({})('subDoc') }, null),
  of(
    'objectToArray.js',
    { $objectToArray: { dayOfWeek: { $dayOfWeek: storeDoc({ date: new Date('2017-01-24T00:00:00Z') })('date') } } },
    inDoc([{ k: 'dayOfWeek', v: 3 }]),
  ),
);

const OBJECT_TO_ARRAY_ERRORS: Failure[] = (
  [
    ['string', 'string'],
    [long(0), 'long'],
    [[], 'array'],
    [[{ a: 'b' }], 'array'],
    [NaN, 'double'],
  ] as [unknown, string][]
).map(([value, type]) =>
  failing(
    'objectToArray.js',
    { $objectToArray: subDoc(value) },
    40390,
    `$objectToArray requires a document input, found: ${type}`,
  ),
);

// ---------------------------------------------------------------------------
// sortArray.js
// ---------------------------------------------------------------------------

const sortDoc = storeDoc({
  nullField: null,
  embedded: [
    [1, 2],
    [3, 4],
  ],
  singleElem: [1],
  normal: [1, 2, 3],
  num: 1,
  empty: [],
  normalSingleObjs: [{ a: 1 }, { a: 2 }, { a: 3 }],
  mismatchedSingleObjs: [{ a: 1 }, { b: 2 }, { c: 3 }],
  normalMultiObjs: [
    { a: 1, b: 3, c: 1 },
    { a: 2, b: 2, c: 2 },
    { a: 3, b: 1, c: 3 },
  ],
  tiesMultiObjs: [
    { a: 1, b: 2, c: 1 },
    { a: 1, b: 3, c: 4 },
    { a: 1, b: 3, c: 5 },
  ],
  nestedObjs: [
    { a: 1, b: { c: 2 } },
    { a: 1, b: { c: 1 } },
  ],
  mismatchedTypes: [1, [1], { a: 1 }, '1'],
  moreMismatchedTypes: [2, 1, 'hello', { a: 6 }, { a: 'hello' }, { a: -1 }, null],
  mismatchedNumberTypes: [[decimal('4.00000000000000')], [1, 9, 8]],
  collatorTestField: ['2', '10'],
  collatorObjectTestField: [{ a: '2' }, { a: '10' }],
});

const NUMERIC_ORDERING: AggregateOptions = { collation: { locale: 'en', numericOrdering: true } };

const SORT_ARRAY: Case[] = (
  [
    [{ $literal: [1, 2, 3] }, 1, [1, 2, 3]],
    [sortDoc('normal'), -1, [3, 2, 1]],
    ['$notAField', 1, null],
    [
      sortDoc('embedded'),
      -1,
      [
        [3, 4],
        [1, 2],
      ],
    ],
    [sortDoc('nullField'), -1, null],
    [sortDoc('empty'), -1, []],
    // SERVER-61941.
    [{ $literal: [{}, [], []] }, -1, [[], [], {}]],
    [sortDoc('normalSingleObjs'), { a: -1 }, [{ a: 3 }, { a: 2 }, { a: 1 }]],
    [sortDoc('mismatchedSingleObjs'), 1, [{ a: 1 }, { b: 2 }, { c: 3 }]],
    [sortDoc('mismatchedSingleObjs'), { a: 1 }, [{ b: 2 }, { c: 3 }, { a: 1 }]],
    [
      sortDoc('normalMultiObjs'),
      { b: 1, a: 1 },
      [
        { a: 3, b: 1, c: 3 },
        { a: 2, b: 2, c: 2 },
        { a: 1, b: 3, c: 1 },
      ],
    ],
    [
      sortDoc('tiesMultiObjs'),
      { a: 1, b: 1, c: -1 },
      [
        { a: 1, b: 2, c: 1 },
        { a: 1, b: 3, c: 5 },
        { a: 1, b: 3, c: 4 },
      ],
    ],
    [
      sortDoc('nestedObjs'),
      { 'b.c': -1 },
      [
        { a: 1, b: { c: 2 } },
        { a: 1, b: { c: 1 } },
      ],
    ],
    [sortDoc('mismatchedTypes'), 1, [1, '1', { a: 1 }, [1]]],
    [sortDoc('moreMismatchedTypes'), 1, [null, 1, 2, 'hello', { a: -1 }, { a: 6 }, { a: 'hello' }]],
    [sortDoc('mismatchedNumberTypes'), 1, [[1, 9, 8], [decimal('4.00000000000000')]]],
    [sortDoc('collatorTestField'), 1, ['10', '2']],
    [sortDoc('collatorObjectTestField'), { a: 1 }, [{ a: '10' }, { a: '2' }]],
  ] as [unknown, unknown, unknown][]
).map(([input, sortBy, expected]) => of('sortArray.js', { $sortArray: { input, sortBy } }, inDoc(expected)));
SORT_ARRAY.push(
  of(
    'sortArray.js',
    { $sortArray: { input: sortDoc('collatorTestField'), sortBy: 1 } },
    inDoc(['2', '10']),
    NUMERIC_ORDERING,
  ),
  of(
    'sortArray.js',
    { $sortArray: { input: sortDoc('collatorObjectTestField'), sortBy: 1 } },
    inDoc([{ a: '2' }, { a: '10' }]),
    NUMERIC_ORDERING,
  ),
  of(
    'sortArray.js',
    { $sortArray: { input: sortDoc('collatorObjectTestField'), sortBy: { a: 1 } } },
    inDoc([{ a: '2' }, { a: '10' }]),
    NUMERIC_ORDERING,
  ),
);

const SORT_ARRAY_ERRORS: Failure[] = [1, sortDoc('num'), '$notAField'].map((arg) =>
  failing('sortArray.js', { $sortArray: arg }, 2942500, ''),
);

// ---------------------------------------------------------------------------
// n_expressions.js
// ---------------------------------------------------------------------------

const nDoc = storeDoc({ a: [1, 2, 3, 5, 7, 9], n: 4, diff: 2 });

const N_EXPRESSIONS: Case[] = (
  [
    [{ n: 3, input: [5, 4, 3, 2, 1] }, [1, 2, 3], [5, 4, 3], [5, 4, 3], [3, 2, 1]],
    [{ n: 3, input: [null, 2, null, 1] }, [1, 2], [2, 1], [null, 2, null], [2, null, 1]],
    [{ n: nDoc('n'), input: nDoc('a') }, [1, 2, 3, 5], [9, 7, 5, 3], [1, 2, 3, 5], [3, 5, 7, 9]],
    [{ n: { $subtract: [nDoc('n'), nDoc('diff')] }, input: [3, 4, 5] }, [3, 4], [5, 4], [3, 4], [4, 5]],
  ] as [unknown, unknown, unknown, unknown, unknown][]
).flatMap(([args, minN, maxN, firstN, lastN]) =>
  (
    [
      ['$minN', minN],
      ['$maxN', maxN],
      ['$firstN', firstN],
      ['$lastN', lastN],
    ] as [string, unknown][]
  ).map(([operator, expected]) => of('n_expressions.js', { [operator]: args }, eq(expected))),
);

// ---------------------------------------------------------------------------
// set.js
// ---------------------------------------------------------------------------

const setDocs = [
  { arr1: [1, 2, 3], arr2: [2, 3, 4] },
  { arr1: [1, 2, 3], arr2: [4, 5, 6] },
  { arr1: [1, 2, 3], arr2: [] },
  { arr1: [], arr2: [4, 5, 6] },
  { arr1: [1, 2, 3], arr2: [2, 3] },
  { arr1: [2, 3], arr2: [2, 3, 4] },
  { arr1: [1, 2, 3], arr2: [1, 2, 3] },
  { arr1: [1, 2, 3], arr2: [1, 1, 2, 2, 3, 3] },
].map((doc: Document) => storeDoc(doc));

/** A set expression over each of set.js's documents. */
const overSetDocs = (operator: string, operands: (d: Fields) => unknown[]) =>
  overDocs(setDocs, (d) => ({ [operator]: operands(d) }));

const SETS: Case[] = (
  [
    [
      '$setUnion',
      (d) => [d('arr1'), d('arr2')],
      [
        [1, 2, 3, 4],
        [1, 2, 3, 4, 5, 6],
        [1, 2, 3],
        [4, 5, 6],
        [1, 2, 3],
        [2, 3, 4],
        [1, 2, 3],
        [1, 2, 3],
      ],
    ],
    [
      '$setUnion',
      (d) => [d('arr1'), [3, 900, 3]],
      [
        [1, 2, 3, 900],
        [1, 2, 3, 900],
        [1, 2, 3, 900],
        [3, 900],
        [1, 2, 3, 900],
        [2, 3, 900],
        [1, 2, 3, 900],
        [1, 2, 3, 900],
      ],
    ],
    ['$setIntersection', (d) => [d('arr1'), d('arr2')], [[2, 3], [], [], [], [2, 3], [2, 3], [1, 2, 3], [1, 2, 3]]],
    [
      '$setIntersection',
      (d) => [d('arr1'), [1, 2, 1, 890, 'long constant string']],
      [[1, 2], [1, 2], [1, 2], [], [1, 2], [2], [1, 2], [1, 2]],
    ],
    ['$setDifference', (d) => [d('arr1'), d('arr2')], [[1], [1, 2, 3], [1, 2, 3], [], [1], [], [], []]],
    ['$setDifference', (d) => [d('arr2'), d('arr1')], [[4], [4, 5, 6], [], [4, 5, 6], [], [4], [], []]],
    ['$setDifference', (d) => [[3, 780], d('arr2')], [[780], [3, 780], [3, 780], [3, 780], [780], [780], [780], [780]]],
  ] as [string, (d: Fields) => unknown[], unknown[]][]
).map(([operator, operands, expected]) => of('set.js', overSetDocs(operator, operands), expected.map(asSet)));

SETS.push(
  ...(
    [
      ['$setEquals', (d) => [d('arr1'), d('arr2')], [false, false, false, false, false, false, true, true]],
      ['$setEquals', (d) => [d('arr1'), [1, 2, 3, 2, 1]], [true, true, true, false, true, false, true, true]],
      ['$setIsSubset', (d) => [d('arr1'), d('arr2')], [false, false, false, true, false, true, true, true]],
      [
        '$setIsSubset',
        (d) => [d('arr1'), [2, 3, 4, 'long constant string']],
        [false, false, false, true, false, true, false, false],
      ],
    ] as [string, (d: Fields) => unknown[], boolean[]][]
  ).map(([operator, operands, expected]) => of('set.js', overSetDocs(operator, operands), expected)),
  // No sets: the empty set.
  of('set.js', { $setUnion: [] }, eq([])),
  of('set.js', { $setIntersection: [] }, eq([])),
);

// Null or missing operands give null for $setUnion, $setIntersection and $setDifference.
const SET_NULL_DOCS: Document[] = [
  { arr1: null, arr2: [1, 2, 3] },
  { arr1: [1, 2, 3], arr2: null },
  { arr1: null, arr2: null },
  { arr2: [1, 2, 3] },
  { arr1: [1, 2, 3] },
];
const setNullDocs = SET_NULL_DOCS.map((doc) => storeDoc(doc));

SETS.push(
  ...['$setUnion', '$setIntersection', '$setDifference'].map((operator) =>
    of(
      'set.js',
      overDocs(setNullDocs, (d) => ({ [operator]: [d('arr1'), d('arr2')] })),
      [null, null, null, null, null],
    ),
  ),
);

const SET_BAD_DOCS: Document[] = [
  { arr1: '123', arr2: [1, 2, 3] },
  { arr1: [1, 2, 3], arr2: '123' },
  { arr1: '123', arr2: '123' },
];
const setBadDocs = SET_BAD_DOCS.map((doc) => storeDoc(doc));

/** set.js's `{[operator]: ['$arr1', '$arr2']}` on its document `raw[i]`, stored as `docs[i]`. */
const setFailure = (
  raw: Document[],
  docs: Fields[],
  i: number,
  operator: string,
  codes: number | number[],
  message: string,
): Failure =>
  failing(`set.js, on ${shell(raw[i])}`, { [operator]: [docs[i]('arr1'), docs[i]('arr2')] }, codes, message);

const SET_ERRORS: Failure[] = [
  setFailure(SET_BAD_DOCS, setBadDocs, 0, '$setUnion', 17043, 'All operands of $setUnion must be arrays'),
  setFailure(SET_BAD_DOCS, setBadDocs, 1, '$setIntersection', 17047, 'All operands of $setIntersection must be arrays'),
  ...[0, 1].map((i) =>
    setFailure(
      SET_BAD_DOCS,
      setBadDocs,
      i,
      '$setDifference',
      [17048, 17049],
      'both operands of $setDifference must be arrays',
    ),
  ),
  setFailure(SET_BAD_DOCS, setBadDocs, 2, '$setEquals', [17044, 7158100], '$setEquals'),
  ...[0, 1].map((i) =>
    setFailure(
      SET_BAD_DOCS,
      setBadDocs,
      i,
      '$setIsSubset',
      [17042, 17046],
      'both operands of $setIsSubset must be arrays',
    ),
  ),
  // $setEquals and $setIsSubset refuse null and missing operands.
  ...[0, 3].map((i) =>
    setFailure(SET_NULL_DOCS, setNullDocs, i, '$setEquals', 17044, 'All operands of $setEquals must be arrays'),
  ),
  ...[1, 4].map((i) =>
    setFailure(
      SET_NULL_DOCS,
      setNullDocs,
      i,
      '$setIsSubset',
      [17042, 17046],
      'both operands of $setIsSubset must be arrays',
    ),
  ),
];

// ---------------------------------------------------------------------------
// all_elements_true.js, any_element_true.js
// ---------------------------------------------------------------------------

const allDoc = storeDoc({ allTrue: [true, true], someTrue: [true, false], noneTrue: [0, false] });

const ALL_ELEMENTS_TRUE: Case[] = (
  [
    [{ $literal: [true, true] }, true],
    [{ $literal: [true, 0] }, false],
    [{ $literal: [true, 1, false] }, false],
    [allDoc('allTrue'), true],
    [allDoc('someTrue'), false],
    [allDoc('noneTrue'), false],
  ] as [unknown, boolean][]
).map(([arg, expected]) => of('all_elements_true.js', { $allElementsTrue: arg }, expected));

// Without the source's undefinedInput and undefinedTrue.
const anyDoc = storeDoc({
  allTrue: [true, true],
  someTrue: [true, false],
  noneTrue: [0, false],
  nonArray: 1,
  nullInput: [null],
  nullTrue: [null, true],
  empty: [],
});

const ANY_ELEMENT_TRUE: Case[] = (
  [
    [{ $literal: [true, true] }, true],
    [{ $literal: [false, 0, false] }, false],
    [anyDoc('allTrue'), true],
    [anyDoc('noneTrue'), false],
    [[anyDoc('noneTrue')], false],
    [[['$non_existent_field']], false],
    [[['$non_existent_field', true]], true],
    [anyDoc('nullInput'), false],
    [anyDoc('nullTrue'), true],
    [anyDoc('empty'), false],
  ] as [unknown, boolean][]
).map(([arg, expected]) => of('any_element_true.js', { $anyElementTrue: arg }, expected));

// The source expects 5159200 (SBE's code) through jstests/libs/sbe_assert_error_override.js, which
// takes it as one of [17041, 5159200, 7158300]: the classic engine's 17041 is what MongoDB 7 names.
const ANY_ELEMENT_TRUE_ERRORS: Failure[] = [anyDoc('nonArray'), ['$non_existent_field']].map((arg) =>
  failing('any_element_true.js', { $anyElementTrue: arg }, [17041, 5159200], ''),
);

// ---------------------------------------------------------------------------

describe("array and set expressions, as mongod's jstests have them", () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('array_expressions');
    await inputs.insert(c);
  });

  /** The expression's result with its BSON type, or `missing`; for a {@link PerDoc}, the list of its results. */
  async function value(expr: unknown, options: AggregateOptions = {}): Promise<unknown> {
    const exprs = expr instanceof PerDoc ? expr.exprs : [expr];
    const fields = Object.fromEntries(exprs.map((e, i) => [`v${i}`, shellValue(e)]));
    const [doc] = await c
      .aggregate([{ $project: { _id: 0, ...fields } }], { ...options, promoteValues: false, promoteLongs: false })
      .toArray();
    const results = exprs.map((_, i) => (doc && `v${i}` in doc ? bsonText(doc[`v${i}`]) : 'missing'));
    return expr instanceof PerDoc ? results : results[0];
  }

  /** The code and message the expression fails with, or what it answered. */
  async function failure(expr: unknown, stage?: '$replaceWith'): Promise<{ code: unknown; message: unknown }> {
    const pipeline = stage ? [{ [stage]: shellValue(expr) }] : [{ $project: { _id: 0, v: shellValue(expr) } }];
    return pipelineFailure(c, pipeline);
  }

  async function computes(_label: string, expr: unknown, expected: unknown, options?: AggregateOptions): Promise<void> {
    const [actual, wanted] = arrange(await value(expr, options), expected);
    expect(actual).toEqual(wanted);
    // toEqual takes a document's fields in any order; tojson does not.
    expect(shape(actual)).toBe(shape(wanted));
  }

  async function refuses(
    _label: string,
    expr: unknown,
    codes: number | number[],
    message: string,
    stage?: '$replaceWith',
  ): Promise<void> {
    expect(await failure(expr, stage)).toEqual({ code: oneOf(codes), message: expect.stringContaining(message) });
  }

  describe('$arrayElemAt', () => {
    it.each(ARRAY_ELEM_AT)('computes %s', computes);
    it.each(ARRAY_ELEM_AT_ERRORS)('refuses %s', refuses);
  });

  describe('$first and $last', () => {
    it.each(FIRST_LAST)('computes %s', computes);
  });

  describe('$slice', () => {
    it.each(SLICE)('computes %s', computes);
    it.each(SLICE_ERRORS)('refuses %s', refuses);
  });

  describe('$concatArrays', () => {
    it.each(CONCAT_ARRAYS)('computes %s', computes);
    it.each(CONCAT_ARRAYS_ERRORS)('refuses %s', refuses);
  });

  describe('$filter', () => {
    it.each(FILTER)('computes %s', computes);
    it.each(FILTER_ERRORS)('refuses %s', refuses);
  });

  describe('$map', () => {
    it.each(MAP)('computes %s', computes);
    it.each(MAP_ERRORS)('refuses %s', refuses);
  });

  describe('$reduce', () => {
    it.each(REDUCE)('computes %s', computes);
    it.each(REDUCE_ERRORS)('refuses %s', refuses);
  });

  describe('$zip', () => {
    it.each(ZIP)('computes %s', computes);
    it.each(ZIP_ERRORS)('refuses %s', refuses);
  });

  describe('$reverseArray', () => {
    it.each(REVERSE_ARRAY)('computes %s', computes);
    it.each(REVERSE_ARRAY_ERRORS)('refuses %s', refuses);
  });

  describe('$indexOfArray', () => {
    it.each(INDEX_OF_ARRAY)('computes %s', computes);
    it.each(INDEX_OF_ARRAY_ERRORS)('refuses %s', refuses);
  });

  describe('$in', () => {
    it.each(IN)('computes %s', computes);
    it.each(IN_ERRORS)('refuses %s', refuses);
  });

  describe('$size and $isArray', () => {
    it.each(SIZE_IS_ARRAY)('computes %s', computes);
    it.each(SIZE_ERRORS)('refuses %s', refuses);
  });

  describe('$range', () => {
    it.each(RANGE)('computes %s', computes);
    it.each(RANGE_ERRORS)('refuses %s', refuses);
  });

  describe('$arrayToObject', () => {
    it.each(ARRAY_TO_OBJECT)('computes %s', computes);
    it.each(ARRAY_TO_OBJECT_ERRORS)('refuses %s', refuses);
  });

  describe('$objectToArray', () => {
    it.each(OBJECT_TO_ARRAY)('computes %s', computes);
    it.each(OBJECT_TO_ARRAY_ERRORS)('refuses %s', refuses);
  });

  describe('$sortArray', () => {
    it.each(SORT_ARRAY)('computes %s', computes);
    it.each(SORT_ARRAY_ERRORS)('refuses %s', refuses);
  });

  describe('$minN, $maxN, $firstN and $lastN', () => {
    it.each(N_EXPRESSIONS)('computes %s', computes);
  });

  describe('the set expressions', () => {
    it.each(SETS)('computes %s', computes);
    it.each(SET_ERRORS)('refuses %s', refuses);
  });

  describe('$allElementsTrue and $anyElementTrue', () => {
    it.each([...ALL_ELEMENTS_TRUE, ...ANY_ELEMENT_TRUE])('computes %s', computes);
    it.each(ANY_ELEMENT_TRUE_ERRORS)('refuses %s', refuses);
  });
});
