/**
 * Conformance: a bad filter, pipeline or update fails as mongod parses it,
 * before any document is read, so it fails on an empty or missing collection
 * too. Codes from MongoDB 7; passes against MONGO_URL too.
 */
import { type Collection, MongoServerError } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

type Operation = (c: Collection) => Promise<unknown>;

const CASES: [string, Operation, number, RegExp][] = [
  ['find with an unknown operator', (c) => c.findOne({ a: { $foo: 1 } }), 2, /^unknown operator: \$foo$/],
  [
    'find with an unknown top-level operator',
    (c) => c.findOne({ $foo: 1 } as never),
    2,
    /^unknown top level operator: \$foo/,
  ],
  [
    'countDocuments with an unknown operator',
    (c) => c.countDocuments({ a: { $foo: 1 } }),
    2,
    /^unknown operator: \$foo$/,
  ],
  ['deleteMany with an unknown operator', (c) => c.deleteMany({ a: { $foo: 1 } }), 2, /^unknown operator: \$foo$/],
  [
    'updateMany with an unknown operator',
    (c) => c.updateMany({ a: { $foo: 1 } }, { $set: { b: 1 } }),
    2,
    /^unknown operator: \$foo$/,
  ],
  [
    'updateOne with an unknown modifier',
    (c) => c.updateOne({}, { $foo: { a: 1 } } as never),
    9,
    /^Unknown modifier: \$foo/,
  ],
  [
    'findOneAndUpdate with a bad $inc',
    (c) => c.findOneAndUpdate({}, { $inc: { a: 'x' } } as never),
    14,
    /^Cannot increment with non-numeric argument/,
  ],
  [
    'aggregate with an unknown stage',
    (c) => c.aggregate([{ $foo: {} }]).toArray(),
    40324,
    /^Unrecognized pipeline stage name: '\$foo'$/,
  ],
  [
    'aggregate with an unknown operator in $match',
    (c) => c.aggregate([{ $match: { a: { $foo: 1 } } }]).toArray(),
    2,
    /^unknown operator: \$foo$/,
  ],
  [
    'aggregate with an unknown operator in a later $match',
    (c) => c.aggregate([{ $skip: 1 }, { $match: { a: { $foo: 1 } } }]).toArray(),
    2,
    /^unknown operator: \$foo$/,
  ],
  // mongod's projection parser: an object of one unknown `$` field is no expression and no field path (31325);
  // inside an expression, an unknown operator is the expression parser's 168.
  [
    'aggregate with an unknown expression as a $project field',
    (c) => c.aggregate([{ $project: { x: { $foo: 1 } } }]).toArray(),
    31325,
    /^Invalid \$project :: caused by :: Unknown expression \$foo$/,
  ],
  [
    'aggregate with an unknown expression in a $project sub-projection',
    (c) => c.aggregate([{ $project: { x: { y: { $foo: 1 } } } }]).toArray(),
    31325,
    /^Invalid \$project :: caused by :: Unknown expression \$foo$/,
  ],
  [
    'aggregate with an unknown expression inside a $project expression',
    (c) => c.aggregate([{ $project: { x: { $add: [1, { $foo: 1 }] } } }]).toArray(),
    168,
    /^Invalid \$project :: caused by :: Unrecognized expression '\$foo'$/,
  ],
  [
    'aggregate with an unknown expression in $addFields',
    (c) => c.aggregate([{ $addFields: { x: { $foo: 1 } } }]).toArray(),
    168,
    /Unrecognized expression '\$foo'/,
  ],
  [
    'aggregate with an unknown accumulator',
    (c) => c.aggregate([{ $group: { _id: null, x: { $foo: 1 } } }]).toArray(),
    15952,
    /^unknown group operator '\$foo'$/,
  ],
  [
    'aggregate with a stage of two fields',
    (c) => c.aggregate([{ $skip: 1, $limit: 1 }]).toArray(),
    40323,
    /^A pipeline stage specification object must contain exactly one field\.$/,
  ],
  [
    'aggregate with a $slice of one argument (find-only)',
    (c) => c.aggregate([{ $project: { a: { $slice: 1 } } }]).toArray(),
    28667,
    /^Invalid \$project :: caused by :: Expression \$slice takes at least 2 arguments, and at most 3, but 1 were passed in\.$/,
  ],
  ...(
    [
      [
        '$size of two operands',
        { $size: ['$a', 1] },
        16020,
        'Expression $size takes exactly 1 arguments. 2 were passed in.',
      ],
      [
        '$substr of two operands',
        { $substr: ['$s', 1] },
        16020,
        // mongod's $substr is its $substrBytes, named so in the message.
        'Expression $substrBytes takes exactly 3 arguments. 2 were passed in.',
      ],
      ['$eq of one operand', { $eq: '$a' }, 16020, 'Expression $eq takes exactly 2 arguments. 1 were passed in.'],
      [
        '$cond of two operands',
        { $cond: [true, 1] },
        16020,
        'Expression $cond takes exactly 3 arguments. 2 were passed in.',
      ],
      [
        '$range of one operand',
        { $range: [5] },
        28667,
        'Expression $range takes at least 2 arguments, and at most 3, but 1 were passed in.',
      ],
      [
        '$round of three operands',
        { $round: [1, 2, 3] },
        28667,
        'Expression $round takes at least 1 arguments, and at most 2, but 3 were passed in.',
      ],
    ] as [string, object, number, string][]
  ).map(([label, expression, code, message]): [string, Operation, number, RegExp] => [
    `aggregate with ${label}`,
    (c) => c.aggregate([{ $project: { x: expression } }]).toArray(),
    code,
    // $project parses its specification in a block that prefixes any error with its name.
    new RegExp(`^Invalid \\$project :: caused by :: ${message.replace(/[$.]/g, '\\$&')}$`),
  ]),
  ...(
    [
      ['find', (c) => c.findOne({ $expr: { $foo: 1 } })],
      ['find under $or', (c) => c.findOne({ $or: [{ a: 1 }, { $expr: { $foo: 1 } }] })],
      ['countDocuments', (c) => c.countDocuments({ $expr: { $foo: 1 } })],
      ['distinct', (c) => c.distinct('a', { $expr: { $foo: 1 } })],
      ['deleteMany', (c) => c.deleteMany({ $expr: { $foo: 1 } })],
      ['updateMany', (c) => c.updateMany({ $expr: { $foo: 1 } }, { $set: { b: 1 } })],
      ['findOneAndUpdate', (c) => c.findOneAndUpdate({ $expr: { $foo: 1 } }, { $set: { b: 1 } })],
      ['a $match stage', (c) => c.aggregate([{ $match: { $expr: { $foo: 1 } } }]).toArray()],
    ] as [string, Operation][]
  ).map(([where, operation]): [string, Operation, number, RegExp] => [
    `an unknown operator in ${where}'s $expr`,
    operation,
    168,
    /^Unrecognized expression '\$foo'$/,
  ]),
  ...(
    [
      ['find', (c) => c.findOne({ $expr: { $size: ['$a', 1] } })],
      ['countDocuments', (c) => c.countDocuments({ $expr: { $size: ['$a', 1] } })],
      ['deleteMany', (c) => c.deleteMany({ $and: [{ $expr: { $size: ['$a', 1] } }] })],
      ['updateMany', (c) => c.updateMany({ $expr: { $size: ['$a', 1] } }, { $set: { b: 1 } })],
      ['a $match stage', (c) => c.aggregate([{ $match: { $expr: { $size: ['$a', 1] } } }]).toArray()],
      ['a find projection', (c) => c.findOne({}, { projection: { x: { $size: ['$a', 1] } } })],
    ] as [string, Operation][]
  ).map(([where, operation]): [string, Operation, number, RegExp] => [
    `$size of two operands in ${where}`,
    operation,
    16020,
    /^Expression \$size takes exactly 1 arguments\. 2 were passed in\.$/,
  ]),
  [
    'an unknown expression as a find projection field',
    (c) => c.findOne({}, { projection: { x: { $foo: 1 } } }),
    31325,
    /^Unknown expression \$foo$/,
  ],
  [
    'an unknown expression in a find sub-projection',
    (c) => c.findOne({}, { projection: { x: { y: { $foo: 1 } } } }),
    31325,
    /^Unknown expression \$foo$/,
  ],
  [
    'an unknown expression inside a find projection expression',
    (c) => c.findOne({}, { projection: { x: { $concat: ['a', { $foo: 1 }] } } }),
    168,
    /^Unrecognized expression '\$foo'$/,
  ],
  [
    "an unknown expression in findOneAndUpdate's projection",
    (c) => c.findOneAndUpdate({}, { $set: { b: 1 } }, { projection: { x: { $foo: 1 } } }),
    31325,
    /^Unknown expression \$foo$/,
  ],
  [
    'aggregate with a positional projection (find-only)',
    (c) => c.aggregate([{ $project: { 'a.$': 1 } }]).toArray(),
    31324,
    /^Invalid \$project :: caused by :: Cannot use positional projection in aggregation projection$/,
  ],
  ...(
    [
      ['in $project', (c) => c.aggregate([{ $project: { x: '$$nope' } }]).toArray(), '$project'],
      ['in a $group accumulator', (c) => c.aggregate([{ $group: { _id: null, x: { $sum: '$$nope.a' } } }]).toArray()],
      ['in a $match $expr', (c) => c.aggregate([{ $match: { $expr: { $eq: ['$a', '$$nope'] } } }]).toArray()],
      ['in a find $expr', (c) => c.findOne({ $expr: { $eq: ['$a', '$$nope'] } })],
      ['in a find projection', (c) => c.findOne({}, { projection: { x: { $add: ['$a', '$$nope'] } } })],
      ['in a deleteMany $expr', (c) => c.deleteMany({ $or: [{ $expr: { $eq: ['$a', '$$nope'] } }] })],
      [
        'outside the $map that defines it',
        (c) =>
          c
            .aggregate([{ $project: { x: { $add: [{ $map: { input: [1], as: 'nope', in: '$$nope' } }, '$$nope'] } } }])
            .toArray(),
        '$project',
      ],
      [
        'in a $lookup sub-pipeline that does not define it',
        (c) =>
          c
            .aggregate([
              { $lookup: { from: 'other', let: { a: '$a' }, pipeline: [{ $project: { x: '$$nope' } }], as: 'j' } },
            ])
            .toArray(),
        '$project',
      ],
    ] as [string, Operation, string?][]
  ).map(([where, operation, stage]): [string, Operation, number, RegExp] => [
    `an undefined variable ${where}`,
    operation,
    17276,
    stage ? /^Invalid \$project :: caused by :: Use of undefined variable: nope$/ : /^Use of undefined variable: nope$/,
  ]),
];

describe('errors raised before reading', () => {
  describe.each([
    ['an empty collection', true],
    ['a missing collection', false],
  ])('on %s', (_label, create) => {
    it.each(CASES)('should refuse %s', async (_name, operation, code, message) => {
      const c = await fx.fresh('eager');
      if (create) await fx.db.createCollection('eager');
      const error = await operation(c).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).code).toBe(code);
      expect((error as MongoServerError).message).toMatch(message);
    });
  });

  it.each<[string, Operation]>([
    ['$let', (c) => c.aggregate([{ $project: { x: { $let: { vars: { v: 1 }, in: '$$v' } } } }]).toArray()],
    ['$map (as)', (c) => c.aggregate([{ $project: { x: { $map: { input: '$l', as: 'v', in: '$$v' } } } }]).toArray()],
    ['$map (this)', (c) => c.aggregate([{ $project: { x: { $map: { input: '$l', in: '$$this' } } } }]).toArray()],
    ['$filter', (c) => c.aggregate([{ $project: { x: { $filter: { input: '$l', cond: '$$this' } } } }]).toArray()],
    [
      '$reduce',
      (c) =>
        c
          .aggregate([
            { $project: { x: { $reduce: { input: '$l', initialValue: 0, in: { $add: ['$$value', '$$this'] } } } } },
          ])
          .toArray(),
    ],
    [
      "$lookup's let",
      (c) =>
        c
          .aggregate([
            {
              $lookup: {
                from: 'eager',
                let: { v: '$a' },
                pipeline: [{ $match: { $expr: { $eq: ['$a', '$$v'] } } }],
                as: 'j',
              },
            },
          ])
          .toArray(),
    ],
    ["the command's let", (c) => c.aggregate([{ $project: { x: '$$v' } }], { let: { v: 1 } }).toArray()],
    ['system variables', (c) => c.aggregate([{ $project: { x: '$$ROOT.a', y: '$$CURRENT', n: '$$NOW' } }]).toArray()],
  ])('should accept a variable defined by %s', async (_label, operation) => {
    const c = await fx.fresh('eager');
    await c.insertOne({ a: 1, l: [1, 2] });
    await expect(operation(c)).resolves.toBeDefined();
  });
});
