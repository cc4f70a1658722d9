/**
 * Conformance: field paths as mongod 7 parses them, before any document is
 * read — in expressions (`$a.b`, `$$ROOT.a`), in `$unwind`, `$lookup` and
 * `$count`, in `distinct`'s key — the arguments of `$facet`, and the empty
 * `$project`. A malformed path is an error with mongod's code, never a
 * silent "nothing there". Through the driver only, so it passes unchanged
 * against a real MongoDB (MONGO_URL).
 * @see https://www.mongodb.com/docs/manual/reference/operator/aggregation/unwind/
 * @see https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/
 * @see https://www.mongodb.com/docs/manual/reference/operator/aggregation/count/
 * @see https://www.mongodb.com/docs/manual/reference/operator/aggregation/facet/
 */
import type { Collection } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();
let c: Collection<{ _id: number }>;

beforeAll(async () => {
  c = (await fx.fresh('field_paths')) as unknown as Collection<{ _id: number }>;
  await c.insertMany([{ _id: 1, a: { b: 1 }, sizes: ['S', 'M'] }] as never[]);
});

const run = (pipeline: object[]) => c.aggregate(pipeline).toArray();

describe('field paths in expressions', () => {
  const EMPTY_NAME = 'FieldPath field names may not be empty strings.';
  it.each<[string, number, string]>([
    ['$a..b', 15998, EMPTY_NAME],
    ['$.a', 15998, EMPTY_NAME],
    ['$a.', 40353, "FieldPath must not end with a '.'."],
    ['$a.$b', 16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField."],
    ['$a.b\0', 16411, "FieldPath field names may not contain '\0'."],
    ['$', 16872, "'$' by itself is not a valid FieldPath"],
    ['$$ROOT.a..b', 15998, EMPTY_NAME],
    ['$$ROOT.', 40353, "FieldPath must not end with a '.'."],
  ])('should refuse %j in $project', async (path, code, message) => {
    const error = await rejection(run([{ $project: { x: path } }]));
    expect(error).toMatchObject({ code, message: `Invalid $project :: caused by :: ${message}` });
  });

  it('should refuse one inside an operator, on an empty collection too', async () => {
    const empty = await fx.fresh('field_paths_empty');
    const error = await rejection(empty.aggregate([{ $project: { x: { $concat: ['$a..b', 'x'] } } }]).toArray());
    expect(error).toMatchObject({ code: 15998 });
  });

  it.each([['$a.b'], ['$$ROOT.a.b'], ['$$CURRENT.a'], ['$a.$id']])('should accept %j', async (path) => {
    await expect(run([{ $project: { x: path } }])).resolves.toHaveLength(1);
  });

  it('should leave a $literal string alone', async () => {
    expect(await run([{ $project: { _id: 0, x: { $literal: '$a..b' } } }])).toEqual([{ x: '$a..b' }]);
  });

  it('should refuse one in a find projection, without a stage to name', async () => {
    const error = await rejection(c.find({}, { projection: { x: '$a..b' } }).toArray());
    expect(error).toMatchObject({ code: 15998, message: EMPTY_NAME });
  });
});

describe('$unwind', () => {
  it.each<[string, unknown, number, string]>([
    ['a path without $', 'sizes', 28818, "path option to $unwind stage should be prefixed with a '$': sizes"],
    ['an empty path', '', 28812, 'no path specified to $unwind stage'],
    ['a document without path', {}, 28812, 'no path specified to $unwind stage'],
    ['a number', 1, 15981, 'expected either a string or an object as specification for $unwind stage, got int'],
    ['a path that is a number', { path: 1 }, 28808, 'expected a string as the path for $unwind stage, got int'],
    [
      'preserveNullAndEmptyArrays that is a string',
      { path: '$sizes', preserveNullAndEmptyArrays: 'yes' },
      28809,
      'expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage, got string',
    ],
    [
      'an empty includeArrayIndex',
      { path: '$sizes', includeArrayIndex: '' },
      28810,
      'expected a non-empty string for the includeArrayIndex  option to $unwind stage, got string',
    ],
    [
      'an includeArrayIndex with $',
      { path: '$sizes', includeArrayIndex: '$i' },
      28822,
      "includeArrayIndex option to $unwind stage should not be prefixed with a '$': $i",
    ],
    ['an unknown option', { path: '$sizes', depth: 1 }, 28811, 'unrecognized option to $unwind stage: depth'],
    ['a path with a NUL byte', '$sizes\0', 16419, 'field path must not contain embedded null characters'],
    ['a path of $ alone', '$', 40352, 'FieldPath cannot be constructed with empty string'],
    ['a path with an empty name', '$a..b', 15998, 'FieldPath field names may not be empty strings.'],
    [
      'an includeArrayIndex with a NUL byte',
      { path: '$sizes', includeArrayIndex: 'i\0' },
      16411,
      "FieldPath field names may not contain '\0'.",
    ],
  ])('should refuse %s', async (_label, spec, code, message) => {
    const error = await rejection(run([{ $unwind: spec }]));
    expect(error).toMatchObject({ code, message });
  });

  it('should unwind with every option given', async () => {
    expect(
      await run([
        { $unwind: { path: '$sizes', includeArrayIndex: 'i', preserveNullAndEmptyArrays: true } },
        { $project: { _id: 0, sizes: 1, i: 1 } },
      ]),
    ).toEqual([
      { sizes: 'S', i: 0 },
      { sizes: 'M', i: 1 },
    ]);
  });
});

describe('$lookup', () => {
  const lookup = (spec: object) => run([{ $lookup: { from: 'field_paths', ...spec } }]);

  it.each<[string, object, string]>([
    ['without as', { localField: 'a.b', foreignField: 'a.b' }, "must specify 'as' field for a $lookup"],
    ['with an empty as', { localField: 'a.b', foreignField: 'a.b', as: '' }, "must specify 'as' field for a $lookup"],
    [
      'with an as that is a number',
      { localField: 'a.b', foreignField: 'a.b', as: 1 },
      "$lookup argument 'as' must be a string, found as: 1: int",
    ],
    [
      'with an unknown argument',
      { localField: 'a.b', foreignField: 'a.b', as: 'j', on: 'x' },
      'unknown argument to $lookup: on',
    ],
    [
      'with localField alone',
      { localField: 'a.b', as: 'j' },
      "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified",
    ],
    [
      'with a pipeline and foreignField alone',
      { foreignField: 'a.b', pipeline: [], as: 'j' },
      "$lookup requires both or neither of 'localField' and 'foreignField' to be specified",
    ],
    [
      'with let and no pipeline',
      { localField: 'a.b', foreignField: 'a.b', let: { x: 1 }, as: 'j' },
      "$lookup with a 'let' argument must also specify 'pipeline'",
    ],
  ])('should refuse one %s (FailedToParse)', async (_label, spec, message) => {
    const error = await rejection(lookup(spec));
    expect(error).toMatchObject({ codeName: 'FailedToParse', message });
  });

  it.each<[string, object, number]>([
    ['an as with $', { localField: 'a.b', foreignField: 'a.b', as: '$j' }, 16410],
    ['an as with a NUL byte', { localField: 'a.b', foreignField: 'a.b', as: 'j\0' }, 16411],
    ['a localField with an empty name', { localField: 'a..b', foreignField: 'a.b', as: 'j' }, 15998],
    ['a foreignField ending with .', { localField: 'a.b', foreignField: 'a.', as: 'j' }, 40353],
  ])('should refuse %s as a field path', async (_label, spec, code) => {
    expect(await rejection(lookup(spec))).toMatchObject({ code });
  });

  it('should join by localField and foreignField', async () => {
    const [joined] = await lookup({ localField: 'a.b', foreignField: 'a.b', as: 'same' });
    expect((joined as { same: { _id: number }[] }).same.map((doc) => doc._id)).toEqual([1]);
  });
});

describe('$count', () => {
  it.each<[string, unknown, number, string]>([
    ['a number', 1, 40156, 'the count field must be a non-empty string'],
    ['an empty name', '', 40157, 'the count field must be a non-empty string'],
    ['a $ name', '$n', 40158, 'the count field cannot be a $-prefixed path'],
    ['a name with a NUL byte', 'n\0', 40159, 'the count field cannot contain a null byte'],
    ['a dotted name', 'a.b', 40160, "the count field cannot contain '.'"],
  ])('should refuse %s', async (_label, spec, code, message) => {
    expect(await rejection(run([{ $count: spec }]))).toMatchObject({ code, message });
  });

  it('should count into the field named', async () => {
    expect(await run([{ $count: 'n' }])).toEqual([{ n: 1 }]);
  });
});

describe('$facet', () => {
  it.each<[string, object, number, string]>([
    ['an empty specification', {}, 40169, 'the $facet specification must be a non-empty object, but found: $facet: {}'],
    ['a facet that is not an array', { a: 1 }, 40170, 'arguments to $facet must be arrays, a is type int'],
    [
      'a stage that is not a document',
      { a: [1] },
      40171,
      'elements of arrays in $facet spec must be non-empty objects, a argument contained an element of type int: 0: 1',
    ],
    ['a $out inside', { a: [{ $out: 'x' }] }, 40600, '$out is not allowed to be used within a $facet stage'],
    [
      'a $facet inside',
      { a: [{ $facet: { b: [] } }] },
      40600,
      '$facet is not allowed to be used within a $facet stage',
    ],
    [
      'a facet named with $',
      { $a: [] },
      16410,
      "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
    ],
  ])('should refuse %s', async (_label, spec, code, message) => {
    expect(await rejection(run([{ $facet: spec }]))).toMatchObject({ code, message });
  });

  it('should pass every document through an empty facet', async () => {
    expect(await run([{ $facet: { all: [], n: [{ $count: 'n' }] } }, { $project: { n: 1, ids: '$all._id' } }])).toEqual(
      [{ n: [{ n: 1 }], ids: [1] }],
    );
  });
});

describe('$project', () => {
  it('should refuse an empty specification (51272)', async () => {
    expect(await rejection(run([{ $project: {} }]))).toMatchObject({
      code: 51272,
      message: 'Invalid $project :: caused by :: projection specification must have at least one field',
    });
  });
});

describe('distinct', () => {
  it.each<[string, string, number]>([
    ['a NUL byte', 'a\0b', 31032],
    ['nothing', '', 40352],
    ['a trailing .', 'a.', 40353],
    ['an empty name', 'a..b', 15998],
  ])('should refuse a key with %s', async (_label, key, code) => {
    expect(await rejection(c.distinct(key))).toMatchObject({ code });
  });

  it('should read a dotted key', async () => {
    expect(await c.distinct('a.b')).toEqual([1]);
  });
});
