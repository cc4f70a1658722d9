/**
 * Conformance: what find projections (and the same projection as an aggregate `$project`) make of
 * documents: positional `.$` projections (which array element the filter's match picks, through
 * `$elemMatch`, `$and`, `$in`, `$or`, nested paths and parallel arrays, and the errors when none or
 * several are possible), `$slice` at any depth and beside inclusions and exclusions, inclusion,
 * exclusion and computed projections of dotted paths through arrays, scalars and missing fields,
 * numeric path components, partial `_id` projections, path collisions, and computed fields
 * (`$add`, `$abs`, `$and`/`$or`, `$switch`/`$cond`, `$let`, `$$REMOVE`, comparisons) with their
 * short-circuiting and error codes.
 *
 * The cases and answers are those of mongod's own jstests (jstests/core/query/project:
 * positional_projection.js, positional_projection_multiple_array_fields.js,
 * projection_semantics.js, projection_conflicts.js, slice1.js, computed_projections.js and
 * id_partial_projection.js), which run against a real MongoDB; ported through the official driver.
 * Where a jstest compares with `assert.eq` (field order counts) so do these; where it uses
 * `assert.docEq`/`documentEq`/`arrayEq` field order (and, for `arrayEq`, result order) is free.
 * Written to hold against a real MongoDB 7 (MONGO_URL) too.
 */
import { BSON, Decimal128, type Document, Double, Int32, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';
import { expectDocument } from './raw-replies.fixture.js';

const fx = useDriverFixture();

/** The code of the server error `promise` is rejected with. */
async function codeOf(promise: Promise<unknown>): Promise<number> {
  return Number((await rejection(promise)).code);
}

/** A fresh collection holding `docs`. */
async function holding(name: string, docs: Document[], index?: Document): Promise<ReturnType<typeof fx.fresh>> {
  const coll = await fx.fresh(name);
  if (index) await coll.createIndex(index);
  // Shallow copies: the driver adds an `_id` to what it inserts; BSON values keep their classes.
  await coll.insertMany(docs.map((doc) => ({ ...doc })));
  return coll;
}

describe('positional_projection.js', () => {
  const XY = () => ({
    x: [
      { a: 1, b: 2 },
      { a: 2, c: 3 },
      { a: 1, d: 5 },
    ],
    y: [
      { aa: 1, bb: 2 },
      { aa: 2, cc: 3 },
      { aa: 1, dd: 5 },
    ],
  });
  const PQ = () => ({
    a: [
      { p: [1, 2], q: [3, 4] },
      { p: [5, 6], q: [7, 8] },
    ],
    b: [11, 12],
  });
  const ABC = () => ({ a: [1, 2, 3], b: [4, 5, 6] });

  // testSingleDocument(query, projection, input, expected): findOne, _id deleted, assert.eq.
  it.each<[string, Document, Document, Document, Document, Document?]>([
    ['a single object match (x.a: 2)', { 'x.a': 2 }, { 'x.$': 1 }, XY(), { x: [{ a: 2, c: 3 }] }],
    ['the first of several matches (x.a: 1)', { 'x.a': 1 }, { 'x.$': 1 }, XY(), { x: [{ a: 1, b: 2 }] }],
    [
      'a match in a two-element array',
      { 'x.a': 1 },
      { 'x.$': 1 },
      {
        x: [
          { a: 1, b: 3 },
          { a: -6, c: 3 },
        ],
      },
      { x: [{ a: 1, b: 3 }] },
    ],
    ['a match on the second array field', { 'y.dd': 5 }, { 'y.$': 1 }, XY(), { y: [{ aa: 1, dd: 5 }] }],
    [
      'a nested path',
      { 'x.y.a': 1 },
      { 'x.y.$': 1 },
      {
        x: {
          y: [
            { a: 1, b: 1 },
            { a: 1, b: 2 },
          ],
        },
      },
      { x: { y: [{ a: 1, b: 1 }] } },
    ],
    ['a non-existent field and an empty filter', {}, { 'g.$': 1 }, XY(), {}],
    ['a non-existent field and a dotted filter', { 'a.b': 1 }, { 'g.$': 1 }, { a: { b: 1 } }, {}],
    ['a missing path the filter does not name', { x: 1 }, { 'a.$': 1 }, { x: 1 }, {}],
    [
      'the existing part of a path that is not there',
      { x: { $gt: 0 } },
      { 'a.b.c.$': 1 },
      { x: [-1, 1, 2], a: { b: { d: [1, 2, 3], f: 456 }, e: 123 } },
      { a: { b: {} } },
    ],
    [
      'the relevant part of a path through nested arrays',
      { x: 1 },
      { 'a.b.c.$': 1 },
      { x: [1], a: [{ b: [[[{ c: 1, d: 2 }]]] }] },
      { a: [{ b: [[[{ c: 1 }]]] }] },
    ],
    [
      'a path holding no array (object at its end)',
      { x: { $gt: 0 } },
      { 'a.b.c.$': 1 },
      { x: [-1, 1, 2], a: { b: { c: { d: { e: 1 } } } } },
      { a: { b: { c: { d: { e: 1 } } } } },
    ],
    [
      'a path holding no array (scalar at its end)',
      { x: { $gt: 0 } },
      { 'a.b.c.$': 1 },
      { x: [-1, 1, 2], a: { b: { c: 123 } } },
      { a: { b: { c: 123 } } },
    ],
    [
      'the first array on the path (a)',
      { 'x.y.z': 1 },
      { 'a.b.c.$': 1 },
      { x: { y: { z: [0, 1, 2] } }, a: [{ b: { c: [1, 2, 3] } }, { b: { c: [4, 5, 6] } }, { b: { c: [7, 8, 9] } }] },
      { a: [{ b: { c: [4, 5, 6] } }] },
    ],
    [
      'the first array on the path (a.b)',
      { 'x.y.z': 1 },
      { 'a.b.c.$': 1 },
      { x: { y: { z: [0, 1, 2] } }, a: { b: [{ c: [1, 2, 3] }, { c: [4, 5, 6] }, { c: [7, 8, 9] }] } },
      { a: { b: [{ c: [4, 5, 6] }] } },
    ],
    [
      'the first array on the path (a.b.c)',
      { 'x.y.z': 1 },
      { 'a.b.c.$': 1 },
      { x: { y: { z: [0, 1, 2] } }, a: { b: { c: [1, 2, 3] } } },
      { a: { b: { c: [2] } } },
    ],
    ['$elemMatch on values', { x: { $elemMatch: { $gt: 1, $lt: 3 } } }, { 'x.$': 1 }, { x: [1, 2, 3] }, { x: [2] }],
    [
      '$elemMatch on a field',
      { x: { $elemMatch: { y: { $gt: 1 } } } },
      { 'x.$': 1 },
      { x: [{ y: 1 }, { y: 2 }, { y: 3 }] },
      { x: [{ y: 2 }] },
    ],
    [
      '$elemMatch on two fields',
      { x: { $elemMatch: { a: 1, b: 2 } } },
      { 'x.$': 1 },
      { x: XY().x },
      { x: [{ a: 1, b: 2 }] },
    ],
    [
      'nested $elemMatch on arrays of arrays',
      { a: { $elemMatch: { $elemMatch: { $eq: 3 } } } },
      { 'b.$': 1 },
      {
        a: [
          [1, 2],
          [3, 4],
        ],
        b: [
          [5, 6],
          [7, 8],
        ],
      },
      { b: [[7, 8]] },
    ],
    [
      'nested $elemMatch on p (2)',
      { a: { $elemMatch: { p: { $elemMatch: { $eq: 2 } } } } },
      { 'b.$': 1 },
      PQ(),
      { b: [11] },
    ],
    [
      'nested $elemMatch on p (6)',
      { a: { $elemMatch: { p: { $elemMatch: { $eq: 6 } } } } },
      { 'b.$': 1 },
      PQ(),
      { b: [12] },
    ],
    [
      'nested $elemMatch on q (3)',
      { a: { $elemMatch: { q: { $elemMatch: { $eq: 3 } } } } },
      { 'b.$': 1 },
      PQ(),
      { b: [11] },
    ],
    [
      'nested $elemMatch on q (7)',
      { a: { $elemMatch: { q: { $elemMatch: { $eq: 7 } } } } },
      { 'b.$': 1 },
      PQ(),
      { b: [12] },
    ],
    [
      'a filter on an indexed field',
      { 'y.d': 4 },
      { 'y.$': 1 },
      {
        x: [
          { a: 1, b: 2 },
          { a: 3, b: 4 },
        ],
        y: [
          { c: 1, d: 2 },
          { c: 3, d: 4 },
        ],
      },
      { y: [{ c: 3, d: 4 }] },
      { 'y.d': 1 },
    ],
    [
      'a filter under an indexed field',
      { 'covered.dd': 5 },
      { 'covered.$': 1 },
      { x: XY().x, covered: XY().y },
      { covered: [{ aa: 1, dd: 5 }] },
      { covered: 1 },
    ],
    ['the last child of $and (1, 2, 3)', { $and: [{ a: 1 }, { a: 2 }, { a: 3 }] }, { 'b.$': 1 }, ABC(), { b: [6] }],
    ['the last child of $and (3, 2, 1)', { $and: [{ a: 3 }, { a: 2 }, { a: 1 }] }, { 'b.$': 1 }, ABC(), { b: [4] }],
    ['the first match of $in', { a: { $in: [2, 3] } }, { 'b.$': 1 }, ABC(), { b: [5] }],
    ['the first match of an $or like $in', { $or: [{ a: 2 }, { a: 3 }] }, { 'b.$': 1 }, ABC(), { b: [5] }],
    [
      '$elemMatch with $exists',
      { a: { $elemMatch: { y: { $exists: true } } } },
      { 'a.$': 1 },
      { a: [{ y: 1 }, { y: 2 }] },
      { a: [{ y: 1 }] },
    ],
    [
      '$elemMatch with $type array',
      { a: { $elemMatch: { y: { $type: ['array'] } } } },
      { 'a.$': 1 },
      { a: [{ y: 1 }, { y: [] }] },
      { a: [{ y: [] }] },
    ],
    [
      '$elemMatch with $type array or double',
      { a: { $elemMatch: { y: { $type: ['array', 'double'] } } } },
      { 'a.$': 1 },
      // The shell's 1 is a double; the driver's is an int32.
      { a: [{ y: new Double(1) }, { y: [] }] },
      { a: [{ y: 1 }] },
    ],
  ])('should project %s', async (_label, query, projection, input, expected, index = undefined) => {
    const coll = await holding('positional_projection', [input], index);
    const actual: Document | null = await coll.findOne(query, { projection });
    delete actual?._id;
    expectDocument(actual, expected);
  });

  it('should apply the positional projection across getMore batches', async () => {
    const coll = await holding('positional_projection', [
      { _id: 0, group: 3, ...XY() },
      {
        _id: 1,
        group: 3,
        x: [
          { a: 1, b: 3 },
          { a: -6, c: 3 },
        ],
      },
    ]);
    const docs = await coll
      .find({ 'x.b': 2 }, { projection: { 'x.$': 1 } })
      .sort({ _id: 1 })
      .batchSize(1)
      .toArray();
    for (const doc of docs) expect((doc.x as Document[])[0].b).toBe(2);
  });

  const WITH_XY = [{ x: XY().x, y: [{ aa: 1 }] }];
  const WITH_ABC = [{ a: [1, 2, 3], b: [4, 5, 6], c: [7, 8, 9] }];
  it.each<[string, Document[], Document, Document, number, Document?]>([
    ['a positional path with $slice', WITH_XY, { x: 1 }, { 'x.$': { $slice: 1 } }, 31271],
    ['a positional path with an exclusion', WITH_XY, { 'x.a': 2 }, { 'x.$': 1, y: 0 }, 31254, { x: 1 }],
    ['two positional paths', WITH_XY, { 'x.a': 1, 'y.aa': 1 }, { 'x.$': 1, 'y.$': 1 }, 31276],
    ['a positional path and an empty filter', WITH_XY, {}, { 'x.$': 1 }, 51246],
    ['a positional path and a whole-array equality', WITH_ABC, { b: [4, 5, 6] }, { 'c.$': 1 }, 51246],
    ['an $or over different fields (a: 1)', WITH_ABC, { $or: [{ a: 1 }, { b: 5 }] }, { 'a.$': 1 }, 51246],
    ['an $or over different fields (a: 0)', WITH_ABC, { $or: [{ a: 0 }, { b: 5 }] }, { 'a.$': 1 }, 51246],
    ['a $nor', WITH_ABC, { $nor: [{ a: -1 }, { a: -2 }] }, { 'a.$': 1 }, 51246],
    ['a positional operator alone (.$)', WITH_ABC, {}, { '.$': 1 }, 5392900],
    ['a $not $elemMatch', WITH_ABC, { a: { $not: { $elemMatch: { $eq: 100 } } } }, { 'a.$': 1 }, 51246],
  ])('should refuse %s (%#)', async (_label, docs, filter, projection, code, sort = undefined) => {
    const coll = await holding('positional_projection', docs);
    expect(await codeOf(coll.find(filter, { projection, ...(sort && { sort }) }).toArray())).toBe(code);
  });
});

describe('positional_projection_multiple_array_fields.js', () => {
  // testSingleDocument(query, projection, expected): findOne compared with documentEq.
  const AZ = [{ _id: 0, a: [1, 2, 3], z: [11, 12, 13] }];
  const JOBS = [{ _id: 0, importing: [{ foo: 'a' }, { foo: 'b' }], jobs: [{ num: 1 }, { num: 2 }, { num: 3 }] }];
  const ABZ = [
    {
      _id: 1,
      a: [
        { b: 1, c: 2 },
        { b: 3, c: 4 },
      ],
      z: [11, 12, 13],
    },
  ];
  const PARALLEL = [{ _id: 1, a: [1, 2, 3], b: ['one', 'two', 'three'] }];
  const DOTTED = [...PARALLEL, { _id: 2, a: { b: [1, 2, 3] }, c: { d: ['one', 'two', 'three'] } }];
  const SMALLER = [...DOTTED, { _id: 3, a: [4, 5, 6], b: ['four', 'five'] }];

  it.each<[string, Document[], Document, Document, Document]>([
    [
      '$slice beside a filter on another array',
      AZ,
      { z: 13 },
      { a: { $slice: 2 } },
      { _id: 0, a: [1, 2], z: [11, 12, 13] },
    ],
    ['$slice and a positional path', AZ, { z: 13 }, { a: { $slice: 2 }, 'z.$': 1 }, { _id: 0, a: [1, 2], z: [13] }],
    [
      '$slice 2 and a positional path on documents',
      JOBS,
      { 'importing.foo': 'b' },
      { jobs: { $slice: 2 }, 'importing.$': 1 },
      { _id: 0, importing: [{ foo: 'b' }], jobs: [{ num: 1 }, { num: 2 }] },
    ],
    [
      '$slice -1 and a positional path on documents',
      JOBS,
      { 'importing.foo': 'b' },
      { jobs: { $slice: -1 }, 'importing.$': 1 },
      { _id: 0, importing: [{ foo: 'b' }], jobs: [{ num: 3 }] },
    ],
    [
      'a dotted inclusion beside a filter on another array',
      ABZ,
      { z: 12 },
      { 'a.b': 1 },
      { _id: 1, a: [{ b: 1 }, { b: 3 }] },
    ],
    [
      'a dotted inclusion the positional path does not limit',
      ABZ,
      { z: 12 },
      { 'a.b': 1, 'z.$': 1 },
      { _id: 1, a: [{ b: 1 }, { b: 3 }], z: [12] },
    ],
    ['a parallel array', PARALLEL, { a: 2 }, { 'b.$': 1 }, { _id: 1, b: ['two'] }],
    ['a parallel array on a dotted path', DOTTED, { 'a.b': 2 }, { 'c.d.$': 1 }, { _id: 2, c: { d: ['two'] } }],
  ])('should project %s', async (_label, docs, filter, projection, expected) => {
    const coll = await holding('positional_projection_multiple_array_fields', docs);
    expect(await coll.findOne(filter, { projection })).toStrictEqual(expected);
  });

  it.each<[string, Document, Document, number]>([
    ['a smaller parallel array', { a: 6 }, { 'b.$': 1 }, 51247],
    ['a positional path and $elemMatch', { z: 11 }, { 'z.$': 1, a: { $elemMatch: { b: 1 } } }, 31255],
    ['a positional path beside a path under it', { 'a.b': 1 }, { 'a.$': 1, 'a.b': 1 }, 31249],
    ['two positional paths', { 'a.b': 1 }, { 'z.$': 1, 'a.$': 1 }, 31276],
  ])('should refuse %s', async (_label, filter, projection, code) => {
    const coll = await holding('positional_projection_multiple_array_fields', SMALLER);
    expect(await codeOf(coll.find(filter, { projection }).toArray())).toBe(code);
  });
});

describe('projection_conflicts.js', () => {
  it.each<[Document]>([
    [{ 'a.b': 1, a: { b: '$$REMOVE' } }],
    [{ 'a.b': 1, a: { b: { c: 1 } } }],
    [{ a: { b: { c: 1 } }, 'a.b': 1 }],
    [{ a: 1, 'a.b': 1 }],
    [{ 'a.b': 1, a: 1 }],
    [{ 'a.b': 1, 'a.b.c': 1 }],
    [{ 'a.b': 0, a: { b: { c: 0 } } }],
    [{ a: { b: { c: 0 } }, 'a.b': 0 }],
    [{ a: 0, 'a.b': 0 }],
    [{ 'a.b': 0, a: 0 }],
    [{ 'a.b': 0, 'a.b.c': 0 }],
  ])('should refuse %j in find (31249 or 31250) and in $project', async (projection) => {
    const coll = await holding('projection_conflicts', [{ a: { b: 1 } }]);
    expect([31250, 31249]).toContain(await codeOf(coll.find({}, { projection }).toArray()));
    // The jstest only asserts that the aggregate throws (it checks the find error's code twice).
    await rejection(coll.aggregate([{ $project: projection }]).toArray());
  });
});

describe('slice1.js', () => {
  const NUMBERS = { _id: 1, a: [0, 1, 2, 3, 4, 5, -5, -4, -3, -2, -1], b: 1, c: 1 };
  const COMMENTS = {
    comments: [
      { id: 0, text: 'a' },
      { id: 1, text: 'b' },
      { id: 2, text: 'c' },
      { id: 3, text: 'd' },
    ],
    title: 'foo',
  };
  const NESTED = {
    _id: 1,
    a: [
      [1, 1, 1],
      [2, 2, 2],
      [3, 3, 3],
    ],
    b: 1,
    c: 1,
  };
  const FIRST_TWO = COMMENTS.comments.slice(0, 2);

  // `out = t.findOne({}, projection)` then `assert.eq(out.<field>, value)` for each field given (undefined: absent).
  it.each<[string, Document, Document, Document]>([
    ['the first three', NUMBERS, { a: { $slice: 3 } }, { a: [0, 1, 2] }],
    ['the last three', NUMBERS, { a: { $slice: -3 } }, { a: [-3, -2, -1] }],
    ['skip 2, limit 3', NUMBERS, { a: { $slice: [2, 3] } }, { a: [2, 3, 4] }],
    ['skip to the fifth from last, limit 4', NUMBERS, { a: { $slice: [-5, 4] } }, { a: [-5, -4, -3, -2] }],
    ['skip to the fifth from last, limit 10', NUMBERS, { a: { $slice: [-5, 10] } }, { a: [-5, -4, -3, -2, -1] }],
    ['a slice alone, other fields kept', NUMBERS, { a: { $slice: 3 } }, { a: [0, 1, 2], b: 1, c: 1 }],
    ['a slice with b: true', NUMBERS, { a: { $slice: 3 }, b: true }, { a: [0, 1, 2], b: 1, c: undefined }],
    ['a slice with b: false', NUMBERS, { a: { $slice: 3 }, b: false }, { a: [0, 1, 2], b: undefined, c: 1 }],
    [
      'a slice in an inclusion projection',
      COMMENTS,
      { comments: { $slice: 2 }, irrelevantField: 1 },
      { comments: FIRST_TWO, title: undefined },
    ],
    [
      'a slice alone as an exclusion projection',
      COMMENTS,
      { comments: { $slice: 2 } },
      { comments: FIRST_TWO, title: 'foo' },
    ],
    [
      'a slice in an exclusion projection',
      COMMENTS,
      { comments: { $slice: 2 }, title: 0 },
      { comments: FIRST_TWO, title: undefined },
    ],
    ['the first of nested arrays', NESTED, { a: { $slice: 1 } }, { a: [[1, 1, 1]] }],
    ['the last of nested arrays', NESTED, { a: { $slice: -1 } }, { a: [[3, 3, 3]] }],
    [
      'skip 0, limit 2 of nested arrays',
      NESTED,
      { a: { $slice: [0, 2] } },
      {
        a: [
          [1, 1, 1],
          [2, 2, 2],
        ],
      },
    ],
  ])('should return %s', async (_label, input, projection, fields) => {
    const coll = await holding('slice1', [input]);
    const out = (await coll.findOne({}, { projection }))!;
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined) expect(out[field]).toBeUndefined();
      else expectDocument({ [field]: out[field] }, { [field]: value });
    }
  });

  it('should $slice only one level deep into nested arrays', async () => {
    const coll = await holding('slice1', [
      { _id: 1, a: { b: [1, 2, 3] } },
      { _id: 2, a: [{ b: [1, 2, 3] }] },
      { _id: 3, a: [[{ b: [1, 2, 3] }]] },
      { _id: 4, a: [[{ b: [1, 2, 3] }], { b: [1, 2, 3] }, 1, null, {}] },
    ]);
    const out = await coll
      .find({}, { projection: { a: { b: { $slice: [1, 1] } } } })
      .sort({ _id: 1 })
      .toArray();
    expectDocument(out, [
      { _id: 1, a: { b: [2] } },
      { _id: 2, a: [{ b: [2] }] },
      { _id: 3, a: [[{ b: [1, 2, 3] }]] },
      { _id: 4, a: [[{ b: [1, 2, 3] }], { b: [2] }, 1, null, {}] },
    ]);
  });

  const DEEP = () => ({
    a: [
      { b: { c: [1, 2, 3], d: 123 } },
      [{ b: { c: [1, 2, 3], d: 123 } }, { b: { c: [4, 5, 6], d: 456 } }],
      {
        b: [
          { c: [1, 2, 3], d: 123 },
          { c: [4, 5, 6], d: 456 },
        ],
      },
      { b: [[{ c: [1, 2, 3], d: 123 }], [{ c: [4, 5, 6], d: 456 }]] },
    ],
  });
  const COMPUTED_D = {
    a: [
      { b: { c: [2], d: 6 } },
      [{ b: { c: [1, 2, 3], d: 6 } }, { b: { c: [4, 5, 6], d: 6 } }],
      {
        b: [
          { c: [2], d: 6 },
          { c: [5], d: 6 },
        ],
      },
      { b: [[{ c: [1, 2, 3], d: 6 }], [{ c: [4, 5, 6], d: 6 }]] },
    ],
  };
  const DEEP_ARRAYS = { a: [[[{ b: [[[{ c: [1, 2, 3] }]]] }]]] };

  // testSingleDocument(projection, input, expected, deleteId, assertFn): findOne; ordered unless docEq.
  it.each<[string, Document, Document, Document, ('eq' | 'docEq')?, boolean?]>([
    [
      'a slice at the end of nested objects and arrays',
      { 'a.b.c.d.e': { $slice: [1, 1] } },
      { a: [{ b: [{ c: [{ d: [{ e: [1, 2, 3] }] }] }] }] },
      { a: [{ b: [{ c: [{ d: [{ e: [2] }] }] }] }] },
    ],
    [
      'a slice beside an inclusion at any array depth',
      { a: { b: { c: { $slice: [1, 1] }, d: 1 } } },
      DEEP(),
      {
        a: [
          { b: { c: [2], d: 123 } },
          [{ b: { c: [1, 2, 3], d: 123 } }, { b: { c: [4, 5, 6], d: 456 } }],
          {
            b: [
              { c: [2], d: 123 },
              { c: [5], d: 456 },
            ],
          },
          { b: [[{ c: [1, 2, 3], d: 123 }], [{ c: [4, 5, 6], d: 456 }]] },
        ],
      },
      'docEq',
    ],
    [
      'a slice beside an exclusion at any array depth',
      { a: { b: { c: { $slice: [1, 1] }, d: 0 } } },
      DEEP(),
      {
        a: [
          { b: { c: [2] } },
          [{ b: { c: [1, 2, 3] } }, { b: { c: [4, 5, 6] } }],
          { b: [{ c: [2] }, { c: [5] }] },
          { b: [[{ c: [1, 2, 3] }], [{ c: [4, 5, 6] }]] },
        ],
      },
    ],
    [
      'a slice beside a constant expression at any array depth',
      { a: { b: { c: { $slice: [1, 1] }, d: { $add: [1, 2, 3] } } } },
      DEEP(),
      COMPUTED_D,
      'docEq',
    ],
    [
      'a slice beside an expression of a field at any array depth',
      { a: { b: { c: { $slice: [1, 1] }, d: { $add: [{ $abs: '$e' }, -4] } } } },
      { ...DEEP(), e: -10 },
      COMPUTED_D,
      'docEq',
    ],
    [
      'two slices under one path',
      { a: { b: { c: { $slice: [1, 1] }, d: { $slice: -1 } } } },
      {
        a: [
          { b: { c: [1, 2, 3], d: [4, 5, 6] } },
          [{ b: { c: [1, 2, 3], d: [4, 5, 6] } }, { b: { c: [7, 8, 9], d: [10, 11, 12] } }],
          {
            b: [
              { c: [1, 2, 3], d: [4, 5, 6] },
              { c: [7, 8, 9], d: [10, 11, 12] },
            ],
          },
          { b: [[{ c: [1, 2, 3], d: [4, 5, 6] }], [{ c: [7, 8, 9], d: [10, 11, 12] }]] },
        ],
      },
      {
        a: [
          { b: { c: [2], d: [6] } },
          [{ b: { c: [1, 2, 3], d: [4, 5, 6] } }, { b: { c: [7, 8, 9], d: [10, 11, 12] } }],
          {
            b: [
              { c: [2], d: [6] },
              { c: [8], d: [12] },
            ],
          },
          { b: [[{ c: [1, 2, 3], d: [4, 5, 6] }], [{ c: [7, 8, 9], d: [10, 11, 12] }]] },
        ],
      },
    ],
    [
      'two slices under two paths',
      { a: { b: { $slice: [1, 1] } }, c: { d: { $slice: -1 } } },
      {
        a: [
          { b: [1, 2, 3] },
          [{ b: [1, 2, 3] }, { b: [4, 5, 6] }],
          {
            b: [
              [1, 2, 3],
              [4, 5, 6],
            ],
          },
        ],
        c: [
          { d: [1, 2, 3] },
          [{ d: [1, 2, 3] }, { d: [4, 5, 6] }],
          {
            d: [
              [1, 2, 3],
              [4, 5, 6],
              [7, 8, 9],
            ],
          },
        ],
      },
      {
        a: [{ b: [2] }, [{ b: [1, 2, 3] }, { b: [4, 5, 6] }], { b: [[4, 5, 6]] }],
        c: [{ d: [3] }, [{ d: [1, 2, 3] }, { d: [4, 5, 6] }], { d: [[7, 8, 9]] }],
      },
    ],
    ['a slice of an object, kept whole', { a: { $slice: 1 } }, { a: { c: 123 } }, { a: { c: 123 } }],
    [
      'a slice of an object beside an inclusion',
      { a: { $slice: 1 }, d: 1 },
      { a: { c: 123 }, d: 456 },
      { a: { c: 123 }, d: 456 },
      'docEq',
    ],
    [
      'a slice of an object beside an exclusion',
      { a: { $slice: 1 }, d: 0 },
      { a: { c: 123 }, d: 456 },
      { a: { c: 123 } },
    ],
    ['a slice of a missing path', { a: { $slice: 1 } }, { b: { e: 123 } }, { b: { e: 123 } }],
    [
      'a slice of a missing path beside an inclusion',
      { a: { $slice: 1 }, d: 1 },
      { b: { e: 123 }, d: 456 },
      { d: 456 },
    ],
    [
      'a slice of a missing path beside an exclusion',
      { a: { $slice: 1 }, d: 0 },
      { b: { e: 123 }, d: 456 },
      { b: { e: 123 } },
    ],
    ['no slice through deep arrays', { 'a.b.c': { $slice: 1 } }, DEEP_ARRAYS, DEEP_ARRAYS],
    [
      'no slice through deep arrays beside an inclusion',
      { 'a.b.c': { $slice: 1 }, d: 1 },
      { ...DEEP_ARRAYS, d: 456 },
      { ...DEEP_ARRAYS, d: 456 },
      'docEq',
    ],
    [
      'no slice through deep arrays beside an exclusion',
      { 'a.b.c': { $slice: 1 }, d: 0 },
      { ...DEEP_ARRAYS, d: 456 },
      DEEP_ARRAYS,
    ],
    [
      'inclusion filtering inside deep arrays a slice cannot reach',
      { e: 1, 'a.b': { $slice: 1 } },
      { e: 123, a: [[[{ b: [1, 2, 3], d: 4, f: 5 }]]] },
      { e: 123, a: [[[{ b: [1, 2, 3] }]]] },
    ],
    [
      'a slice beside _id: 1',
      { _id: 1, a: { $slice: [1, 1] } },
      { _id: 123, a: [1, 2, 3] },
      { _id: 123, a: [2] },
      'eq',
      false,
    ],
    ['a slice beside _id: 0', { _id: 0, a: { $slice: [1, 1] } }, { _id: 123, a: [1, 2, 3] }, { a: [2] }, 'eq', false],
  ])('should project %s', async (_label, projection, input, expected, assertFn = 'eq', deleteId = true) => {
    const coll = await holding('slice1', [input]);
    const actual: Document = (await coll.findOne({}, { projection }))!;
    if (deleteId) delete actual._id;
    if (assertFn === 'eq') expectDocument(actual, expected);
    else expect(actual).toStrictEqual(expected);
  });
});

describe('id_partial_projection.js', () => {
  it.each<[Document, Document[], ('eq' | 'docEq')?]>([
    [{ _id: 1 }, [{ _id: { a: 1, b: 1 } }, { _id: 3 }]],
    [{ '_id.a': 1 }, [{ _id: { a: 1 } }, {}]],
    [{ '_id.b': 1 }, [{ _id: { b: 1 } }, {}]],
    [
      { '_id.a': 0 },
      [
        { _id: { b: 1 }, sortKey: 1 },
        { _id: 3, sortKey: 2 },
      ],
      'docEq',
    ],
    [{ _id: 0 }, [{ sortKey: 1 }, { sortKey: 2 }]],
  ])('should project %j', async (projection, expected, assertFn = 'eq') => {
    const coll = await holding('id_partial_projection', [
      { _id: { a: 1, b: 1 }, sortKey: 1 },
      { _id: 3, sortKey: 2 },
    ]);
    const actual = await coll.find({}, { projection }).sort({ sortKey: 1 }).toArray();
    if (assertFn === 'eq') expectDocument(actual, expected);
    else expect(actual).toStrictEqual(expected);
  });
});

describe('projection_semantics.js', () => {
  interface Semantics {
    input: Document;
    projection: Document;
    expected: Document;
    indexes: Document[];
  }
  const CASES: [string, Semantics][] = [];
  let lastId = 0;
  /** testInputOutput: `_id` is given the next number; `expected` may be a function of it. */
  const io =
    (projection: Document, indexes: Document[] = []) =>
    (input: Document, expected: Document | ((id: number) => Document)): void => {
      const id = ++lastId;
      CASES.push([
        `${JSON.stringify(projection)} of ${JSON.stringify(input)}`,
        {
          input: { _id: id, ...input },
          projection,
          expected: typeof expected === 'function' ? expected(id) : expected,
          indexes,
        },
      ]);
    };

  // testTopLevelInclusion
  const includeA = io({ a: 1 }, [
    { _id: 1, a: 1 },
    { a: 1, _id: 1 },
  ]);
  includeA({ a: 'demo', b: 'other', x: 'extra' }, (id) => ({ _id: id, a: 'demo' }));
  includeA({ a: 'demo', aWSuffix: 'other', 'a.b': 'extra' }, (id) => ({ _id: id, a: 'demo' }));
  includeA({ a: null, b: 'other', x: 'extra' }, (id) => ({ _id: id, a: null }));
  io({ a: 1 })({ b: 'other', x: 'extra' }, (id) => ({ _id: id }));
  io({ a: 1 })({}, (id) => ({ _id: id }));
  // testIdentityInclusionA: the document comes back unchanged ({a: undefined} is left out, see below).
  for (const a of [
    null,
    {},
    [],
    { x: 1, b: 'scalar' },
    'scalar',
    { b: {} },
    [null],
    ['scalar'],
    [[]],
    [{}],
    [1, {}, 2],
  ]) {
    includeA({ a }, (id) => ({ _id: id, a }));
  }
  includeA({ a: [[1, 2], [{}], 2] }, (id) => ({ _id: id, a: [[1, 2], [{}], 2] }));
  includeA({ a: [{ b: 'scalar' }] }, (id) => ({ _id: id, a: [{ b: 'scalar' }] }));

  const includeOnlyA = io({ a: 1, _id: 0 }, [{ a: 1 }, { a: -1 }]);
  includeOnlyA({ a: 'demo', b: 'other', x: 'extra' }, { a: 'demo' });
  includeOnlyA({ a: 'demo', aWSuffix: 'other', 'a.b': 'extra' }, { a: 'demo' });
  includeOnlyA({ a: null, b: 'other', x: 'extra' }, { a: null });
  io({ a: 1, _id: 0 })({ b: 'other', x: 'extra' }, {});
  io({ a: 1, _id: 0 })({}, {});
  includeOnlyA({ a: null }, { a: null });
  includeOnlyA({ a: {} }, { a: {} });
  includeOnlyA({ a: [] }, { a: [] });
  includeOnlyA({ a: { x: 1, b: 'scalar' } }, { a: { x: 1, b: 'scalar' } });
  includeOnlyA({ a: { b: {} } }, { a: { b: {} } });
  includeOnlyA({ a: [{ b: 'scalar' }] }, { a: [{ b: 'scalar' }] });

  // testInclusionOneLevelOfNesting
  const includeADotB = io({ 'a.b': 1 }, [
    { _id: 1, 'a.b': 1 },
    { 'a.b': 1, _id: 1 },
  ]);
  includeADotB({ a: { b: 'demo', y: 'extra' }, x: 'extra' }, (id) => ({ _id: id, a: { b: 'demo' } }));
  includeADotB({ a: { b: 'demo' }, 'a.b': 'extra' }, (id) => ({ _id: id, a: { b: 'demo' } }));
  includeADotB({ a: { b: 'demo', _id: 'extra' } }, (id) => ({ _id: id, a: { b: 'demo' } }));
  includeADotB(
    {
      a: [
        { b: 1, c: 1 },
        { b: 2, c: 2 },
      ],
      x: 'extra',
    },
    (id) => ({ _id: id, a: [{ b: 1 }, { b: 2 }] }),
  );
  includeADotB({ a: [{ b: 1, c: 1 }, { c: 2 }], x: 'extra' }, (id) => ({ _id: id, a: [{ b: 1 }, {}] }));
  const aDotBNoIndexes = io({ 'a.b': 1 });
  aDotBNoIndexes({ b: 'other', x: 'extra' }, (id) => ({ _id: id }));
  aDotBNoIndexes({}, (id) => ({ _id: id }));
  aDotBNoIndexes({ a: {} }, (id) => ({ _id: id, a: {} }));
  aDotBNoIndexes({ a: 'scalar' }, (id) => ({ _id: id }));

  const includeOnlyADotB = io({ 'a.b': 1, _id: 0 }, [{ 'a.b': 1 }, { 'a.b': -1 }]);
  includeOnlyADotB({ a: { b: 'demo', y: 'extra' }, x: 'extra' }, { a: { b: 'demo' } });
  includeOnlyADotB({ a: { b: 'demo' }, 'a.b': 'extra' }, { a: { b: 'demo' } });
  includeOnlyADotB({ a: { b: 'demo', _id: 'extra' } }, { a: { b: 'demo' } });
  includeOnlyADotB(
    {
      a: [
        { b: 1, c: 1 },
        { b: 2, c: 2 },
      ],
      x: 'extra',
    },
    { a: [{ b: 1 }, { b: 2 }] },
  );
  includeOnlyADotB({ a: [{ b: 1, c: 1 }, { c: 2 }], x: 'extra' }, { a: [{ b: 1 }, {}] });
  includeOnlyADotB({ a: [], x: 'extra' }, { a: [] });
  includeOnlyADotB({ a: [{}, {}], x: 'extra' }, { a: [{}, {}] });
  includeOnlyADotB({ a: ['scalar', 'scalar'], x: 'extra' }, { a: [] });
  includeOnlyADotB({ a: [null] }, { a: [] });
  includeOnlyADotB({ a: ['scalar', {}, 'scalar', { c: 1 }], x: 'extra' }, { a: [{}, {}] });
  includeOnlyADotB({ a: [[]] }, { a: [[]] });
  includeOnlyADotB({ a: [[1, 2, 3]] }, { a: [[]] });
  includeOnlyADotB({ a: [[1, { b: 1 }, { b: 2, c: 2 }, 'scalar']] }, { a: [[{ b: 1 }, { b: 2 }]] });
  includeOnlyADotB(
    { a: [['x', { b: 1 }, { b: 2, c: 2 }, 'x'], [[{ b: 1 }]], [{ b: 1 }, [{ b: 2 }], [[{ b: [2] }]]]] },
    { a: [[{ b: 1 }, { b: 2 }], [[{ b: 1 }]], [{ b: 1 }, [{ b: 2 }], [[{ b: [2] }]]]] },
  );
  includeOnlyADotB({ a: [[], [[], [], [1], [{ c: 1 }]], { b: 1 }] }, { a: [[], [[], [], [], [{}]], { b: 1 }] });

  const includeOnlyADotBAndADotC = io({ 'a.b': 1, 'a.c': 1, _id: 0 }, [
    { a: 1 },
    { 'a.b': 1 },
    { 'a.c': 1 },
    { 'a.b': 1, 'a.c': 1 },
    { 'a.b': 1, 'a.c': -1 },
  ]);
  includeOnlyADotBAndADotC({ a: { b: 'scalar', c: 'scalar', d: 'extra' } }, { a: { b: 'scalar', c: 'scalar' } });
  includeOnlyADotBAndADotC(
    {
      a: [
        { b: 1, c: 2, d: 3 },
        { b: 4, c: 5, d: 6 },
      ],
    },
    {
      a: [
        { b: 1, c: 2 },
        { b: 4, c: 5 },
      ],
    },
  );
  includeOnlyADotBAndADotC(
    {
      a: [
        { b: 1, c: 2 },
        { b: 3, d: 4 },
      ],
    },
    { a: [{ b: 1, c: 2 }, { b: 3 }] },
  );
  includeOnlyADotBAndADotC(
    {
      a: [
        { c: 1, d: 2 },
        { b: 3, d: 4 },
      ],
    },
    { a: [{ c: 1 }, { b: 3 }] },
  );
  includeOnlyADotBAndADotC({ a: [] }, { a: [] });
  includeOnlyADotBAndADotC(
    { a: [{ b: 1, c: 2 }, 'extra', { b: 3, c: 4 }] },
    {
      a: [
        { b: 1, c: 2 },
        { b: 3, c: 4 },
      ],
    },
  );
  const includeADotBAndCNoIndexes = io({ 'a.b': 1, 'a.c': 1, _id: 0 });
  includeADotBAndCNoIndexes({ a: { b: 'scalar', d: 'extra' } }, { a: { b: 'scalar' } });
  includeADotBAndCNoIndexes({ a: { c: 'scalar', d: 'extra' } }, { a: { c: 'scalar' } });
  includeADotBAndCNoIndexes({ a: { d: 'extra' } }, { a: {} });

  // testInclusionLevelsOfNesting
  const includeADotBDotC = io({ 'a.b.c': 1, _id: 0 }, [{ 'a.b.c': 1 }, { 'a.b.c': -1 }]);
  includeADotBDotC({ a: { b: { c: 'demo', z: 'extra' }, y: 'extra' }, x: 'extra' }, { a: { b: { c: 'demo' } } });
  includeADotBDotC({ a: [{ b: { c: 1, d: 1 } }, { b: { c: 2, d: 2 } }] }, { a: [{ b: { c: 1 } }, { b: { c: 2 } }] });
  includeADotBDotC(
    {
      a: {
        b: [
          { c: 1, d: 1 },
          { c: 2, d: 2 },
        ],
      },
    },
    { a: { b: [{ c: 1 }, { c: 2 }] } },
  );
  includeADotBDotC(
    {
      a: [
        {
          b: [
            { c: 1, d: 1 },
            { c: 2, d: 2 },
          ],
        },
        {
          b: [
            { c: 3, d: 3 },
            { c: 4, d: 4 },
          ],
        },
      ],
    },
    { a: [{ b: [{ c: 1 }, { c: 2 }] }, { b: [{ c: 3 }, { c: 4 }] }] },
  );
  includeADotBDotC(
    {
      a: [
        {
          b: [
            { c: [1, 2, 3], d: 1 },
            { c: [2, 3, 4], d: 2 },
          ],
        },
        {
          b: [
            { c: [3, 4, 5], d: 3 },
            { c: [4, 5, 6], d: 4 },
          ],
        },
      ],
    },
    { a: [{ b: [{ c: [1, 2, 3] }, { c: [2, 3, 4] }] }, { b: [{ c: [3, 4, 5] }, { c: [4, 5, 6] }] }] },
  );
  includeADotBDotC(
    {
      a: [
        { bPrime: [{ c: 'x' }, { c: 'x' }] },
        {
          b: [
            { cPrime: 'x', d: 1 },
            { cPrime: 'x', d: 2 },
          ],
        },
        { b: [{ c: 3, d: 3 }, { cPrime: 'x', d: 4 }, { c: 5 }] },
        { bPrime: { somethingDifferent: 'just because' } },
      ],
    },
    { a: [{}, { b: [{}, {}] }, { b: [{ c: 3 }, {}, { c: 5 }] }, {}] },
  );
  const aDotBDotCNoIndexes = io({ 'a.b.c': 1, _id: 0 });
  aDotBDotCNoIndexes({}, {});
  aDotBDotCNoIndexes({ b: 'other', x: 'extra' }, {});
  aDotBDotCNoIndexes({ a: 'scalar' }, {});
  aDotBDotCNoIndexes({ a: null }, {});
  aDotBDotCNoIndexes({ a: {} }, { a: {} });
  aDotBDotCNoIndexes({ a: { bPrime: { c: 1 } } }, { a: {} });
  aDotBDotCNoIndexes({ a: { b: 'scalar' } }, { a: {} });
  aDotBDotCNoIndexes({ a: { b: { x: 1, y: 1 } } }, { a: { b: {} } });

  const includeOnlyADotBDotC = io({ 'a.b.c': 1, _id: 0 }, [{ 'a.b.c': 1 }, { 'a.b.c': -1 }]);
  includeOnlyADotBDotC({ a: [], x: 'extra' }, { a: [] });
  includeOnlyADotBDotC({ a: [{}, {}], x: 'extra' }, { a: [{}, {}] });
  includeOnlyADotBDotC({ a: ['scalar', 'scalar'], x: 'extra' }, { a: [] });
  includeOnlyADotBDotC({ a: [null] }, { a: [] });
  includeOnlyADotBDotC({ a: ['scalar', {}, 'scalar', { c: 1 }], x: 'extra' }, { a: [{}, {}] });
  includeOnlyADotBDotC({ a: [[]] }, { a: [[]] });
  includeOnlyADotBDotC({ a: [[1, 2, 3]] }, { a: [[]] });
  includeOnlyADotBDotC({ a: { b: [] } }, { a: { b: [] } });
  includeOnlyADotBDotC({ a: { b: ['scalar'] } }, { a: { b: [] } });
  includeOnlyADotBDotC({ a: { b: [[]] } }, { a: { b: [[]] } });
  includeOnlyADotBDotC({ a: [{ b: 'scalar' }] }, { a: [{}] });
  includeOnlyADotBDotC({ a: [{ b: [] }] }, { a: [{ b: [] }] });
  includeOnlyADotBDotC({ a: [{ b: ['scalar'] }] }, { a: [{ b: [] }] });
  includeOnlyADotBDotC({ a: [{ b: [[]] }] }, { a: [{ b: [[]] }] });
  includeOnlyADotBDotC({ a: [{ b: { x: 1 } }] }, { a: [{ b: {} }] });
  includeOnlyADotBDotC({ a: [{ b: [{}] }] }, { a: [{ b: [{}] }] });
  includeOnlyADotBDotC({ a: [[1, { b: 1 }, { b: 2, c: 2 }, 'scalar']] }, { a: [[{}, {}]] });
  includeOnlyADotBDotC({ a: [1, { b: [[1, 2], [{}], 2] }, 2] }, { a: [{ b: [[], [{}]] }] });
  includeOnlyADotBDotC(
    { a: [[1, 2], [{ b: [[1, 2], [{ c: [[1, 2], [{}], 2] }], 2] }], 2] },
    { a: [[], [{ b: [[], [{ c: [[1, 2], [{}], 2] }]] }]] },
  );
  includeOnlyADotBDotC(
    { a: [['x', { b: 1 }, { b: 2, c: 2 }, 'x'], [[{ b: 1 }]], [{ b: 1 }, [{ b: 2 }], [[{ b: [2] }]]]] },
    { a: [[{}, {}], [[{}]], [{}, [{}], [[{ b: [] }]]]] },
  );
  includeOnlyADotBDotC({ a: [[], [[], [], [1], [{ x: 1 }]], { b: 1 }] }, { a: [[], [[], [], [], [{}]], {}] });
  includeOnlyADotBDotC({ a: [{ b: { x: 1, c: 'scalar' } }] }, { a: [{ b: { c: 'scalar' } }] });
  includeOnlyADotBDotC({ a: [1, { b: { c: { x: 1 } } }, 2] }, { a: [{ b: { c: { x: 1 } } }] });
  includeOnlyADotBDotC({ a: [1, { b: { x: 1, c: 'scalar' } }, 2] }, { a: [{ b: { c: 'scalar' } }] });
  includeOnlyADotBDotC({ a: [[1, 2], [{ b: { x: 1, c: 'scalar' } }], 2] }, { a: [[], [{ b: { c: 'scalar' } }]] });
  includeOnlyADotBDotC(
    { a: { b: [{ c: 'scalar' }, { c: 'scalar2' }] } },
    { a: { b: [{ c: 'scalar' }, { c: 'scalar2' }] } },
  );
  includeOnlyADotBDotC({ a: { b: [1, { c: 'scalar' }, 2] } }, { a: { b: [{ c: 'scalar' }] } });
  includeOnlyADotBDotC({ a: { b: [[1, 2], [{ c: 'scalar' }], 2] } }, { a: { b: [[], [{ c: 'scalar' }]] } });
  includeOnlyADotBDotC({ a: { x: 1, b: { x: 1, c: ['scalar'] } } }, { a: { b: { c: ['scalar'] } } });
  includeOnlyADotBDotC({ a: { b: { c: [[1, 2], [{}], 2] } } }, { a: { b: { c: [[1, 2], [{}], 2] } } });
  includeOnlyADotBDotC({ a: { x: 1, b: [1, { c: [[1, 2], [{}], 2] }, 2] } }, { a: { b: [{ c: [[1, 2], [{}], 2] }] } });
  includeOnlyADotBDotC(
    { a: { x: 1, b: [[1, 2], [{ c: [[1, 2], [{}], 2] }], 2] } },
    { a: { b: [[], [{ c: [[1, 2], [{}], 2] }]] } },
  );
  includeOnlyADotBDotC({ a: [{ b: [{ c: 'scalar' }] }] }, { a: [{ b: [{ c: 'scalar' }] }] });
  includeOnlyADotBDotC({ a: [1, { b: [{ c: { x: 1 } }] }, 2] }, { a: [{ b: [{ c: { x: 1 } }] }] });
  includeOnlyADotBDotC({ a: [1, { b: [1, { c: 'scalar' }, 2] }, 2] }, { a: [{ b: [{ c: 'scalar' }] }] });
  includeOnlyADotBDotC({ a: [1, { b: [[1, 2], [{ c: 'scalar' }], 2] }, 2] }, { a: [{ b: [[], [{ c: 'scalar' }]] }] });
  includeOnlyADotBDotC({ a: [[1, 2], [{ b: [1, { c: 'scalar' }, 2] }], 2] }, { a: [[], [{ b: [{ c: 'scalar' }] }]] });
  includeOnlyADotBDotC(
    { a: [[1, 2], [{ b: [[1, 2], [{ c: 'scalar' }], 2] }], 2] },
    { a: [[], [{ b: [[], [{ c: 'scalar' }]] }]] },
  );
  includeOnlyADotBDotC({ a: [1, { b: { c: [1, {}, 2] } }, 2] }, { a: [{ b: { c: [1, {}, 2] } }] });
  includeOnlyADotBDotC({ a: [1, { b: { x: 1, c: [[]] } }, 2] }, { a: [{ b: { c: [[]] } }] });
  includeOnlyADotBDotC({ a: [1, { b: { x: 1, c: [1, {}, 2] } }, 2] }, { a: [{ b: { c: [1, {}, 2] } }] });
  includeOnlyADotBDotC({ a: [{ b: [{ c: ['scalar'] }] }] }, { a: [{ b: [{ c: ['scalar'] }] }] });
  includeOnlyADotBDotC({ a: [{ b: [1, { c: ['scalar'] }, 2] }] }, { a: [{ b: [{ c: ['scalar'] }] }] });
  includeOnlyADotBDotC({ a: [{ b: [[1, 2], [{ c: ['scalar'] }], 2] }] }, { a: [{ b: [[], [{ c: ['scalar'] }]] }] });
  includeOnlyADotBDotC(
    { a: [1, { b: [[1, 2], [{ c: [1, {}, 2] }], 2] }, 2] },
    { a: [{ b: [[], [{ c: [1, {}, 2] }]] }] },
  );
  includeOnlyADotBDotC(
    { a: [[1, 2], [{ b: [[1, 2], [{ c: [[1, 2], [{}], 2] }], 2] }], 2] },
    { a: [[], [{ b: [[], [{ c: [[1, 2], [{}], 2] }]] }]] },
  );

  // testExclusionSemantics
  io({ a: 0 })({ a: 1, b: 1, c: 1 }, (id) => ({ _id: id, b: 1, c: 1 }));
  io({ a: 0, b: 0 })({ a: 1, b: 1, c: 1 }, (id) => ({ _id: id, c: 1 }));
  io({ 'a.b': 0 })({ a: { b: 1, c: 1, d: 1 }, x: { y: 1, z: 1 } }, (id) => ({
    _id: id,
    a: { c: 1, d: 1 },
    x: { y: 1, z: 1 },
  }));
  io({ 'a.b': 0 })({ a: ['scalar', { b: 1, c: 1, d: 1 }, { b: 2, c: 2 }, { b: 3 }] }, (id) => ({
    _id: id,
    a: ['scalar', { c: 1, d: 1 }, { c: 2 }, {}],
  }));
  io({ 'a.b': 0, 'a.c': 0 })({ a: [{ b: 1, c: 1, d: 1 }, { b: 2, c: 2 }, { b: 3 }] }, (id) => ({
    _id: id,
    a: [{ d: 1 }, {}, {}],
  }));
  io({ 'a.b': 0 })({ a: [] }, (id) => ({ _id: id, a: [] }));
  io({ 'a.b.c': 0 })({ a: [[], [{ b: [[1, 2], { c: 1, d: 1 }] }]] }, (id) => ({
    _id: id,
    a: [[], [{ b: [[1, 2], { d: 1 }] }]],
  }));

  // testComputedProjections
  io({ a: { $literal: 0 } })({ a: 1, b: 1, c: 1 }, (id) => ({ _id: id, a: 0 }));
  io({ a: { $literal: 0 }, b: 'string' })({ a: 1, b: 1, c: 1 }, (id) => ({ _id: id, a: 0, b: 'string' }));
  io({ 'a.b': 'new value' })({ a: { b: 1, c: 1, d: 1 }, x: { y: 1, z: 1 } }, (id) => ({
    _id: id,
    a: { b: 'new value' },
  }));
  io({ 'a.b': 'new value' })({ a: ['scalar', { b: 1, c: 1, d: 1 }, { b: 2, c: 2 }, { b: 3 }] }, (id) => ({
    _id: id,
    a: [{ b: 'new value' }, { b: 'new value' }, { b: 'new value' }, { b: 'new value' }],
  }));
  io({ 'a.b': 'new value', 'a.c': 'new C' })({ a: [{ b: 1, c: 1, d: 1 }, { b: 2, c: 2 }, { b: 3 }] }, (id) => ({
    _id: id,
    a: [
      { b: 'new value', c: 'new C' },
      { b: 'new value', c: 'new C' },
      { b: 'new value', c: 'new C' },
    ],
  }));
  io({ 'a.b': 'new value' })({ a: [] }, (id) => ({ _id: id, a: [] }));
  io({ 'a.b.c': 'new value' })({ a: [[], [{ b: [[1, 2], { c: 1, d: 1 }] }]] }, (id) => ({
    _id: id,
    a: [[], [{ b: [[{ c: 'new value' }, { c: 'new value' }], { c: 'new value' }] }]],
  }));

  // testNumericPathComponentsTreatedOnlyAsObjectKeyNames
  const numeric = io({ _id: 0, 'a.2': 1 }, [{ a: 1 }]);
  numeric({ a: { '2': 99 }, b: 1 }, { a: { '2': 99 } });
  numeric({ a: [0, 1, 2, 3, 4] }, { a: [] });
  numeric({ a: [{ x: 1 }, { y: 1 }, { z: 1 }] }, { a: [{}, {}, {}] });
  numeric({ a: [0, 1, 2, 3, 4, { obj: 123 }, { '2': 123 }] }, { a: [{}, { '2': 123 }] });

  // testMiscellaneousProjections
  io({ _id: 1 }, [{ _id: 1 }])({}, (id) => ({ _id: id }));
  io({ _id: 0 })({}, {});
  io({ _id: 0 })({ a: 1, b: 1 }, { a: 1, b: 1 });
  const TIME = new Date('2024-01-02T03:04:05.678Z');
  const MEASUREMENTS = { measurements: { temperature: 20, pressure: 0.7, humidity: 0.4, time: TIME } };
  const TEMPERATURE_PRESSURE = [{ 'measurements.temperature': 1, 'measurements.pressure': 1 }];
  io({ 'measurements.temperature': 1, 'measurements.pressure': 1, _id: 0 }, TEMPERATURE_PRESSURE)(MEASUREMENTS, {
    measurements: { temperature: 20, pressure: 0.7 },
  });
  io({ measurements: { temperature: 1, pressure: 1 }, _id: 0 }, TEMPERATURE_PRESSURE)(MEASUREMENTS, {
    measurements: { temperature: 20, pressure: 0.7 },
  });
  io({ measurements: { humidity: 0, time: 0 }, _id: 0 })(MEASUREMENTS, {
    measurements: { temperature: 20, pressure: 0.7 },
  });

  let coll: Awaited<ReturnType<typeof fx.fresh>>;
  beforeAll(async () => {
    coll = await fx.fresh('projection_semantics');
  });

  // The same answer from find (collection scan, then each of the indexes hinted) and from $match + $project.
  it.each(CASES)('should project %s', async (_label, { input, projection, expected, indexes }) => {
    await coll.insertOne({ ...input });
    const filter: Document = { _id: input._id };
    const [scanned] = await coll.find(filter, { projection }).limit(1).hint({ $natural: 1 }).toArray();
    expect({ 'find, $natural hint': scanned }).toStrictEqual({ 'find, $natural hint': expected });
    for (const index of indexes) {
      // assert.commandWorkedOrFailedWithCode(coll.createIndex(indexSpec), ErrorCodes.IndexAlreadyExists)
      await coll.createIndex(index).catch((e: unknown) => {
        if ((e as { code?: unknown }).code !== 68) throw e;
      });
      const [hinted] = await coll.find(filter, { projection }).hint(index).toArray();
      const label = `find, hint ${JSON.stringify(index)}`;
      expect({ [label]: hinted }).toStrictEqual({ [label]: expected });
    }
    const [aggregated] = await coll
      .aggregate([{ $match: filter }, { $project: projection }], { hint: { $natural: 1 } })
      .toArray();
    expect({ aggregate: aggregated }).toStrictEqual({ aggregate: expected });
  });
});

describe('computed_projections.js', () => {
  const DOCUMENTS: Document[] = [
    { _id: 0, a: 1, b: 'x', c: 10, zero: 0 },
    { _id: 1, a: 2, b: 'y', c: 11 },
    { _id: 2, a: 3, b: 'z', c: 12 },
    { _id: 3, x: { y: 1 } },
    { _id: 4, x: { y: 2 } },
    { _id: 5, x: { y: [1, 2, 3] }, v: { w: [4, 5, 6] } },
    { _id: 6, x: { y: 4 }, v: { w: 4 } },
    { _id: 7, x: [{ y: 1 }], v: [{ w: 1 }] },
    { _id: 8, x: [{ y: 1 }, { y: 2 }], v: [{ w: 5 }, { w: 6 }] },
    { _id: 9, x: [{ y: 1 }, { y: [1, 2, 3] }], v: [{ w: 4 }, { w: [4, 5, 6] }] },
    { _id: 10, z: 1 },
    { _id: 11, z: 2 },
    { _id: 12, z: [1, 2, 3] },
    { _id: 13, z: 3 },
    { _id: 14, z: 4 },
    { _id: 15, a: 10, x: 1 },
    { _id: 16, a: 10, x: 10 },
    { _id: 17, x: { y: [{ z: 1 }, { z: 2 }] } },
    { _id: 18, x: [[{ y: 1 }, { y: 2 }], { y: 3 }, { y: 4 }, [[[{ y: 5 }]]], { y: 6 }] },
    { _id: 19, i: { j: 5 }, k: { l: 10 } },
    { _id: 20, x: [[{ y: 1 }, { y: 2 }], { y: 3 }, { y: 4 }, [[[{ y: 5 }]]], { y: 6 }] },
    { _id: 21, x: [[{ y: { z: 1 } }, { y: 2 }], { y: 3 }, { y: { z: 2 } }, [[[{ y: 5 }, { y: { z: 3 } }]]], { y: 6 }] },
    { _id: 22, tf: [true, false], ff: [false, false], t: true, f: false, n: null, a: 1, b: 0, zero: 0 },
    { _id: 23, i1: new Int32(1), i2: new Int32(-1), i3: new Int32(-2147483648) },
    { _id: 24, l1: Long.fromString('12345678900'), l2: Long.fromString('-12345678900') },
    { _id: 25, s: 'string', l: Long.fromString('-9223372036854775808'), n: null },
    { _id: 26, d1: 4.6, d2: -4.6, dec1: Decimal128.fromString('4.6'), dec2: Decimal128.fromString('-4.6') },
    {
      _id: 27,
      dec1: Decimal128.fromString('-1.0'),
      dec2: Decimal128.fromString('2.0'),
      dec3: Decimal128.fromString('3.0'),
    },
  ];
  const IDS = DOCUMENTS.map((doc) => doc._id as number);
  const dec = (value: string) => Decimal128.fromString(value);

  /** One document per `_id`, with each field whose map has a value for that `_id`. */
  const rows = (fields: Record<string, Record<number, unknown>>): Document[] =>
    IDS.map((_id) => {
      const row: Document = { _id };
      for (const [field, values] of Object.entries(fields)) if (_id in values) row[field] = values[_id];
      return row;
    });
  /** computedProjectionWithBoolValues: each field true for the `_id`s listed, false for the others. */
  const bools = (fields: Record<string, number[]>): Document[] =>
    IDS.map((_id) => {
      const row: Document = { _id };
      for (const [field, ids] of Object.entries(fields)) row[field] = ids.includes(_id);
      return row;
    });
  const withoutId = (docs: Document[]): Document[] => docs.map(({ _id, ...rest }) => rest);

  const A = { 0: 1, 1: 2, 2: 3, 15: 10, 16: 10, 22: 1 };
  const B = { 0: 'x', 1: 'y', 2: 'z', 22: 0 };
  const X_Y = {
    3: 1,
    4: 2,
    5: [1, 2, 3],
    6: 4,
    7: [1],
    8: [1, 2],
    9: [1, [1, 2, 3]],
    17: [{ z: 1 }, { z: 2 }],
    18: [3, 4, 6],
    20: [3, 4, 6],
    21: [3, { z: 2 }, 6],
  };
  const V_W = { 5: [4, 5, 6], 6: 4, 7: [1], 8: [5, 6], 9: [4, [4, 5, 6]] };
  const X_KEPT = Object.fromEntries(
    [3, 4, 5, 6, 7, 8, 9, 17, 18, 20, 21].map((id) => [id, DOCUMENTS[id].x as unknown]),
  ) as Record<number, unknown>;
  const SWITCH = { 0: 'x', 1: 11, 2: 12, 22: 0 };
  const UNTAKEN = [
    { _id: 0, foo: 'x' },
    { _id: 22, foo: 0 },
  ];
  const range = (from: number, to: number) => IDS.filter((id) => id >= from && id <= to);
  const CMP: Record<number, [number, number, number, number]> = {
    0: [1, -1, 0, 1],
    1: [1, -1, 0, 1],
    2: [1, -1, 0, 1],
    3: [-1, 0, 1, 0],
    4: [-1, 0, 1, 0],
    5: [-1, 0, -1, 0],
    6: [-1, 0, 0, 0],
    7: [-1, 0, 0, 0],
    8: [-1, 0, -1, 0],
    9: [-1, 0, -1, 0],
    15: [1, 1, 0, 1],
    16: [0, 1, 0, 1],
    17: [-1, 0, 1, 0],
    18: [-1, 0, 1, 0],
    20: [-1, 0, 1, 0],
    21: [-1, 0, 1, 0],
    22: [1, 1, 0, 1],
  };
  const LUDICROUS: Record<number, Document> = {
    3: { foo: 2, baz: false },
    4: { bar: 2, baz: false },
    5: { foo: true, bar: [1, 2, 3], baz: true },
    6: { foo: true, bar: 4, baz: false },
    7: { foo: true, bar: [1], baz: false },
    8: { foo: true, bar: [1, 2], baz: true },
    9: { foo: true, bar: [1, [1, 2, 3]], baz: true },
    17: { foo: true, bar: [{ z: 1 }, { z: 2 }], baz: false },
    18: { foo: true, bar: [3, 4, 6], baz: false },
    20: { foo: true, bar: [3, 4, 6], baz: false },
    21: { foo: true, bar: [3, { z: 2 }, 6], baz: false },
    22: { foo: true, baz: false },
  };
  const S = { s: 'string' };
  const DOC22 = { _id: 22, a: 1 };
  const DIV0 = { $divide: [1, '$zero'] };
  const CMP_OPERANDS = (op: string) => ({
    foo: { [op]: ['$a', '$x'] },
    bar: { [op]: ['$a', '$b'] },
    baz: { [op]: ['$x.y', '$v.w'] },
    qux: { [op]: ['$a', '$nonexistent'] },
  });

  let coll: Awaited<ReturnType<typeof fx.fresh>>;
  beforeAll(async () => {
    coll = await holding('computed_projection', DOCUMENTS);
  });

  /** arrayEq: the same documents in any order (sorted here by their extended JSON). */
  const asSet = (docs: Document[]) =>
    docs
      .map((doc) => [BSON.EJSON.stringify(doc, { relaxed: false }), doc] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, doc]) => doc);

  it.each<[string, Document, Document, Document[]]>([
    ['Single-level path 1', {}, { _id: 1, foo: '$a' }, rows({ foo: A })],
    ['Single-level path 2', {}, { foo: '$a' }, rows({ foo: A })],
    ['Single-level path 3', {}, { _id: 0, foo: '$a' }, withoutId(rows({ foo: A }))],
    ['Two single-level paths', {}, { _id: 1, foo: '$a', bar: '$b' }, rows({ foo: A, bar: B })],
    [
      'Simple addition',
      { c: { $gt: 0 } },
      { foo: { $add: ['$a', '$c'] } },
      [
        { _id: 0, foo: 11 },
        { _id: 1, foo: 13 },
        { _id: 2, foo: 15 },
      ],
    ],
    [
      '$add with arity 1 and 3',
      { dec1: dec('-1.0') },
      { add1: { $add: '$dec1' }, add3: { $add: ['$dec1', '$dec2', '$dec3'] } },
      [{ _id: 27, add1: dec('-1.0'), add3: dec('4.0') }],
    ],
    ['Single-level path 4', {}, { a: 1, foo: '$b' }, rows({ a: A, foo: B })],
    ['Two-level path 1', {}, { _id: 1, foo: '$x.y' }, rows({ foo: X_Y })],
    ['Two-level path 2', {}, { foo: '$x.y' }, rows({ foo: X_Y })],
    ['Two-level path 3', {}, { _id: 0, foo: '$x.y' }, withoutId(rows({ foo: X_Y }))],
    ['Two two-level paths', {}, { foo: '$x.y', bar: '$v.w' }, rows({ foo: X_Y, bar: V_W })],
    ['Addition of two-level paths', { 'i.j': { $gt: 0 } }, { foo: { $add: ['$i.j', '$k.l'] } }, [{ _id: 19, foo: 15 }]],
    ['Dotted-path projection and two-level path', {}, { 'x.y': 1, foo: '$v.w' }, rows({ x: X_KEPT, foo: V_W })],
    [
      '$abs operator',
      { i1: 1 },
      { abs_i1: { $abs: '$i1' }, abs_i2: { $abs: '$i2' }, abs_i3: { $abs: '$i3' } },
      [{ _id: 23, abs_i1: 1, abs_i2: 1, abs_i3: Long.fromString('2147483648') }],
    ],
    [
      '$abs with NumberLong input',
      { l1: Long.fromString('12345678900') },
      { abs_l1: { $abs: '$l1' }, abs_l2: { $abs: '$l2' } },
      [{ _id: 24, abs_l1: Long.fromString('12345678900'), abs_l2: Long.fromString('12345678900') }],
    ],
    [
      '$abs with NumberDecimal input',
      { d1: 4.6 },
      { abs_d1: { $abs: '$d1' }, abs_d2: { $abs: '$d2' }, abs_dec1: { $abs: '$dec1' }, abs_dec2: { $abs: '$dec2' } },
      [{ _id: 26, abs_d1: 4.6, abs_d2: 4.6, abs_dec1: dec('4.6'), abs_dec2: dec('4.6') }],
    ],
    [
      '$abs with missing input',
      S,
      { abs_n: { $abs: '$n' }, abs_ne: { $abs: '$non_existent' } },
      [{ _id: 25, abs_n: null, abs_ne: null }],
    ],
    ['Single-branch $and', {}, { foo: { $and: ['$a'] } }, bools({ foo: [0, 1, 2, 15, 16, 22] })],
    ['Single-branch $or', {}, { foo: { $or: ['$a'] } }, bools({ foo: [0, 1, 2, 15, 16, 22] })],
    ['$and with BSONNull branch', DOC22, { foo: { $and: ['$n'] } }, [{ _id: 22, foo: false }]],
    ['$or with BSONNull branch', DOC22, { foo: { $or: ['$n'] } }, [{ _id: 22, foo: false }]],
    ['$and with missing path in branch', DOC22, { foo: { $and: ['$nonexistent'] } }, [{ _id: 22, foo: false }]],
    ['$or with missing path in branch', DOC22, { foo: { $or: ['$nonexistent'] } }, [{ _id: 22, foo: false }]],
    [
      '$and with array branch',
      DOC22,
      { foo: { $and: [] }, bar: { $and: ['$tf', '$t', '$a'] } },
      [{ _id: 22, foo: true, bar: true }],
    ],
    [
      'Three-branch $or',
      DOC22,
      { foo: { $or: [] }, bar: { $or: ['$f', '$n', '$nonexistent'] } },
      [{ _id: 22, foo: false, bar: false }],
    ],
    [
      'Multiple computed $and projections 1',
      DOC22,
      { foo: { $and: ['$a', '$b'] }, bar: { $and: ['$a', '$f'] }, baz: { $and: ['$a', '$n'] } },
      [{ _id: 22, foo: false, bar: false, baz: false }],
    ],
    [
      'Multiple computed $or projections',
      DOC22,
      { foo: { $or: ['$a', '$b'] }, bar: { $or: ['$a', '$f'] }, baz: { $or: ['$a', '$n'] } },
      [{ _id: 22, foo: true, bar: true, baz: true }],
    ],
    [
      'Multiple computed $and projections 2',
      DOC22,
      { foo: { $and: ['$ff', '$t'] }, bar: { $and: ['$nonexistent', '$t'] } },
      [{ _id: 22, foo: true, bar: false }],
    ],
    [
      'Single-case $switch with default',
      {},
      { foo: { $switch: { branches: [{ case: { $eq: ['$a', 1] }, then: '$b' }], default: '$c' } } },
      rows({ foo: SWITCH }),
    ],
    ['$cond', {}, { foo: { $cond: { if: { $eq: ['$a', 1] }, then: '$b', else: '$c' } } }, rows({ foo: SWITCH })],
    [
      'Two-case $switch with default',
      {},
      {
        foo: {
          $switch: {
            branches: [
              { case: { $eq: ['$a', 1] }, then: '$b' },
              { case: { $eq: ['$b', 'y'] }, then: '$a' },
            ],
            default: '$c',
          },
        },
      },
      rows({ foo: { ...SWITCH, 1: 2 } }),
    ],
    [
      '$abs with string input as short-circuited $and branch',
      S,
      { foo: { $and: ['$n', { $abs: ['$s'] }] } },
      [{ _id: 25, foo: false }],
    ],
    [
      '$abs with string input as short-circuited $or branch',
      S,
      { foo: { $or: ['$s', { $abs: ['$s'] }] } },
      [{ _id: 25, foo: true }],
    ],
    [
      '$divide by zero in short-circuited $and/$or branches',
      DOC22,
      { foo: { $and: ['$f', DIV0] }, bar: { $or: ['$t', DIV0] } },
      [{ _id: 22, foo: false, bar: true }],
    ],
    [
      '$divide by zero in nested short-circuited $or branches',
      DOC22,
      {
        foo: { $and: ['$f', { $or: ['$f', DIV0] }, { $eq: ['$a', 1] }] },
        bar: { $and: ['$t', { $or: ['$t', DIV0] }, { $eq: ['$a', 1] }] },
      },
      [{ _id: 22, foo: false, bar: true }],
    ],
    [
      '$divide by zero in untaken $switch cases',
      { a: 1 },
      {
        foo: {
          $switch: {
            branches: [
              { case: { $eq: ['$a', 2] }, then: DIV0 },
              { case: { $eq: ['$a', 3] }, then: DIV0 },
            ],
            default: '$b',
          },
        },
      },
      UNTAKEN,
    ],
    [
      '$divide by zero in unevaluated case condition and untaken $switch default branch',
      { a: 1 },
      {
        foo: {
          $switch: {
            branches: [
              { case: { $eq: ['$a', 1] }, then: '$b' },
              { case: DIV0, then: DIV0 },
            ],
            default: DIV0,
          },
        },
      },
      UNTAKEN,
    ],
    [
      '$divide by zero in untaken $cond branch (else)',
      { a: 1 },
      { foo: { $cond: { if: { $eq: ['$a', 1] }, then: '$b', else: DIV0 } } },
      UNTAKEN,
    ],
    [
      '$divide by zero in untaken $cond branch (then)',
      { a: 1 },
      { foo: { $cond: { if: { $eq: ['$a', 2] }, then: DIV0, else: '$b' } } },
      UNTAKEN,
    ],
    [
      '$let with single-path variable definitions 1',
      {},
      { foo: { $let: { vars: { va: '$a', vb: '$b' }, in: { $and: '$$va' } } } },
      bools({ foo: [0, 1, 2, 15, 16, 22] }),
    ],
    [
      '$let with single-path variable definitions 2',
      {},
      { foo: { $let: { vars: { va: '$a', vb: '$b' }, in: { $and: '$$vb' } } } },
      bools({ foo: [0, 1, 2] }),
    ],
    [
      '$let with single-path variable definitions 3',
      {},
      { foo: { $let: { vars: { va: '$a', vb: '$b' }, in: { $and: ['$$va', '$$vb'] } } } },
      bools({ foo: [0, 1, 2] }),
    ],
    [
      '$let with $and variable definition',
      {},
      { foo: { $let: { vars: { va: { $and: ['$a', '$b'] } }, in: '$$va' } } },
      bools({ foo: [0, 1, 2] }),
    ],
    [
      'Two-level path including $let variable',
      {},
      { foo: { $let: { vars: { va: '$x' }, in: '$$va.y' } } },
      rows({ foo: X_Y }),
    ],
    [
      'Nested $let expressions',
      {},
      {
        foo: {
          $let: {
            vars: { vt: '$t', vf: '$f' },
            in: { $let: { vars: { vf: '$$vt', va: '$a' }, in: { $and: ['$$vt', '$$vf', '$$va'] } } },
          },
        },
      },
      bools({ foo: [22] }),
    ],
    [
      '$let with variable definition including nested $let',
      DOC22,
      {
        foo: {
          $let: {
            vars: { va: { $let: { vars: { vt: '$t', va: '$va' }, in: { $and: ['$$vt', '$$va'] } } } },
            in: '$$va',
          },
        },
      },
      [{ _id: 22, foo: false }],
    ],
    ['$let renaming $$CURRENT', {}, { foo: { $let: { vars: { doc: '$$CURRENT' }, in: '$$doc.a' } } }, rows({ foo: A })],
    [
      '$let shadowing $$CURRENT',
      {},
      { foo: { $let: { vars: { CURRENT: '$$CURRENT.a' }, in: '$$CURRENT' } } },
      rows({ foo: A }),
    ],
    ['$$REMOVE', {}, { a: '$$REMOVE' }, rows({})],
    ['$$REMOVE with additional path components', {}, { a: '$$REMOVE.x.y' }, rows({})],
    [
      '$lt',
      {},
      CMP_OPERANDS('$lt'),
      bools({ foo: [3, 4, 5, 6, 7, 8, 9, 17, 18, 20, 21], bar: [0, 1, 2], baz: [5, 8, 9], qux: [] }),
    ],
    [
      '$lte',
      {},
      CMP_OPERANDS('$lte'),
      bools({
        foo: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 23, 24, 25, 26, 27],
        bar: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19, 20, 21, 23, 24, 25, 26, 27],
        baz: [0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 19, 22, 23, 24, 25, 26, 27],
        qux: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19, 20, 21, 23, 24, 25, 26, 27],
      }),
    ],
    [
      '$gt',
      {},
      CMP_OPERANDS('$gt'),
      bools({
        foo: [0, 1, 2, 15, 22],
        bar: [15, 16, 22],
        baz: [3, 4, 17, 18, 20, 21],
        qux: [0, 1, 2, 15, 16, 22],
      }),
    ],
    [
      '$gte',
      {},
      CMP_OPERANDS('$gte'),
      bools({
        foo: [0, 1, 2, 10, 11, 12, 13, 14, 15, 16, 19, 22, 23, 24, 25, 26, 27],
        bar: range(3, 27),
        baz: [0, 1, 2, 3, 4, 6, 7, ...range(10, 27)],
        qux: range(0, 27),
      }),
    ],
    [
      '$eq',
      {},
      CMP_OPERANDS('$eq'),
      bools({
        foo: [10, 11, 12, 13, 14, 16, 19, 23, 24, 25, 26, 27],
        bar: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19, 20, 21, 23, 24, 25, 26, 27],
        baz: [0, 1, 2, 6, 7, 10, 11, 12, 13, 14, 15, 16, 19, 22, 23, 24, 25, 26, 27],
        qux: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19, 20, 21, 23, 24, 25, 26, 27],
      }),
    ],
    [
      '$ne',
      {},
      CMP_OPERANDS('$ne'),
      bools({
        foo: [...range(0, 9), 15, 17, 18, 20, 21, 22],
        bar: [0, 1, 2, 15, 16, 22],
        baz: [3, 4, 5, 8, 9, 17, 18, 20, 21],
        qux: [0, 1, 2, 15, 16, 22],
      }),
    ],
    [
      '$cmp',
      {},
      CMP_OPERANDS('$cmp'),
      IDS.map((_id) => {
        const [foo, bar, baz, qux] = CMP[_id] ?? [0, 0, 0, 0];
        return { _id, foo, bar, baz, qux };
      }),
    ],
    [
      'Nesting torture test 1',
      {},
      {
        foo: { $let: { vars: { v1: { $or: ['$x.y', '$v.w'] }, vx: '$x' }, in: { $and: ['$$vx.y', '$v.w'] } } },
      },
      bools({ foo: [5, 6, 7, 8, 9] }),
    ],
    [
      'Nesting torture test 2',
      {},
      {
        foo: {
          $let: {
            vars: { v1: '$x.y' },
            in: {
              $let: {
                vars: { v2: { $let: { vars: { v3: '$v.w' }, in: { $and: ['$$v1', '$$v3'] } } } },
                in: '$$v2',
              },
            },
          },
        },
      },
      bools({ foo: [5, 6, 7, 8, 9] }),
    ],
    [
      'Nesting torture test 3',
      {},
      { foo: { $or: ['$a', { $lt: [{ $and: ['$a', '$c'] }, { $or: ['$c', '$x'] }] }, '$x'] } },
      bools({ foo: [...range(0, 9), 15, 16, 17, 18, 20, 21, 22] }),
    ],
    [
      'Ludicrous nesting torture test with multiple computed fields',
      {},
      {
        foo: {
          $let: {
            vars: {
              v1: { $or: ['$x.y', '$v.w'] },
              v2: { $switch: { branches: [{ case: '$v.w', then: 1 }], default: 2 } },
              v3: '$b',
            },
            in: {
              $switch: {
                branches: [
                  { case: { $eq: ['$x.y', 1] }, then: '$$v2' },
                  { case: { $eq: ['$x.y', 2] }, then: '$v.w' },
                  { case: { $eq: ['$$v3', 2] }, then: '$c' },
                ],
                default: { $or: ['$$v1', '$tf'] },
              },
            },
          },
        },
        bar: {
          $switch: {
            branches: [
              { case: { $gt: ['$x.y', 1] }, then: '$x.y' },
              { case: { $let: { vars: { v4: '$v.w1' }, in: '$$v4' } }, then: '$v.w2' },
            ],
            default: '$x.y.z',
          },
        },
        baz: {
          $let: {
            vars: { v5: '$x.y', v6: '$v.w' },
            in: {
              $cond: {
                if: { $lt: ['$$v5', '$$v6'] },
                then: {
                  $switch: {
                    branches: [
                      { case: { $eq: ['$v.w', 5] }, then: '$v.w' },
                      { case: { $eq: ['$v.w', 4] }, then: '$x.y' },
                    ],
                    default: { $or: ['$$v5', '$$v6'] },
                  },
                },
                else: false,
              },
            },
          },
        },
      },
      IDS.map((_id) => ({ _id, ...(LUDICROUS[_id] ?? { foo: false, baz: false }) })),
    ],
  ])('should compute %s', async (_label, query, projection, expected) => {
    const actual = await coll.find(query, { projection, promoteLongs: false }).toArray();
    expect(asSet(actual)).toEqual(asSet(expected));
  });

  it.each<[string, Document, Document, number]>([
    ['$abs with string input', S, { abs_s: { $abs: '$s' } }, 28765],
    ['$abs with MIN_LONG_LONG input', S, { abs_l: { $abs: '$l' } }, 28680],
    ['$abs with string input as $and branch', S, { foo: { $and: [{ $abs: ['$s'] }, '$n'] } }, 28765],
    ['$abs with string input as $or branch', S, { foo: { $or: [{ $abs: ['$s'] }, '$s'] } }, 28765],
    [
      'Switch fall-through with no default',
      {},
      {
        foo: {
          $switch: {
            branches: [
              { case: { $eq: ['$a', 1] }, then: '$b' },
              { case: { $eq: ['$b', 'y'] }, then: '$a' },
            ],
          },
        },
      },
      40066,
    ],
    [
      '$abs with string input as case condition',
      S,
      { foo: { $switch: { branches: [{ case: { $gt: [{ $abs: ['$s'] }, 0] }, then: '$n' }] } } },
      28765,
    ],
    [
      '$abs with string input as case result',
      S,
      { foo: { $switch: { branches: [{ case: { $eq: ['$s', 'string'] }, then: { $abs: ['$s'] } }] } } },
      28765,
    ],
    [
      '$abs with string input as $switch default',
      S,
      { foo: { $switch: { branches: [{ case: { $eq: ['$s', 0] }, then: '$n' }], default: { $abs: '$s' } } } },
      28765,
    ],
    [
      '$abs with string input as $cond condition',
      S,
      { foo: { $cond: { if: { $eq: [{ $abs: '$s' }, '$n'] }, then: '$b', else: '$c' } } },
      28765,
    ],
    [
      '$abs with string input as $cond result (then)',
      S,
      { foo: { $cond: { if: { $eq: ['$s', 'string'] }, then: { $abs: ['$s'] }, else: '$c' } } },
      28765,
    ],
    [
      '$abs with string input as $cond result (else)',
      S,
      { foo: { $cond: { if: { $eq: ['$s', 'gnirts'] }, then: '$b', else: { $abs: ['$s'] } } } },
      28765,
    ],
  ])('should fail %s', async (_label, query, projection, code) => {
    expect(await codeOf(coll.find(query, { projection }).toArray())).toBe(code);
  });
});
