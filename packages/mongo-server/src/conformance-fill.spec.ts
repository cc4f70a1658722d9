/**
 * Conformance: `$fill` as mongod runs it (document_source_fill.cpp): a
 * `$setWindowFields` of `$locf`/`$linearFill` for each `method`, then an
 * `$addFields` of `{ $ifNull: ['$<field>', <value>] }` for each `value`.
 * The cases of mongod's jstests/aggregation/sources/fill/fill.js and
 * fill_parse.js, and the documentation's. Written to hold against a real
 * MongoDB 7 (MONGO_URL) too.
 */
import type { Document } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** fill.js's collection. */
const DOCUMENTS: Document[] = [
  { _id: 1, linear: 1, other: 1, part: 1 },
  { _id: 2, linear: 1, other: 1, part: 2 },
  { _id: 3, linear: null, other: null, part: 1 },
  { _id: 4, linear: null, other: null, part: 2 },
  { _id: 5, linear: 5, other: 10, part: 1 },
  { _id: 6, linear: 6, other: 2, part: 2 },
  { _id: 7, linear: null, other: null, part: 1 },
  { _id: 8, linear: 3, other: 5, part: 2 },
  { _id: 9, linear: 7, other: 15, part: 1 },
  { _id: 10, linear: null, other: null, part: 2 },
];

/** The documents by `_id`, for results whose order the pipeline leaves open (fill.js compares them as sets). */
const byId = (docs: Document[]): Document[] => [...docs].sort((a, b) => (a._id as number) - (b._id as number));

describe('conformance: $fill', () => {
  describe('fill.js', () => {
    beforeAll(async () => {
      const coll = await fx.fresh('fill');
      await coll.insertMany(DOCUMENTS.map((doc) => ({ ...doc })));
    });

    const locfByPart = [
      { _id: 1, linear: 1, other: 1, part: 1 },
      { _id: 2, linear: 1, other: 1, part: 2 },
      { _id: 3, linear: null, other: 1, part: 1 },
      { _id: 4, linear: null, other: 1, part: 2 },
      { _id: 5, linear: 5, other: 10, part: 1 },
      { _id: 6, linear: 6, other: 2, part: 2 },
      { _id: 7, linear: null, other: 10, part: 1 },
      { _id: 8, linear: 3, other: 5, part: 2 },
      { _id: 9, linear: 7, other: 15, part: 1 },
      { _id: 10, linear: null, other: 5, part: 2 },
    ];
    const linearByPart = [
      { _id: 1, linear: 1, other: 1, part: 1 },
      { _id: 2, linear: 1, other: 1, part: 2 },
      { _id: 3, linear: 3, other: null, part: 1 },
      { _id: 4, linear: 3.5, other: null, part: 2 },
      { _id: 5, linear: 5, other: 10, part: 1 },
      { _id: 6, linear: 6, other: 2, part: 2 },
      { _id: 7, linear: 6, other: null, part: 1 },
      { _id: 8, linear: 3, other: 5, part: 2 },
      { _id: 9, linear: 7, other: 15, part: 1 },
      { _id: 10, linear: null, other: null, part: 2 },
    ];

    it.each<[string, Document[], Document[]]>([
      [
        'linear in one partition',
        [
          { $match: { part: 1 } },
          { $project: { other: 0, part: 0 } },
          { $fill: { sortBy: { _id: 1 }, output: { linear: { method: 'linear' } } } },
        ],
        [
          { _id: 1, linear: 1 },
          { _id: 3, linear: 3 },
          { _id: 5, linear: 5 },
          { _id: 7, linear: 6 },
          { _id: 9, linear: 7 },
        ],
      ],
      [
        'locf over the collection',
        [
          { $project: { linear: 0, part: 0 } },
          { $fill: { sortBy: { _id: 1 }, output: { other: { method: 'locf' } } } },
        ],
        [1, 1, 1, 1, 10, 2, 2, 5, 15, 15].map((other, i) => ({ _id: i + 1, other })),
      ],
      [
        'locf and linear together',
        [
          { $match: { part: 2 } },
          { $fill: { sortBy: { _id: 1 }, output: { other: { method: 'locf' }, linear: { method: 'linear' } } } },
        ],
        [
          { _id: 2, linear: 1, other: 1, part: 2 },
          { _id: 4, linear: 3.5, other: 1, part: 2 },
          { _id: 6, linear: 6, other: 2, part: 2 },
          { _id: 8, linear: 3, other: 5, part: 2 },
          { _id: 10, linear: null, other: 5, part: 2 },
        ],
      ],
      [
        'locf by partitionByFields',
        [{ $fill: { sortBy: { _id: 1 }, output: { other: { method: 'locf' } }, partitionByFields: ['part'] } }],
        locfByPart,
      ],
      [
        'locf by partitionBy',
        [{ $fill: { sortBy: { _id: 1 }, output: { other: { method: 'locf' } }, partitionBy: { part: '$part' } } }],
        locfByPart,
      ],
      [
        'linear by partitionByFields',
        [{ $fill: { sortBy: { _id: 1 }, output: { linear: { method: 'linear' } }, partitionByFields: ['part'] } }],
        linearByPart,
      ],
      [
        'linear by partitionBy',
        [{ $fill: { sortBy: { _id: 1 }, output: { linear: { method: 'linear' } }, partitionBy: { part: '$part' } } }],
        linearByPart,
      ],
      [
        'locf and linear by partition',
        [
          {
            $fill: {
              sortBy: { _id: 1 },
              output: { other: { method: 'locf' }, linear: { method: 'linear' } },
              partitionByFields: ['part'],
            },
          },
        ],
        linearByPart.map((doc, i) => ({ ...doc, other: locfByPart[i]!.other })),
      ],
      [
        'a partition whose first value is null',
        [
          { $set: { linear: { $cond: [{ $eq: ['$linear', 1] }, null, '$linear'] } } },
          {
            $fill: {
              sortBy: { _id: 1 },
              output: { other: { method: 'locf' }, linear: { method: 'linear' } },
              partitionByFields: ['part'],
            },
          },
        ],
        [
          { _id: 1, linear: null, other: 1, part: 1 },
          { _id: 2, linear: null, other: 1, part: 2 },
          { _id: 3, linear: null, other: 1, part: 1 },
          { _id: 4, linear: null, other: 1, part: 2 },
          { _id: 5, linear: 5, other: 10, part: 1 },
          { _id: 6, linear: 6, other: 2, part: 2 },
          { _id: 7, linear: 6, other: 10, part: 1 },
          { _id: 8, linear: 3, other: 5, part: 2 },
          { _id: 9, linear: 7, other: 15, part: 1 },
          { _id: 10, linear: null, other: 5, part: 2 },
        ],
      ],
      [
        'a value read from the document',
        [
          { $match: { part: 1 } },
          { $project: { linear: 0, part: 0 } },
          { $fill: { sortBy: { _id: 1 }, output: { other: { value: '$_id' } } } },
        ],
        [
          { _id: 1, other: 1 },
          { _id: 3, other: 3 },
          { _id: 5, other: 10 },
          { _id: 7, other: 7 },
          { _id: 9, other: 15 },
        ],
      ],
      [
        'a constant value',
        [
          { $match: { part: 1 } },
          { $project: { linear: 0, part: 0 } },
          { $fill: { sortBy: { _id: 1 }, output: { other: { value: -1 } } } },
        ],
        [1, -1, 10, -1, 15].map((other, i) => ({ _id: 2 * i + 1, other })),
      ],
      [
        'two values, one an expression',
        [
          { $match: { part: 1 } },
          {
            $fill: { sortBy: { _id: 1 }, output: { other: { value: -1 }, linear: { value: { $add: ['$part', 1] } } } },
          },
          { $project: { part: 0 } },
        ],
        [
          { _id: 1, other: 1, linear: 1 },
          { _id: 3, other: -1, linear: 2 },
          { _id: 5, other: 10, linear: 5 },
          { _id: 7, other: -1, linear: 2 },
          { _id: 9, other: 15, linear: 7 },
        ],
      ],
      [
        'a value that is missing or null',
        [
          { $match: { part: 1 } },
          { $project: { part: 0 } },
          { $unionWith: { pipeline: [{ $documents: [{ _id: 2 }, { _id: 4 }] }] } },
          { $fill: { sortBy: { _id: 1 }, output: { other: { value: '$linear' } } } },
          { $project: { linear: 0 } },
        ],
        [
          { _id: 1, other: 1 },
          { _id: 2 },
          { _id: 3, other: null },
          { _id: 4 },
          { _id: 5, other: 10 },
          { _id: 7, other: null },
          { _id: 9, other: 15 },
        ],
      ],
    ])('should fill %s', async (_name, pipeline, expected) => {
      const results = await fx.client.db(fx.db.databaseName).collection('fill').aggregate(pipeline).toArray();
      expect(byId(results)).toEqual(expected);
    });
  });

  it('should carry the last value forward without a sortBy, in the order documents come', async () => {
    const coll = await fx.fresh('fill_locf_unsorted');
    await coll.insertMany([{ _id: 1, v: 1 }, { _id: 2 }, { _id: 3, v: 4 }, { _id: 4 }] as Document[]);
    const results = await coll
      .aggregate([{ $sort: { _id: 1 } }, { $fill: { output: { v: { method: 'locf' } } } }])
      .toArray();
    expect(results).toEqual([
      { _id: 1, v: 1 },
      { _id: 2, v: 1 },
      { _id: 3, v: 4 },
      { _id: 4, v: 4 },
    ]);
  });

  it('should write null where linear has no value after, and keep the field order of $setWindowFields then $addFields', async () => {
    const coll = await fx.fresh('fill_linear_tail');
    await coll.insertMany([{ _id: 1, v: 2 }, { _id: 2 }, { _id: 3, v: 4 }, { _id: 4 }] as Document[]);
    const results = await coll
      .aggregate([{ $fill: { sortBy: { _id: 1 }, output: { z: { value: 0 }, v: { method: 'linear' } } } }])
      .toArray();
    expect(results).toEqual([
      { _id: 1, v: 2, z: 0 },
      { _id: 2, v: 3, z: 0 },
      { _id: 3, v: 4, z: 0 },
      { _id: 4, v: null, z: 0 },
    ]);
    expect(results.map((doc) => Object.keys(doc))).toEqual(results.map(() => ['_id', 'v', 'z']));
  });

  it.each<[string, unknown, number]>([
    ['a spec that is not an object', 'test', 9],
    ['no output', {}, 40414],
    ['an empty output', { output: {} }, 6050203],
    ['an unknown method', { output: { test: { method: 'random' } } }, 6050202],
    ['an output field that is not an object', { output: { test: 'random' } }, 6050200],
    ['an unknown field in an output', { output: { test: { method: 'locf', second: 'locf' } } }, 40415],
    ['a method and a value', { output: { test: { method: 'locf', value: 1 } } }, 6050201],
    [
      'partitionBy and partitionByFields',
      { output: { test: { method: 'locf' } }, partitionBy: { test: '$test' }, partitionByFields: ['$test'] },
      6050204,
    ],
    [
      'linear without a sortBy',
      { output: { test: { method: 'linear' } }, partitionBy: { part: '$part', partTwo: '$partTwo' } },
      605001,
    ],
    ['linear with a sortBy of two fields', { sortBy: { a: 1, b: 1 }, output: { test: { method: 'linear' } } }, 605001],
    ['an unknown field', { output: { test: { value: 1 } }, other: 1 }, 40415],
    ['a sortBy that is not an object', { sortBy: 1, output: { test: { value: 1 } } }, 14],
    ['a partitionBy that is a number', { partitionBy: 1, output: { test: { value: 1 } } }, 14],
    ['a method that is not a string', { output: { test: { method: 1 } } }, 14],
  ])('should refuse %s before reading a document', async (_name, spec, code) => {
    const coll = await fx.fresh('fill_parse');
    const error = await rejection(coll.aggregate([{ $fill: spec }]).toArray());
    expect(error.code).toBe(code);
  });
});
