/**
 * Conformance: the string expressions (`$concat`, `$substr`, `$substrBytes`,
 * `$substrCP`, `$strLenBytes`, `$strLenCP`, `$toUpper`, `$toLower`,
 * `$strcasecmp`, `$split`, `$trim`, `$ltrim`, `$rtrim`, `$indexOfBytes`,
 * `$indexOfCP`, `$replaceOne`, `$replaceAll`), ported from mongod's own
 * jstests: jstests/aggregation/expressions/concat.js, split.js, trim.js,
 * replace_one.js, replace_all.js (its string cases: the regex `find` and
 * codes 1050390x are MongoDB 8.3's), indexof_bytes.js, indexof_codepoints.js,
 * strcasecmp.js, upperlower.js, strlen.js; jstests/aggregation/bugs/substr.js
 * ($substrBytes), server6186.js, server6195.js ($concat), server22580.js and
 * its successor ($substrCP). The cases and their answers are mongod's; a
 * representative part of the larger files is taken. Error messages are
 * checked by fragments of mongod's expression.cpp.
 *
 * Operands keep the sources' BSON types: the shell's bare numbers are
 * doubles, `NumberInt` an int32, `NumberLong` an int64, `NumberDecimal` a
 * Decimal128. Where a source stores its operands in a document they are
 * stored here too (through {@link StoredInputs}); constants stay constants.
 * Results are read with their BSON types (`int 1`, strings as they are,
 * `missing`). Where a source accepts the slot-based engine's code beside the
 * classic one (jstests/libs/sbe_assert_error_override.js), both are
 * accepted: MongoDB 7 runs `$project` in the classic engine. Left out: the
 * sources' `undefined` values (the driver cannot send one), `function`,
 * `MinKey`/`MaxKey` operands, and substr.js's "exceptions", which run
 * `$substrBytes` as a stage and so fail whatever the arguments.
 */
import { type Collection, Decimal128, type Document, Double, Int32, Long, ObjectId, Timestamp, Binary } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';
import { shellText } from './jstest-labels.fixture.js';
import { bsonText, isPlainDocument, pipelineFailure } from './raw-replies.fixture.js';
import { StoredInputs } from './stored-inputs.fixture.js';

const fx = useDriverFixture();

const int = (n: number) => new Int32(n);
const long = (text: string) => Long.fromString(text);
const decimal = (text: string) => Decimal128.fromString(text);

/** `value` as the shell sends it: its bare numbers are doubles. */
function shellValue(value: unknown): unknown {
  if (typeof value === 'number') return new Double(value);
  if (Array.isArray(value)) return value.map(shellValue);
  if (isPlainDocument(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shellValue(v)]));
  return value;
}

/** The suite's stored inputs, as the fields of its one document. */
const inputs = new StoredInputs();
const labels = new Map<string, string>();

/** A value as the shell writes it, for the test names. */
const shell = (value: unknown): string => shellText(value, labels);

/** Stores the fields of one of a source's documents; `d('x')` is the path of field `x` (absent ones: a missing path). */
function storeDoc(fields: Document): (name: string) => string {
  const paths = new Map(
    Object.entries(fields).map(([name, value]) => {
      const path = inputs.store(shellValue(value));
      labels.set(path, `$${name}`);
      return [name, path];
    }),
  );
  return (name) => {
    const path = paths.get(name) ?? `$absent_${name}`;
    labels.set(path, `$${name}`);
    return path;
  };
}

type Case = [label: string, expr: unknown, expected: unknown];
type Failure = [label: string, expr: unknown, codes: number[], message: string];

const of = (source: string, expr: unknown, expected: unknown): Case => [`${shell(expr)} (${source})`, expr, expected];
const failing = (source: string, expr: unknown, codes: number | number[], message: string): Failure => [
  `${shell(expr)} (${source})`,
  expr,
  Array.isArray(codes) ? codes : [codes],
  message,
];

// ---------------------------------------------------------------------------
// concat.js, server6195.js
// ---------------------------------------------------------------------------

const concatDoc = storeDoc({ v: '$', w: '.', x: 'foo', y: 'bar', z: 'z\0z' });

const CONCAT: Case[] = [
  of('concat.js', { $concat: [{ $toLower: '$absent_b' }] }, ''),
  of('concat.js', { $concat: [] }, ''),
  of('server6195.js', { $concat: ['X', concatDoc('x'), 'Y', concatDoc('y')] }, 'XfooYbar'),
  of('server6195.js', { $concat: [concatDoc('v'), 'X', concatDoc('w'), 'Y'] }, '$X.Y'),
  of('server6195.js', { $concat: [concatDoc('w'), 'X', concatDoc('v'), 'Y'] }, '.X$Y'),
  of('server6195.js', { $concat: ['X', concatDoc('z'), 'a\0a', 'Y'] }, 'Xz\0za\0aY'),
  of('server6195.js', { $concat: [concatDoc('missing')] }, null),
  of('server6195.js', { $concat: [null] }, null),
  of('server6195.js', { $concat: [concatDoc('x'), concatDoc('missing'), concatDoc('y')] }, null),
  of('server6195.js', { $concat: [concatDoc('x'), null, concatDoc('y')] }, null),
];

const CONCAT_ERRORS: Failure[] = [
  ...[1, int(1), long('1'), true, {}, [], new Timestamp({ t: 0, i: 0 }), new Date(0), new Binary(Buffer.alloc(0), 0)]
    .concat([/asdf/, new ObjectId('000000000000000000000000')])
    .map((value) =>
      failing(
        'server6195.js',
        { $concat: [Array.isArray(value) || isPlainDocument(value) ? { $literal: value } : value] },
        16702,
        '$concat only supports strings, not ',
      ),
    ),
];

// ---------------------------------------------------------------------------
// split.js
// ---------------------------------------------------------------------------

const SPLIT: Case[] = (
  [
    [
      ['abc', 'b'],
      ['a', 'c'],
    ],
    [['aaa', 'b'], ['aaa']],
    [
      ['a b a', 'b'],
      ['a ', ' a'],
    ],
    [
      ['a', 'a'],
      ['', ''],
    ],
    [
      ['aa', 'a'],
      ['', '', ''],
    ],
    [
      ['aaa', 'a'],
      ['', '', '', ''],
    ],
    [['', 'a'], ['']],
    [
      ['abc abc cba abc', 'abc'],
      ['', ' ', ' cba ', ''],
    ],
    [
      ['a\0b\0c', '\0'],
      ['a', 'b', 'c'],
    ],
    [
      ['\0a\0', 'a'],
      ['\0', '\0'],
    ],
    [['\0\0\0', 'a'], ['\0\0\0']],
    [
      ['∫a∫', 'a'],
      ['∫', '∫'],
    ],
    [
      ['a∫∫a', '∫'],
      ['a', '', 'a'],
    ],
    [['abc', null], null],
    [[null, 'abc'], null],
    [['$absent_a', 'a'], null],
    [['a', '$absent_a'], null],
  ] as [unknown[], unknown][]
).map(([args, expected]) => of('split.js', { $split: args }, expected));

const SPLIT_ERRORS: Failure[] = [
  failing('split.js', { $split: [] }, 16020, 'Expression $split takes exactly 2 arguments'),
  failing('split.js', { $split: ['a'] }, 16020, 'Expression $split takes exactly 2 arguments'),
  failing('split.js', { $split: ['a', 'b', 'c'] }, 16020, 'Expression $split takes exactly 2 arguments'),
  failing(
    'split.js',
    { $split: [1, 'abc'] },
    40085,
    '$split requires an expression that evaluates to a string as a first argument, found: double',
  ),
  failing(
    'split.js',
    { $split: ['abc', 1] },
    40086,
    '$split requires an expression that evaluates to a string as a second argument, found: double',
  ),
  failing('split.js', { $split: ['abc', ''] }, 40087, '$split requires a non-empty separator'),
];

// ---------------------------------------------------------------------------
// trim.js
// ---------------------------------------------------------------------------

const names = ['Obama\t,  Barack', ', Charlie', ' Ride,  Sally   '].map((name) => storeDoc({ name }));
const titles = [
  'The title of my document',
  '\u2001\u2002 Odd unicode indentation',
  '\u2001\u2002 Odd unicode indentation\u200A',
].map((poorlyParsedWebTitle) => storeDoc({ poorlyParsedWebTitle }));
const proofs = [{ proof: 'Left as an exercise for the reader∎' }, { proof: '∎∃ proof∎' }, { proof: null }, {}].map(
  (doc: Document) => storeDoc(doc),
);
const trimBad = storeDoc({ _id: 0 });

const TRIM: Case[] = [
  of('trim.js', { $trim: { input: ' abc ' } }, 'abc'),
  of('trim.js', { $trim: { input: ' a b\nc ' } }, 'a b\nc'),
  of('trim.js', { $ltrim: { input: '\t abc ' } }, 'abc '),
  of('trim.js', { $rtrim: { input: '\t abc ' } }, '\t abc'),
  of('trim.js', { $map: { input: { $split: ['4, 5, 6, 7,8,9, 10', ','] }, in: { $trim: { input: '$$this' } } } }, [
    '4',
    '5',
    '6',
    '7',
    '8',
    '9',
    '10',
  ]),
  ...names.map((d, i) =>
    of(
      'trim.js',
      { $trim: { input: { $arrayElemAt: [{ $split: [d('name'), ','] }, 1] } } },
      ['Barack', 'Charlie', 'Sally'][i],
    ),
  ),
  ...titles.map((d, i) =>
    of(
      'trim.js',
      { $ltrim: { input: d('poorlyParsedWebTitle') } },
      ['The title of my document', 'Odd unicode indentation', 'Odd unicode indentation\u200A'][i],
    ),
  ),
  ...proofs.map((d, i) =>
    of(
      'trim.js',
      { $rtrim: { input: d('proof'), chars: '∎' } },
      ['Left as an exercise for the reader', '∎∃ proof', null, null][i],
    ),
  ),
];

const TRIM_ERRORS: Failure[] = [
  failing('trim.js', { $trim: { input: 4 } }, 50699, '$trim requires its input to be a string, got 4'),
  failing('trim.js', { $trim: { input: { $add: [4, 2] } } }, 50699, '$trim requires its input to be a string'),
  failing('trim.js', { $trim: { input: trimBad('_id') } }, 50699, '$trim requires its input to be a string'),
  failing(
    'trim.js',
    { $trim: { input: ' x ', chars: trimBad('_id') } },
    50700,
    "$trim requires 'chars' to be a string",
  ),
];

/** Arguments mongod refuses while it parses `$trim`. */
const TRIM_PARSE_ERRORS: Failure[] = [
  failing('trim.js', { $trim: ' x ' }, 50696, '$trim only supports an object as an argument, found string'),
];

// ---------------------------------------------------------------------------
// replace_one.js, replace_all.js
// ---------------------------------------------------------------------------

const replaceDocs: Document[] = [
  { in: 'albatross', find: 'ross', replace: 'rachel' },
  { in: 'albatross', find: '', replace: 'one ' },
  { in: 'albatross', find: '', replace: '' },
  { in: '', find: '', replace: 'foo' },
  { in: '', find: '', replace: '' },
  { in: 'albatross', find: 'rachel', replace: 'ross' },
  { in: '', find: 'rachel', replace: 'ross' },
  { in: '', find: 'rachel', replace: '' },
  { in: 'an antelope is an animal', find: 'an', replace: '' },
  { in: 'an antelope is an animal', find: 'an', replace: 'this' },
  { in: null, find: null, replace: null },
  { in: 'a', find: null, replace: null },
  { in: null, find: 'b', replace: null },
  { in: null, find: null, replace: 'c' },
  { in: 'a', find: 'b', replace: null },
  { in: null, find: 'b', replace: 'c' },
  {},
  { in: 'a' },
  { find: 'b' },
  { replace: 'c' },
  { in: 'a', find: 'b' },
  { find: 'b', replace: 'c' },
  { in: null, find: null },
  { find: null, replace: null },
  { in: null, replace: null },
];
const REPLACE_ONE_ANSWERS = [
  ...['albatrachel', 'one albatross', 'albatross', 'foo', '', 'albatross', '', ''],
  ...[' antelope is an animal', 'this antelope is an animal'],
  ...Array<null>(15).fill(null),
];
const REPLACE_ALL_ANSWERS = [
  ...['albatrachel', 'one aone lone bone aone tone rone oone sone sone ', 'albatross', 'foo', '', 'albatross', '', ''],
  ...[' telope is  imal', 'this thistelope is this thisimal'],
  ...Array<null>(15).fill(null),
];

const REPLACE: Case[] = replaceDocs.flatMap((doc, i) => {
  const d = storeDoc(doc);
  const args = { input: d('in'), find: d('find'), replacement: d('replace') };
  return [
    of('replace_one.js', { $replaceOne: args }, REPLACE_ONE_ANSWERS[i]),
    of('replace_all.js', { $replaceAll: args }, REPLACE_ALL_ANSWERS[i]),
  ];
});
// replace_all.js also runs each case on constants.
REPLACE.push(
  of(
    'replace_all.js',
    { $replaceAll: { input: 'albatross', find: '', replacement: 'one ' } },
    'one aone lone bone aone tone rone oone sone sone ',
  ),
  of(
    'replace_all.js',
    { $replaceAll: { input: 'an antelope is an animal', find: 'an', replacement: 'this' } },
    'this thistelope is this thisimal',
  ),
  of('replace_all.js', { $replaceAll: { input: null, find: 'b', replacement: 'c' } }, null),
);

const bad = storeDoc({
  obj_field: { a: 1, b: 1, c: { d: 2 } },
  arr_field1: [1, 2, 3, 'c'],
  arr_field2: ['aaaaa'],
  int_field: 1,
  dbl_field: 1.0,
  null_field: null,
  str_field: 'foo',
});

const REPLACE_CODES: Record<string, number> = { input: 51746, find: 51745, replacement: 51744 };
const REPLACE_ERRORS: Failure[] = (
  [
    ['obj_field', 'str_field', 'str_field', 'input'],
    ['arr_field1', 'str_field', 'str_field', 'input'],
    ['int_field', 'str_field', 'str_field', 'input'],
    ['dbl_field', 'str_field', 'str_field', 'input'],
    ['str_field', 'obj_field', 'str_field', 'find'],
    ['str_field', 'int_field', 'str_field', 'find'],
    ['str_field', 'str_field', 'arr_field1', 'replacement'],
    ['str_field', 'str_field', 'dbl_field', 'replacement'],
    ['str_field', 'arr_field2', 'dbl_field', 'find'],
    ['arr_field2', 'arr_field2', 'arr_field2', 'input'],
    // An invalid type is refused even where another operand is null or missing.
    ['obj_field', 'null_field', 'str_field', 'input'],
    ['obj_field', 'missing_field', 'missing_field', 'input'],
    ['null_field', 'obj_field', 'str_field', 'find'],
    ['missing_field', 'obj_field', 'null_field', 'find'],
    ['null_field', 'str_field', 'obj_field', 'replacement'],
    ['missing_field', 'missing_field', 'obj_field', 'replacement'],
  ] as const
).flatMap(([input, find, replacement, wrong]) =>
  (['$replaceOne', '$replaceAll'] as const).map((op) =>
    failing(
      op === '$replaceOne' ? 'replace_one.js' : 'replace_all.js',
      { [op]: { input: bad(input), find: bad(find), replacement: bad(replacement) } },
      REPLACE_CODES[wrong]!,
      `${op} requires that '${wrong}' be a string, found: `,
    ),
  ),
);

// ---------------------------------------------------------------------------
// indexof_bytes.js, indexof_codepoints.js
// ---------------------------------------------------------------------------

const INDEX_OF_BYTES: Case[] = (
  [
    [['abc', 'b'], 1],
    [['abcba', 'b'], 1],
    [['abc', 'd'], -1],
    [['abcba', 'b', 2], 3],
    [['abcde', 'd', 0, 2], -1],
    [['abc', 'b', 1], 1],
    [['abc', 'b', 0, 10], 1],
    [['abcbabc', 'b', 2, 4], 3],
    [[null, 'b'], null],
    [['abc', 'b', 3], -1],
    [['abc', 'b', 3, 1], -1],
    [['abc', 'b', 3, 5], -1],
    [['', ' '], -1],
    [[' ', ''], 0],
    [['', ''], 0],
    [['abc', '', 3], 3],
    [['abc', '', 1], 1],
    [['abcde', 'de'], 3],
    [['abcde', 'def'], -1],
    [['a∫∫b', 'b'], 7],
    [['a∫∫b', 'b', 6], 7],
    [['abc∫ba', '∫'], 3],
    [['∫∫∫', 'a'], -1],
    [['ab∫c', 'c', 0, 3], -1],
    [['abc∫b∫', 'b∫'], 6],
    [['abc\0d', 'd'], 4],
    [['abc\0', '\0'], 3],
    [['abc\0d\0', 'd', 5, 6], -1],
  ] as [unknown[], number | null][]
).flatMap(([args, expected]) => {
  const cases = [of('indexof_bytes.js', { $indexOfBytes: args }, expected === null ? null : `int ${expected}`)];
  // The source's equivalence through $substrBytes, where it checks one.
  const [input, token, start = 0, end = { $strLenBytes: input }] = args;
  if (
    expected !== null &&
    !(typeof start === 'number' && start > 2 && args.length === 4 && (args[3] as number) < start)
  ) {
    if (!['a∫∫b:6', 'ab∫c:0'].includes(`${String(input)}:${String(start)}`)) {
      cases.push(
        of(
          'indexof_bytes.js',
          { $indexOfBytes: [{ $substrBytes: [input, start, { $subtract: [end, start] }] }, token] },
          `int ${expected === -1 ? -1 : expected - (start as number)}`,
        ),
      );
    }
  }
  return cases;
});

const INDEX_OF_ERRORS: Failure[] = (['$indexOfBytes', '$indexOfCP'] as const).flatMap((op) => {
  const source = op === '$indexOfBytes' ? 'indexof_bytes.js' : 'indexof_codepoints.js';
  const [first, second] = op === '$indexOfBytes' ? [40091, 40092] : [40093, 40094];
  return [
    failing(source, { [op]: [3, 's'] }, first, `${op} requires a string as the first argument, found: double`),
    failing(source, { [op]: ['s', 3] }, second, `${op} requires a string as the second argument, found: double`),
    failing(
      source,
      { [op]: ['abc', 'b', 'bad'] },
      40096,
      'requires an integral starting index, found a value of type: string',
    ),
    failing(
      source,
      { [op]: ['abc', 'b', 0, 'bad'] },
      40096,
      'requires an integral ending index, found a value of type: string',
    ),
    failing(source, { [op]: ['abc', 'b', -1] }, 40097, `${op} requires a nonnegative starting index, found: -1`),
    failing(source, { [op]: ['abc', 'b', 1, -1] }, 40097, `${op} requires a nonnegative ending index, found: -1`),
  ];
});

const cpDoc = storeDoc({ item: 'foobar foobar', emptyStr: '' });

const INDEX_OF_CP: Case[] = [
  of('indexof_codepoints.js', { $indexOfCP: ['', cpDoc('emptyStr'), 3] }, 'int -1'),
  of('indexof_codepoints.js', { $indexOfCP: ['', cpDoc('emptyStr'), 3, 1] }, 'int -1'),
  ...(
    [
      [['∫aƒ', 'ƒ'], 2],
      [['a∫c', 'd'], -1],
      [['∫b∫ba', 'b', 2], 3],
      [['ab∫de', 'd', 0, 3], -1],
      [['ab∫de', 'd', 0, 4], 3],
      [['øøc', 'ø', 1], 1],
      [['øƒc', 'ƒ', 0, 10], 1],
      [['abcbabc', 'b', 2, 4], 3],
      [[null, '√'], null],
      [['abc', 'b', 3], -1],
      [['a√cb', 'b', 3, 1], -1],
      [['a∫b', 'b', 3, 5], -1],
      [['', '∫'], -1],
      [[' ', ''], 0],
      [['', ''], 0],
      [['abc', '', 1], 1],
      [['abcƒe', 'ƒe'], 3],
      [['∫aeøø', 'øøø'], -1],
      [['ab∫\0d', 'd'], 4],
      [['øbc\0', '\0'], 3],
      [['πbƒ\0d\0', 'd', 5, 6], -1],
    ] as [unknown[], number | null][]
  ).flatMap(([args, expected]) => {
    const cases = [of('indexof_codepoints.js', { $indexOfCP: args }, expected === null ? null : `int ${expected}`)];
    const [input, token, start = 0, end = { $strLenCP: input }] = args;
    if (expected !== null && !(args.length === 4 && (args[3] as number) < (start as number))) {
      cases.push(
        of(
          'indexof_codepoints.js',
          { $indexOfCP: [{ $substrCP: [input, start, { $subtract: [end, start] }] }, token] },
          `int ${expected === -1 ? -1 : expected - (start as number)}`,
        ),
      );
    }
    return cases;
  }),
];

// ---------------------------------------------------------------------------
// strcasecmp.js
// ---------------------------------------------------------------------------

const STRCASECMP: Case[] = (
  [
    [0, '', ''],
    [0, null, null],
    [-1, '', 'a'],
    [0, 'A', 'a'],
    [1, 'Ab', 'a'],
    [0, 'Ab', 'aB'],
    [1, 'Bb', 'aB'],
    [-1, 'Bb', 'cB'],
    [1, 'aB', 'aa'],
    [-1, 'aB', 'ac'],
    [0, 'A$_b1C?', 'a$_b1C?'],
    [1, 'ABC01234', 'abc0123'],
    [0, '1', 1],
    [0, '1.23', 1.23],
    [0, '1970-01-01T00:00:00.000Z', new Date(0)],
    [0, '1970-01-01t00:00:00.000Z', new Date(0)],
    [0, '\u0080D\u20ac', '\u0080d\u20ac'],
    [1, 'ó', 'Ó'],
  ] as [number, unknown, unknown][]
).flatMap(([expected, a, b]) => [
  of('strcasecmp.js', { $strcasecmp: [a, b] }, `int ${expected}`),
  of('strcasecmp.js', { $strcasecmp: [b, a] }, `int ${expected === 0 ? 0 : -expected}`),
]);
const casecmpDoc = storeDoc({ x: 'abc' });
STRCASECMP.push(of('strcasecmp.js', { $strcasecmp: [casecmpDoc('x'), 'ABC'] }, 'int 0'));

const STRCASECMP_ERRORS: Failure[] = [
  failing(
    'strcasecmp.js',
    { $strcasecmp: [] },
    16020,
    'Expression $strcasecmp takes exactly 2 arguments. 0 were passed in.',
  ),
  failing(
    'strcasecmp.js',
    { $strcasecmp: ['a'] },
    16020,
    'Expression $strcasecmp takes exactly 2 arguments. 1 were passed in.',
  ),
  failing('strcasecmp.js', { $strcasecmp: ['a', 'b', 'c'] }, 16020, 'Expression $strcasecmp takes exactly 2 arguments'),
  failing('strcasecmp.js', { $strcasecmp: ['abc', /abc/] }, 16007, "can't convert from BSON type regex to String"),
  failing('strcasecmp.js', { $strcasecmp: ['a', ['a']] }, 16007, "can't convert from BSON type array to String"),
  failing(
    'strcasecmp.js',
    { $strcasecmp: ['a', { $literal: {} }] },
    16007,
    "can't convert from BSON type object to String",
  ),
];

// ---------------------------------------------------------------------------
// upperlower.js
// ---------------------------------------------------------------------------

const caseDoc = storeDoc({
  string: '-_ab',
  longString: 'abcdefghijklmnopQRSTUVWXYZ123456789',
  numberLong: long('2090845886852'),
  numberInt: int(42),
  nested: { str: 'hello world' },
  unicode: '\u1ebd',
  string_with_nulls_1: 'a\0B\0\0z',
});

const UPPER_LOWER: Case[] = (
  [
    ['', '', ''],
    ['', '', ['']],
    ['AB', 'ab', 'aB'],
    ['AB', 'ab', ['Ab']],
    ['ABZ', 'abz', 'aBz'],
    ['A\0B\0\0Z', 'a\0b\0\0z', 'a\0B\0\0z'],
    ['A\0\0B\0Z', 'a\0\0b\0z', ['A\0\0b\0z']],
    ['1', '1', '1'],
    ['1^A-A_$%.', '1^a-a_$%.', '1^a-A_$%.'],
    ['0XFF0B', '0xff0b', '0XfF0b'],
    ['555.5', '555.5', 555.5],
    ['1970-01-01T00:00:00.000Z', '1970-01-01t00:00:00.000z', new Date(0)],
    ['', '', null],
    ['ABCDEFG', 'abcdefg', [{ $toUpper: [{ $toLower: [{ $toUpper: 'aBcDeFg' }] }] }]],
    ['\u0080D\u20ac', '\u0080d\u20ac', '\u0080\u0044\u20ac'],
    ['ó', 'ó', 'ó'],
    ['Ó', 'Ó', 'Ó'],
    ['-_AB', '-_ab', caseDoc('string')],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789', 'abcdefghijklmnopqrstuvwxyz123456789', caseDoc('longString')],
    ['2090845886852', '2090845886852', caseDoc('numberLong')],
    ['42', '42', caseDoc('numberInt')],
    ['HELLO WORLD', 'hello world', `${caseDoc('nested')}.str`],
    ['\u1ebd', '\u1ebd', caseDoc('unicode')],
    ['A\0B\0\0Z', 'a\0b\0\0z', caseDoc('string_with_nulls_1')],
  ] as [string, string, unknown][]
).flatMap(([upper, lower, arg]) => [
  of('upperlower.js', { $toUpper: arg }, upper),
  of('upperlower.js', { $toLower: arg }, lower),
]);

const UPPER_LOWER_ERRORS: Failure[] = (['$toUpper', '$toLower'] as const).flatMap((op) => [
  failing(
    'upperlower.js',
    { [op]: [] },
    [16020, 16007],
    `Expression ${op} takes exactly 1 arguments. 0 were passed in.`,
  ),
  failing(
    'upperlower.js',
    { [op]: ['a', 'b'] },
    [16020, 16007],
    `Expression ${op} takes exactly 1 arguments. 2 were passed in.`,
  ),
  failing('upperlower.js', { [op]: /abc/ }, [16020, 16007], "can't convert from BSON type regex to String"),
  failing('upperlower.js', { [op]: true }, [16020, 16007], "can't convert from BSON type bool to String"),
]);

// ---------------------------------------------------------------------------
// strlen.js
// ---------------------------------------------------------------------------

const lenDoc = storeDoc({
  strField: 'MyString',
  intField: int(1),
  nullField: null,
  specialCharField: 'é',
  specialCharField2: '匣6卜十戈大中金',
  specialCharField3: 'i ♥ u',
});

const STRLEN: Case[] = (
  [
    [lenDoc('specialCharField'), 2, 1],
    [lenDoc('specialCharField2'), 22, 8],
    [lenDoc('specialCharField3'), 7, 5],
    ['i ♥ u', 7, 5],
    ['🧐🤓😎🥸🤩', 20, 5],
    ['十🤳🕺十十💃ahk', 24, 9],
    [lenDoc('strField'), 8, 8],
  ] as [string, number, number][]
).flatMap(([arg, bytes, points]) => [
  of('strlen.js', { $strLenBytes: arg }, `int ${bytes}`),
  of('strlen.js', { $strLenCP: arg }, `int ${points}`),
]);

// The source names the slot-based engine's codes; the classic engine's (MongoDB 7's $project) are 34471 and 34473.
const STRLEN_ERRORS: Failure[] = [
  failing('strlen.js', { $strLenCP: 1 }, [34471, 5155900], '$strLenCP requires a string argument'),
  ...[lenDoc('intField'), lenDoc('nullField'), lenDoc('b')].flatMap((arg) => [
    failing('strlen.js', { $strLenCP: arg }, [34471, 5155900], '$strLenCP requires a string argument'),
    failing('strlen.js', { $strLenBytes: arg }, [34473, 5155800], '$strLenBytes requires a string argument'),
  ]),
  failing('strlen.js', { $strLenCP: null }, [34471, 5155900], '$strLenCP requires a string argument, found: null'),
  failing(
    'strlen.js',
    { $strLenBytes: null },
    [34473, 5155800],
    '$strLenBytes requires a string argument, found: null',
  ),
  failing('strlen.js', { $strLenCP: ['hello', 'hello'] }, 16020, 'Expression $strLenCP takes exactly 1 arguments'),
  failing(
    'strlen.js',
    { $strLenBytes: ['hello', 'hello'] },
    16020,
    'Expression $strLenBytes takes exactly 1 arguments',
  ),
];

// ---------------------------------------------------------------------------
// bugs/substr.js ($substrBytes), server6186.js, server22580.js ($substrCP)
// ---------------------------------------------------------------------------

const subDoc = storeDoc({ x: 'a', y: 'abc', z: 'abcde', a: 0, b: 1, c: 2, d: 3, e: 4, f: 5 });

const SUBSTR_BYTES: Case[] = [
  ...(
    [
      ['abcd', 'abcd', 0, 4],
      ['abcd', 'abcd', 0, 5],
      ['a', 'abcd', 0, 1],
      ['ab', 'abcd', 0, 2],
      ['b', 'abcd', 1, 1],
      ['d', 'abcd', 3, 1],
      ['', 'abcd', 4, 1],
      ['', 'abcd', 3, 0],
      ['cd', 'abcd', 2, -1],
      ['bc', 'abcd', 1, 2],
      ['bc', 'abcd', int(1), int(2)],
      ['bc', 'abcd', long('1'), long('2')],
      ['bc', 'abcd', int(1), long('2')],
      ['bc', 'abcd', long('1'), int(2)],
      ['bc', 'abcd', decimal('1'), decimal('2')],
      ['bc', 'abcd', 1.2, 2.2],
      ['bc', 'abcd', 1.9, 2.9],
      ['abcd', 'abcd', 0, -1],
      ['cd', 'abcd', 2, -5],
      ['', 'abcd', 4, -1],
      ['', 'abcd', 10, -1],
      ['123', 123, 0, 3],
      ['2', 123, 1, 1],
      ['1970', new Date(0), 0, 4],
      ['', null, 0, 4],
      ['$a', 'a$a', 1, 2],
      ['\u0080', '\u0080', 0, 2],
      ['\u0080', '\u0080\u20ac', 0, 2],
      ['\u20ac', '\u0080\u20ac', 2, 3],
      ['\u0044\u20ac', '\u0080\u0044\u20ac', 2, 4],
      ['\u0044', '\u0080\u0044\u20ac', 2, 1],
      ['\uD834\uDF06', '\uD834\uDF06', 0, 4],
      ['a', subDoc('x'), subDoc('a'), subDoc('b')],
      ['a', subDoc('x'), subDoc('a'), subDoc('f')],
      ['b', subDoc('y'), subDoc('b'), subDoc('b')],
      ['bcd', subDoc('z'), subDoc('b'), subDoc('d')],
      ['cde', subDoc('z'), subDoc('c'), subDoc('f')],
      ['c', subDoc('y'), subDoc('c'), subDoc('f')],
      ['cde', subDoc('z'), { $add: [subDoc('b'), subDoc('b')] }, { $add: [subDoc('c'), subDoc('d')] }],
      ['cde', subDoc('z'), { $add: [subDoc('b'), 1] }, { $add: [2, subDoc('d')] }],
      ['e', { $substrBytes: [{ $substrBytes: [{ $substrBytes: ['abcdefghij', 1, 6] }, 2, 5] }, 0, 3] }, 1, 1],
    ] as [string, unknown, unknown, unknown][]
  ).map(([expected, str, offset, len]) => of('substr.js', { $substrBytes: [str, offset, len] }, expected)),
  // server6186.js: every start from 0 to 4 and length from 0 to 6 of "abc" and "".
  ...['abc', ''].flatMap((text) =>
    [0, 1, 2, 3, 4].flatMap((pos) =>
      [0, 3, 6].map((n) => of('server6186.js', { $substrBytes: [text, pos, n] }, text.substring(pos, pos + n))),
    ),
  ),
  // $substr is parsed as $substrBytes.
  of('substr.js', { $substr: ['abcd', 1, 2] }, 'bc'),
];

// bugs/substr.js only asserts that these fail; the codes and messages are expression.cpp's.
const SUBSTR_BYTES_ERRORS: Failure[] = [
  ...(
    [
      ['abcd', -1, 4, 50752, '$substrBytes:  starting index must be non-negative (got: -1)'],
      ['abcd', -10, 0, 50752, '$substrBytes:  starting index must be non-negative (got: -10)'],
      ['abcd', false, 2, 16034, '$substrBytes:  starting index must be a numeric type (is BSON type bool)'],
      ['abcd', 1, true, 16035, '$substrBytes:  length must be a numeric type (is BSON type bool)'],
      ['abcd', 'q', 2, 16034, 'starting index must be a numeric type (is BSON type string)'],
      ['abcd', 1, 'r', 16035, 'length must be a numeric type (is BSON type string)'],
      ['abcd', null, 3, 16034, 'starting index must be a numeric type (is BSON type null)'],
      [/abc/, 0, 4, 16007, "can't convert from BSON type regex to String"],
      ['\u0080', 0, 1, 28657, '$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character.'],
      ['\u0080', 1, 1, 28656, '$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte.'],
      ['\u0080\u20ac', 1, 3, 28656, 'starting index is a UTF-8 continuation byte'],
      ['\u0080\u20ac', 0, 3, 28657, 'ending index is in the middle of a UTF-8 character'],
      ['\uD834\uDF06', 0, 3, 28657, 'ending index is in the middle of a UTF-8 character'],
    ] as [unknown, unknown, unknown, number, string][]
  ).map(([str, offset, len, code, message]) =>
    failing('substr.js', { $substrBytes: [str, offset, len] }, code, message),
  ),
  failing(
    'substr.js',
    { $substrBytes: [] },
    16020,
    'Expression $substrBytes takes exactly 3 arguments. 0 were passed in.',
  ),
  failing(
    'substr.js',
    { $substr: ['foo', 1] },
    16020,
    'Expression $substrBytes takes exactly 3 arguments. 2 were passed in.',
  ),
];

const cp = storeDoc({
  a: 'abc',
  t: '寿司sushi',
  u: 'éclair',
  v: 'Å',
  w: '◢◢◢',
  x: 'a',
  z: 'abcde',
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  neg: -4,
  invalidStr: {},
  bigNum: long('4294967297'),
});

const SUBSTR_CP: Case[] = [
  ...(
    [
      ['', cp('x'), 999, 0],
      ['', cp('x'), 999, 1],
      ['Å', cp('v'), cp('zero'), cp('one')],
      ['a', cp('x'), cp('zero'), cp('one')],
      ['◢◢', cp('w'), cp('one'), cp('two')],
      ['cde', cp('z'), cp('two'), cp('three')],
      ['cde', cp('z'), { $add: [cp('one'), cp('one')] }, { $add: [cp('two'), cp('three')] }],
      ['cde', cp('z'), { $add: [cp('one'), 1] }, { $add: [2, cp('three')] }],
      ['e', { $substrCP: [{ $substrCP: [{ $substrCP: ['abcdefghij', cp('one'), 6] }, cp('two'), 5] }, 0, 3] }, 1, 1],
      ['écla', cp('u'), cp('zero'), cp('four')],
      ['寿司sush', cp('t'), cp('zero'), 6],
    ] as [string, unknown, unknown, unknown][]
  ).map(([expected, str, offset, len]) => of('substrCP.js', { $substrCP: [str, offset, len] }, expected)),
  of('substrCP.js', { $substrBytes: [cp('u'), cp('zero'), cp('four')] }, 'écl'),
  of('substrCP.js', { $substrBytes: [cp('t'), cp('zero'), 6] }, '寿司'),
];

// The successor of server22580.js names both engines' codes (sbe_assert_error_override.js); the classic engine's come first.
const SUBSTR_CP_ERRORS: Failure[] = [
  failing(
    'server22580.js',
    { $substrCP: [cp('a'), 0, 'a'] },
    34452,
    '$substrCP: length must be a numeric type (is BSON type string)',
  ),
  failing(
    'server22580.js',
    { $substrCP: [cp('a'), 0, NaN] },
    34453,
    '$substrCP: length cannot be represented as a 32-bit integral value',
  ),
  failing(
    'server22580.js',
    { $substrCP: [cp('a'), 'abc', 3] },
    34450,
    '$substrCP: starting index must be a numeric type (is BSON type string)',
  ),
  failing(
    'server22580.js',
    { $substrCP: [cp('a'), 2.2, 3] },
    34451,
    '$substrCP: starting index cannot be represented as a 32-bit integral value',
  ),
  failing(
    'server22580.js',
    { $substrCP: [cp('a'), -1, 3] },
    34455,
    '$substrCP: the starting index must be nonnegative integer.',
  ),
  failing('server22580.js', { $substrCP: [cp('a'), 1, -3] }, 34454, '$substrCP: length must be a nonnegative integer.'),
  failing('substrCP.js', { $substrCP: [] }, 16020, 'Expression $substrCP takes exactly 3 arguments. 0 were passed in.'),
  failing(
    'substrCP.js',
    { $substrCP: [cp('x'), 1, 2, 3] },
    16020,
    'Expression $substrCP takes exactly 3 arguments. 4 were passed in.',
  ),
  failing(
    'substrCP.js',
    { $substrCP: ['a', cp('invalidStr'), 7] },
    [34450, 5155700],
    'starting index must be a numeric type',
  ),
  failing(
    'substrCP.js',
    { $substrCP: ['a', cp('bigNum'), 7] },
    [34451, 5155700],
    'starting index cannot be represented as a 32-bit integral value',
  ),
  failing('substrCP.js', { $substrCP: ['a', 0, cp('t')] }, [34452, 5155702], 'length must be a numeric type'),
  failing(
    'substrCP.js',
    { $substrCP: ['a', cp('neg'), 2] },
    [34455, 5155701],
    'the starting index must be nonnegative integer',
  ),
  failing('substrCP.js', { $substrCP: ['a', 0, cp('neg')] }, [34454, 5155703], 'length must be a nonnegative integer'),
  failing(
    'substrCP.js',
    { $substrCP: [cp('invalidStr'), cp('zero'), cp('one')] },
    16007,
    "can't convert from BSON type object to String",
  ),
];

// ---------------------------------------------------------------------------

describe("string expressions, as mongod's jstests have them", () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('string_expressions');
    await inputs.insert(c);
  });

  async function computes(_label: string, expr: unknown, expected: unknown): Promise<void> {
    const [doc] = await c
      .aggregate([{ $project: { _id: 0, v: shellValue(expr) } }], { promoteValues: false, promoteLongs: false })
      .toArray();
    expect(doc && 'v' in doc ? bsonText(doc.v) : 'missing').toEqual(expected);
  }

  async function refuses(_label: string, expr: unknown, codes: number[], message: string): Promise<void> {
    const outcome = await pipelineFailure(c, [{ $project: { _id: 0, v: shellValue(expr) } }]);
    expect(codes).toContain(outcome.code);
    expect(outcome.message).toContain(message);
  }

  describe('$concat', () => {
    it.each(CONCAT)('computes %s', computes);
    it.each(CONCAT_ERRORS)('refuses %s', refuses);
  });

  describe('$split', () => {
    it.each(SPLIT)('computes %s', computes);
    it.each(SPLIT_ERRORS)('refuses %s', refuses);
  });

  describe('$trim, $ltrim and $rtrim', () => {
    it.each(TRIM)('computes %s', computes);
    it.each([...TRIM_ERRORS, ...TRIM_PARSE_ERRORS])('refuses %s', refuses);
  });

  describe('$replaceOne and $replaceAll', () => {
    it.each(REPLACE)('computes %s', computes);
    it.each(REPLACE_ERRORS)('refuses %s', refuses);
  });

  describe('$indexOfBytes and $indexOfCP', () => {
    it.each([...INDEX_OF_BYTES, ...INDEX_OF_CP])('computes %s', computes);
    it.each(INDEX_OF_ERRORS)('refuses %s', refuses);
  });

  describe('$strcasecmp', () => {
    it.each(STRCASECMP)('computes %s', computes);
    it.each(STRCASECMP_ERRORS)('refuses %s', refuses);
  });

  describe('$toUpper and $toLower', () => {
    it.each(UPPER_LOWER)('computes %s', computes);
    it.each(UPPER_LOWER_ERRORS)('refuses %s', refuses);
  });

  describe('$strLenBytes and $strLenCP', () => {
    it.each(STRLEN)('computes %s', computes);
    it.each(STRLEN_ERRORS)('refuses %s', refuses);
  });

  describe('$substr and $substrBytes', () => {
    it.each(SUBSTR_BYTES)('computes %s', computes);
    it.each(SUBSTR_BYTES_ERRORS)('refuses %s', refuses);
  });

  describe('$substrCP', () => {
    it.each(SUBSTR_CP)('computes %s', computes);
    it.each(SUBSTR_CP_ERRORS)('refuses %s', refuses);
  });
});
