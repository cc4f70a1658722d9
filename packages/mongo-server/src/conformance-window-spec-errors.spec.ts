/**
 * Conformance: a `$setWindowFields` specification checked as mongod 7.0
 * parses it (document_source_set_window_fields.cpp and .idl,
 * window_function_statement.cpp, window_function_expression.cpp/.h,
 * window_function_shift.cpp, window_function_count.cpp, window_bounds.cpp;
 * cases from jstests/aggregation/sources/setWindowFields), refused on an
 * empty collection with mongod's code and message; and specs mongod accepts,
 * which must keep running. Passes against MONGO_URL too.
 */
import { type Document, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

type Case = [label: string, spec: unknown, code: number, message: string];

const ONE_KEY = 'must be specified with a top level sortBy expression with exactly one element';
const sorted = (output: Document): Document => ({ sortBy: { ts: 1 }, output: { v: output } });

const CASES: Case[] = [
  ['a string spec', 'x', 9, 'the $setWindowFields stage specification must be an object, found string'],
  ['an unknown field', { x: 1, output: {} }, 40415, "BSON field '$setWindowFields.x' is an unknown field."],
  [
    'a sortBy of a string',
    { sortBy: 'x', output: {} },
    14,
    "BSON field '$setWindowFields.sortBy' is the wrong type 'string', expected type 'object'",
  ],
  [
    'an output of a string',
    { output: 'x' },
    14,
    "BSON field '$setWindowFields.output' is the wrong type 'string', expected type 'object'",
  ],
  ['no output', { sortBy: { a: 1 } }, 40414, "BSON field '$setWindowFields.output' is missing but a required field"],
  [
    'a bad sortBy direction',
    { sortBy: { a: 2 }, output: {} },
    15975,
    '$sort key ordering must be 1 (for ascending) or -1 (for descending)',
  ],
  ['an output field of a number', { output: { r: 1 } }, 9, "The field 'r' must be an object"],
  ['an empty output field', { output: { r: {} } }, 9, 'Expected a $-prefixed window function'],
  [
    'an output field with no function',
    { output: { a: { b: { $sum: '$a' } } } },
    9,
    'Expected a $-prefixed window function, b',
  ],
  ['an unknown function', { output: { r: { $foo: 1 } } }, 9, 'Unrecognized window function, $foo'],
  [
    'two functions',
    { output: { r: { $sum: 1, $avg: '$a' } } },
    9,
    'Cannot specify two functions in window function spec',
  ],
  ['an unknown argument', { output: { r: { $sum: 1, foo: 1 } } }, 9, 'Window function found an unknown argument: foo'],
  [
    'conflicting output paths',
    { output: { a: { $sum: 1 }, 'a.b': { $sum: 1 } } },
    6307900,
    "$setWindowFields 'output' specification contains two conflicting paths",
  ],
  ['$rank without sortBy', { output: { r: { $rank: {} } } }, 5371602, `$rank ${ONE_KEY}`],
  ['$rank over two sort keys', { sortBy: { a: 1, _id: 1 }, output: { r: { $rank: {} } } }, 5371602, `$rank ${ONE_KEY}`],
  ['$denseRank without sortBy', { output: { r: { $denseRank: {} } } }, 5371602, `$denseRank ${ONE_KEY}`],
  [
    '$documentNumber over two keys',
    { sortBy: { a: 1, b: 1 }, output: { r: { $documentNumber: {} } } },
    5371602,
    `$documentNumber ${ONE_KEY}`,
  ],
  [
    '$rank of 1',
    { sortBy: { a: 1 }, output: { r: { $rank: 1 } } },
    5371603,
    "$rank must be specified with '{}' as the value",
  ],
  [
    '$rank with a window',
    { sortBy: { a: 1 }, output: { r: { $rank: {}, window: { documents: [-1, 1] } } } },
    5371601,
    'Rank style window functions take no other arguments',
  ],
  ['$shift without sortBy', { output: { r: { $shift: { output: '$a', by: 1 } } } }, 9, "'$shift' requires a sortBy"],
  [
    '$shift with a window',
    sorted({ $shift: { output: '$a', by: 1 }, window: {} }),
    9,
    "$shift does not accept a 'window' field",
  ],
  ['$shift of a string', sorted({ $shift: 'x' }), 9, 'Argument to $shift must be an object'],
  [
    '$shift by a fraction',
    sorted({ $shift: { output: '$a', by: 1.5 } }),
    9,
    "'$shift:by' field must be an integer, but found  by: 1.5",
  ],
  [
    '$shift by a string',
    sorted({ $shift: { output: '$a', by: 'x' } }),
    9,
    '\'$shift:by\' field must be an integer, but found  by: "x"',
  ],
  ['$shift without by', sorted({ $shift: { output: '$a' } }), 9, "$shift requires 'by' as an integer value."],
  ['$shift without output', sorted({ $shift: { by: 1 } }), 9, "$shift requires an 'output' expression."],
  [
    '$shift with an unknown argument',
    sorted({ $shift: { output: '$a', by: 1, x: 1 } }),
    9,
    'Unknown argument in $shift',
  ],
  [
    '$shift with a non-constant default',
    sorted({ $shift: { output: '$a', by: 1, default: '$b' } }),
    9,
    "'$shift:default' expression must yield a constant value.",
  ],
  [
    'documents without sortBy',
    { output: { v: { $sum: '$a', window: { documents: [-1, 0] } } } },
    5339901,
    'Document-based bounds require a sortBy',
  ],
  [
    'range without sortBy',
    { output: { v: { $sum: '$a', window: { range: [-1, 0] } } } },
    5339902,
    'Range-based bounds require sortBy a single field',
  ],
  [
    'range over two sort keys',
    { sortBy: { a: 1, b: 1 }, output: { v: { $sum: '$a', window: { range: ['unbounded', 'current'] } } } },
    5339902,
    'Range-based bounds require sortBy a single field',
  ],
  [
    'backwards documents',
    sorted({ $sum: '$a', window: { documents: [1, 0] } }),
    5339900,
    'Lower bound must not exceed upper bound: [1, 0]',
  ],
  [
    'backwards from current',
    sorted({ $sum: '$a', window: { documents: ['current', -1] } }),
    5339900,
    'Lower bound must not exceed upper bound: [0, -1]',
  ],
  [
    'backwards range',
    sorted({ $sum: '$a', window: { range: [1, -1] } }),
    5339900,
    'Lower bound must not exceed upper bound: [1, -1]',
  ],
  [
    'backwards time range',
    sorted({ $sum: '$a', window: { range: [1, 'current'], unit: 'day' } }),
    5339900,
    'Lower bound must not exceed upper bound: [1, 0]',
  ],
  [
    'a string bound',
    sorted({ $sum: '$a', window: { documents: ['x', 0] } }),
    9,
    "Window bounds must be 'unbounded', 'current', or a number.",
  ],
  [
    'a fractional document bound',
    sorted({ $sum: '$a', window: { documents: [-1.5, 0] } }),
    9,
    'Numeric document-based bounds must be an integer',
  ],
  [
    'a $const current bound',
    sorted({ $sum: '$a', window: { documents: [{ $const: 'current' }, 3] } }),
    9,
    'Numeric document-based bounds must be an integer',
  ],
  [
    'a non-constant bound',
    sorted({ $sum: '$a', window: { documents: [{ $add: ['$a', 1] }, 3] } }),
    9,
    'Window bounds expression must be a constant.',
  ],
  [
    'a string range bound',
    sorted({ $sum: '$a', window: { range: [{ $const: 'x' }, 3] } }),
    9,
    'Range-based bounds expression must be a number',
  ],
  [
    'a fractional time bound',
    sorted({ $sum: '$a', window: { range: [-1.5, 0], unit: 'day' } }),
    9,
    "With 'unit', range-based bounds must be an integer",
  ],
  [
    'unit with documents',
    sorted({ $sum: '$a', window: { documents: [0, 0], unit: 'day' } }),
    9,
    "Window bounds can only specify 'unit' with range-based bounds.",
  ],
  [
    'an unknown window field',
    sorted({ $sum: '$a', window: { foo: 1 } }),
    9,
    "'window' field can only contain 'documents' as the only argument or 'range' with an optional 'unit' field",
  ],
  [
    'documents and range',
    sorted({ $sum: '$a', window: { documents: [0, 0], range: [0, 0] } }),
    9,
    "Window bounds can specify either 'documents' or 'unit', not both.",
  ],
  ['a window of a number', sorted({ $sum: '$a', window: 1 }), 9, "'window' field must be an object"],
  [
    'one bound',
    sorted({ $sum: '$a', window: { documents: [1] } }),
    9,
    'Window bounds must be a 2-element array: documents: [ 1 ]',
  ],
  [
    'documents with another field',
    sorted({ $sum: '$a', window: { documents: [0, 0], x: 1 } }),
    9,
    "'window' field that specifies documents cannot have other fields",
  ],
  [
    'range with another field',
    sorted({ $sum: '$a', window: { range: [0, 0], x: 1 } }),
    9,
    "'window' field that specifies range cannot have other fields besides 'unit'",
  ],
  ['a unit of a number', sorted({ $sum: '$a', window: { range: [0, 0], unit: 1 } }), 9, "'unit' must be a string"],
  [
    'an unknown unit',
    sorted({ $sum: '$a', window: { range: [0, 0], unit: 'fortnight' } }),
    9,
    'unknown time unit value: fortnight',
  ],
  ['$count of 1', sorted({ $count: 1 }), 9, '$count only accepts an empty object as input'],
  ['$locf with a window', sorted({ $locf: '$a', window: {} }), 9, "'window' field is not allowed in $locf"],
  ['$linearFill without sortBy', { output: { v: { $linearFill: '$a' } } }, 605001, `$linearFill ${ONE_KEY}`],
  [
    '$linearFill over two keys',
    { sortBy: { a: 1, b: 1 }, output: { v: { $linearFill: '$a' } } },
    605001,
    `$linearFill ${ONE_KEY}`,
  ],
  [
    '$linearFill with a window',
    sorted({ $linearFill: '$a', window: {} }),
    9,
    "'window' field is not allowed in $linearFill",
  ],
  [
    '$expMovingAvg with no N or alpha',
    sorted({ $expMovingAvg: { input: '$a' } }),
    9,
    "$expMovingAvg sub object must have exactly two fields: An 'input' field, and either an 'N' field or an 'alpha' field",
  ],
  [
    '$expMovingAvg with a window',
    sorted({ $expMovingAvg: { input: '$a', N: 2 }, window: {} }),
    9,
    '$expMovingAvg must have exactly one argument that is an object',
  ],
  [
    '$expMovingAvg without sortBy',
    { output: { v: { $expMovingAvg: { input: '$a', N: 2 } } } },
    9,
    "$expMovingAvg requires an explicit 'sortBy'",
  ],
  [
    '$expMovingAvg with N 0',
    sorted({ $expMovingAvg: { input: '$a', N: 0 } }),
    9,
    "'N' must be greater than zero. Got 0",
  ],
  [
    '$expMovingAvg with N a string',
    sorted({ $expMovingAvg: { input: '$a', N: 'x' } }),
    9,
    "'N' field must be an integer, but found type string",
  ],
  [
    '$expMovingAvg with N 1.5',
    sorted({ $expMovingAvg: { input: '$a', N: 1.5 } }),
    9,
    "'N' field must be an integer, but found  N: 1.5. To use a non-integer, use the 'alpha' argument instead",
  ],
  [
    '$expMovingAvg with alpha 1',
    sorted({ $expMovingAvg: { input: '$a', alpha: 1 } }),
    9,
    "'alpha' must be between 0 and 1 (exclusive), found alpha: 1",
  ],
  [
    '$expMovingAvg with alpha a string',
    sorted({ $expMovingAvg: { input: '$a', alpha: 'x' } }),
    9,
    "'alpha' must be a number",
  ],
  [
    '$expMovingAvg with another field',
    sorted({ $expMovingAvg: { input: '$a', x: 1 } }),
    9,
    "Got unrecognized field in $expMovingAvg$expMovingAvg sub object must have exactly two fields: An 'input' field, and either an 'N' field or an 'alpha' field",
  ],
  [
    '$derivative without sortBy',
    { output: { v: { $derivative: { input: '$a' }, window: { documents: [-1, 0] } } } },
    9,
    '$derivative requires a sortBy',
  ],
  [
    '$derivative over two keys',
    { sortBy: { a: 1, b: 1 }, output: { v: { $derivative: { input: '$a' } } } },
    9,
    '$derivative requires a non-compound sortBy',
  ],
  [
    '$derivative without a window',
    sorted({ $derivative: { input: '$a' } }),
    9,
    '$derivative requires explicit window bounds',
  ],
  [
    '$derivative without input',
    sorted({ $derivative: {}, window: { documents: [-1, 0] } }),
    9,
    "$derivative requires an 'input' expression",
  ],
  [
    '$derivative of a string',
    sorted({ $derivative: 'x', window: { documents: [-1, 0] } }),
    9,
    '$derivative expects an object, but got a string: $derivative: "x"',
  ],
  [
    '$derivative by month',
    sorted({ $derivative: { input: '$a', unit: 'month' }, window: { documents: [-1, 0] } }),
    5490710,
    "unit must be 'week' or smaller",
  ],
  [
    '$integral with a unit of a number',
    sorted({ $integral: { input: '$a', unit: 1 } }),
    9,
    "unit' must be a string, but got int",
  ],
  [
    '$integral with an unknown argument',
    sorted({ $integral: { input: '$a', x: 1 } }),
    9,
    '$integral got unexpected argument: x',
  ],
  ['$first with another argument', sorted({ $first: '$a', x: 1 }), 9, '$first got unexpected argument: x'],
  [
    '$minN with another argument',
    sorted({ $minN: { n: 2, input: '$a' }, x: 1 }),
    9,
    '$minN got unexpected argument: x',
  ],
  [
    'a constant array partitionBy',
    { partitionBy: [1, 2], output: {} },
    14,
    'An expression used to partition cannot evaluate to value of type array',
  ],
  [
    'a $literal array partitionBy',
    { partitionBy: { $literal: [1] }, output: {} },
    14,
    'An expression used to partition cannot evaluate to value of type array',
  ],
];

describe('$setWindowFields specification errors', () => {
  it.each(CASES)('should refuse %s', async (_label, spec, code, message) => {
    const collection = await fx.fresh('window_spec');
    const error = await rejection(collection.aggregate([{ $setWindowFields: spec }]).toArray());
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('should refuse an unknown operator in partitionBy (InvalidPipelineOperator)', async () => {
    const collection = await fx.fresh('window_spec');
    const spec = { partitionBy: { $notAnOperator: 1 }, output: {} };
    const error = await rejection(collection.aggregate([{ $setWindowFields: spec }]).toArray());
    expect(error.code).toBe(168);
  });
});

/** Specs mongod accepts (from the jstests), run over a few documents. */
const ACCEPTED: [label: string, spec: Document][] = [
  ['an empty output', { output: {} }],
  ['a $$NOW partitionBy', { partitionBy: '$$NOW', output: {} }],
  ['a constant partitionBy', { partitionBy: 5, output: { v: { $sum: 1 } } }],
  ['a sum over everything', { output: { v: { $sum: '$a' } } }],
  // WindowBounds::parse: an empty window is the default one (the whole partition).
  ['an empty window', { output: { v: { $sum: '$a', window: {} } } }],
  [
    'an unbounded documents window without sortBy',
    { output: { v: { $sum: '$a', window: { documents: ['unbounded', 'unbounded'] } } } },
  ],
  ['a documents window', sorted({ $sum: '$a', window: { documents: [-2, 4] } })],
  ['a documents window open on the right', sorted({ $max: '$a', window: { documents: [-3, 'unbounded'] } })],
  ['a range window', sorted({ $sum: '$a', window: { range: [-2, 4] } })],
  ['a Decimal128 and Int64 range', sorted({ $sum: '$a', window: { range: [-1.5, Long.fromNumber(5)] } })],
  ['constant-expression bounds', sorted({ $sum: '$a', window: { documents: [{ $add: [2, 2] }, { $add: [2, 2] }] } })],
  ['$rank', sorted({ $rank: {} })],
  ['$denseRank', sorted({ $denseRank: {} })],
  ['$documentNumber', sorted({ $documentNumber: {} })],
  ['$shift with a default', sorted({ $shift: { output: '$a', by: -1, default: 'none' } })],
  ['$shift by an Int64', sorted({ $shift: { output: '$a', by: Long.fromNumber(1) } })],
  [
    '$shift by a whole double and a constant default',
    sorted({ $shift: { output: '$a', by: 1.0, default: { $add: [1, 2] } } }),
  ],
  ['$locf', sorted({ $locf: '$a' })],
  ['$linearFill', sorted({ $linearFill: '$a' })],
  ['$expMovingAvg with N', sorted({ $expMovingAvg: { input: '$a', N: 2 } })],
  ['$expMovingAvg with alpha', sorted({ $expMovingAvg: { input: '$a', alpha: 0.5 } })],
  ['$derivative', sorted({ $derivative: { input: '$a' }, window: { documents: [-1, 0] } })],
  ['$integral', sorted({ $integral: { input: '$a' }, window: { documents: [-1, 0] } })],
  ['$integral without a window', sorted({ $integral: { input: '$a' } })],
  ['$count', sorted({ $count: {}, window: { documents: [-1, 1] } })],
  ['$push and $addToSet', { sortBy: { ts: 1 }, output: { p: { $push: '$a' }, s: { $addToSet: '$a' } } }],
  [
    '$first and $last',
    { sortBy: { ts: 1 }, output: { f: { $first: '$a' }, l: { $last: '$a', window: { documents: [-1, 1] } } } },
  ],
  ['$minN', sorted({ $minN: { n: 2, input: '$a' }, window: { documents: [-1, 1] } })],
  ['$topN', sorted({ $topN: { n: 2, sortBy: { a: 1 }, output: '$a' } })],
  ['$stdDevPop', sorted({ $stdDevPop: '$a', window: { documents: ['unbounded', 'current'] } })],
  ['a dotted output path', { sortBy: { ts: 1 }, output: { 'x.y': { $sum: 1 }, 'x.z': { $sum: 1 } } }],
  ['a descending sortBy with $rank', { sortBy: { ts: -1 }, output: { v: { $rank: {} } } }],
];

describe('$setWindowFields specifications mongod accepts', () => {
  it.each(ACCEPTED)('should run %s', async (_label, spec) => {
    const collection = await fx.fresh('window_spec');
    await collection.insertMany([
      { _id: 1, ts: 1, a: 1 },
      { _id: 2, ts: 2, a: 2 },
      { _id: 3, ts: 3, a: 3 },
    ] as never[]);
    const docs = await collection.aggregate([{ $setWindowFields: spec }]).toArray();
    expect(docs).toHaveLength(3);
  });

  it('should run a time range', async () => {
    const collection = await fx.fresh('window_spec');
    await collection.insertMany([
      { ts: new Date(0), a: 1 },
      { ts: new Date(3_600_000), a: 2 },
    ] as never[]);
    const spec = sorted({ $sum: '$a', window: { range: [-3, 'unbounded'], unit: 'hour' } });
    const docs = await collection.aggregate([{ $setWindowFields: spec }, { $project: { _id: 0, v: 1 } }]).toArray();
    expect(docs).toEqual([{ v: 3 }, { v: 3 }]);
  });
});
