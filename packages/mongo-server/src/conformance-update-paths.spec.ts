/**
 * Conformance: update operators on paths through arrays (`$`, `$[]`,
 * `$[<id>]`), `$pull` conditions, upserts naming `_id`, operators meeting the
 * wrong type. Written from MongoDB 7's update operator reference; passes
 * against MONGO_URL too.
 */
import { MongoServerError } from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** The error an update statement fails with, as the driver reports it. */
async function failure(promise: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  const { code, message } = error as MongoServerError;
  return { code, message };
}

const ITEMS = () => ({
  _id: 1,
  items: [
    { k: 'a', q: 1 },
    { k: 'b', q: 5 },
    { k: 'c', q: 8 },
  ],
});

describe('update paths through arrays', () => {
  describe('when several fields of the same elements are set', () => {
    it.each([
      [
        'all positional $[]',
        { 'items.$[].q': 0, 'items.$[].seen': true },
        {},
        undefined,
        [0, 0, 0],
        [true, true, true],
      ],
      [
        'first positional $',
        { 'items.$.q': 0, 'items.$.seen': true },
        { 'items.k': 'b' },
        undefined,
        [1, 0, 8],
        [undefined, true, undefined],
      ],
      [
        'filtered positional $[x]',
        { 'items.$[x].q': 0, 'items.$[x].seen': true },
        {},
        [{ 'x.q': { $gt: 2 } }],
        [1, 0, 0],
        [undefined, true, true],
      ],
    ])('should update each field through %s', async (_label, set, filter, arrayFilters, qs, seen) => {
      const c = await fx.fresh('paths');
      await c.insertOne(ITEMS() as never);
      const result = await c.updateOne({ _id: 1, ...filter } as never, { $set: set }, { arrayFilters });
      expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
      const doc = (await c.findOne({ _id: 1 } as never))!;
      const items = doc.items as { q: number; seen?: boolean }[];
      expect(items.map((i) => i.q)).toEqual(qs);
      expect(items.map((i) => i.seen)).toEqual(seen);
    });
  });

  it('should still refuse two operators on the same positional path (ConflictingUpdateOperators)', async () => {
    const c = await fx.fresh('paths');
    await c.insertOne(ITEMS() as never);
    const error = await failure(
      c.updateOne({ _id: 1 } as never, { $set: { 'items.$[].q': 0 }, $inc: { 'items.$[].q': 1 } }),
    );
    expect(error).toEqual({
      code: 40,
      message: "Updating the path 'items.$[].q' would create a conflict at 'items.$[].q'",
    });
  });

  it.each([
    [
      '$ without the array in the filter',
      { 'items.$.q': 0 },
      undefined,
      2,
      'The positional operator did not find the match needed from the query.',
    ],
    [
      '$[x] without an array filter',
      { 'items.$[x].q': 0 },
      undefined,
      2,
      "No array filter found for identifier 'x' in path 'items.$[x].q'",
    ],
    [
      '$[] on a field that is not an array',
      { 'name.$[].q': 0 },
      undefined,
      2,
      'Cannot apply array updates to non-array element name: "n"',
    ],
  ])('should refuse %s', async (_label, set, arrayFilters, code, message) => {
    const c = await fx.fresh('paths');
    await c.insertOne({ ...ITEMS(), name: 'n' } as never);
    expect(await failure(c.updateOne({ _id: 1 } as never, { $set: set }, { arrayFilters }))).toEqual({ code, message });
  });

  it('should refuse an array filter no path uses (FailedToParse)', async () => {
    const c = await fx.fresh('paths');
    await c.insertOne(ITEMS() as never);
    const error = await failure(
      c.updateOne({ _id: 1 } as never, { $set: { 'items.$[x].q': 0 } }, { arrayFilters: [{ 'x.q': 1 }, { 'y.q': 1 }] }),
    );
    expect(error.code).toBe(9);
    expect(error.message).toMatch(/^The array filter for identifier 'y' was not used in the update /);
  });

  it("should refuse a field created inside an array's elements without an index (PathNotViable)", async () => {
    const c = await fx.fresh('paths');
    await c.insertOne({ _id: 1, comments: [{ body: 'x' }] } as never);
    const error = await failure(c.updateOne({ _id: 1 } as never, { $set: { 'comments.body': 'y' } }));
    expect(error.code).toBe(28);
    expect(error.message).toMatch(/^Cannot create field 'body' in element \{comments: \[/);
    await c.updateOne({ _id: 1 } as never, { $set: { 'comments.0.body': 'y' } });
    // $unset of a path that cannot exist is a no-op, not an error.
    await c.updateOne({ _id: 1 } as never, { $unset: { 'comments.body': '' } });
    expect(await c.findOne({ _id: 1 } as never)).toEqual({ _id: 1, comments: [{ body: 'y' }] });
  });

  it.each([
    ['$set', { $set: { 'n.x': 1 } }],
    ['$inc', { $inc: { 'n.x': 1 } }],
    ['$inc through an array', { $inc: { 'comments.x': 1 } }],
  ])(
    'should refuse %s of a field inside a scalar or an array without an index (PathNotViable)',
    async (_op, update) => {
      const c = await fx.fresh('paths');
      await c.insertOne({ _id: 1, n: 5, comments: [{ body: 'x' }] } as never);
      const error = await failure(c.updateOne({ _id: 1 } as never, update as never));
      expect(error.code).toBe(28);
      expect(error.message).toMatch(/^Cannot create field 'x' in element \{(n: 5|comments: \[)/);
    },
  );

  it('should pad an array with nulls when setting past its end', async () => {
    const c = await fx.fresh('paths');
    await c.insertOne({ _id: 1, a: [1] } as never);
    await c.updateOne({ _id: 1 } as never, { $set: { 'a.3': 4 } });
    expect(await c.findOne({ _id: 1 } as never)).toEqual({ _id: 1, a: [1, null, null, 4] });
  });

  it('should add new fields in lexicographic order of their names', async () => {
    const c = await fx.fresh('paths');
    await c.insertOne({ _id: 1, z: 0 } as never);
    await c.updateOne({ _id: 1 } as never, { $set: { b: 1, a: 1 }, $inc: { c: 1 } });
    expect(Object.keys((await c.findOne({ _id: 1 } as never))!)).toEqual(['_id', 'z', 'a', 'b', 'c']);
  });

  describe('with a mongoose sub-document array with timestamps', () => {
    const child = new mongoose.Schema({ name: String }, { timestamps: true });
    const parent = new mongoose.Schema({ title: String, children: [child] }, { timestamps: true });

    it.each([
      ['$', (id: unknown) => [{ 'children._id': id }, { $set: { 'children.$.name': 'new' } }, {}]],
      ['$[]', () => [{}, { $set: { 'children.$[].name': 'new' } }, {}]],
      ['$[x]', (id: unknown) => [{}, { $set: { 'children.$[x].name': 'new' } }, { arrayFilters: [{ 'x._id': id }] }]],
    ] as const)('should update a child through %s and stamp its updatedAt', async (_label, build) => {
      const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
      try {
        const Model = conn.model(`TimestampedParent${Math.random().toString(36).slice(2)}`, parent);
        const created = await Model.create({ title: 't', children: [{ name: 'old' }] });
        const childId = created.children[0]!._id;
        const before = created.children[0]!.updatedAt as Date;
        await new Promise((resolve) => setTimeout(resolve, 5));
        const [filter, update, options] = build(childId);
        await Model.updateOne({ _id: created._id, ...filter }, update, options as mongoose.MongooseUpdateQueryOptions);
        const after = (await Model.findById(created._id).lean())!;
        expect(after.children[0]!.name).toBe('new');
        expect((after.children[0]!.updatedAt as Date).getTime()).toBeGreaterThan(before.getTime());
      } finally {
        await conn.close();
      }
    });
  });
});

describe('$pull', () => {
  const SURVEY = () => ({
    _id: 1,
    results: [
      {
        item: 'A',
        score: 5,
        answers: [
          { q: 1, a: 4 },
          { q: 2, a: 6 },
        ],
      },
      {
        item: 'B',
        score: 8,
        answers: [
          { q: 1, a: 8 },
          { q: 2, a: 9 },
        ],
      },
      {
        item: 'C',
        score: 8,
        answers: [
          { q: 1, a: 8 },
          { q: 2, a: 7 },
        ],
      },
    ],
  });

  it.each([
    ['a sub-document condition', { results: { score: 8, item: 'B' } }, ['A', 'C']],
    ['a sub-document condition with operators', { results: { score: { $gte: 8 }, item: { $ne: 'C' } } }, ['A', 'C']],
    ['$or over sub-document fields', { results: { $or: [{ item: 'A' }, { score: { $gt: 7 }, item: 'C' }] } }, ['B']],
    ['$elemMatch on a nested array', { results: { answers: { $elemMatch: { q: 2, a: { $gte: 8 } } } } }, ['A', 'C']],
    ['an empty condition (every document element)', { results: {} }, []],
  ])('should remove the elements matching %s', async (_label, pull, left) => {
    const c = await fx.fresh('pull');
    await c.insertOne(SURVEY() as never);
    await c.updateOne({ _id: 1 } as never, { $pull: pull } as never);
    const doc = (await c.findOne({ _id: 1 } as never))!;
    expect((doc.results as { item: string }[]).map((r) => r.item)).toEqual(left);
  });

  it.each([
    // Each value is matched as a field, so an array value matches when one of its elements does.
    ['an operator condition on values', { nums: { $gte: 6 } }, [1, 5]],
    ['a value', { nums: 5 }, [1, 6, 7, [6]]],
    ['an array value', { nums: [6] }, [1, 5, 6, 7]],
    ['$in', { nums: { $in: [1, 7] } }, [5, 6, [6]]],
  ])('should remove the values matching %s', async (_label, pull, left) => {
    const c = await fx.fresh('pull');
    await c.insertOne({ _id: 1, nums: [1, 5, 6, 7, [6]] } as never);
    await c.updateOne({ _id: 1 } as never, { $pull: pull } as never);
    expect((await c.findOne({ _id: 1 } as never))!.nums).toEqual(left);
  });

  it.each([
    ['$pull', { $pull: { n: 1 } }, 2, 'Cannot apply $pull to a non-array value'],
    ['$pullAll', { $pullAll: { n: [1] } }, 2, 'Cannot apply $pull to a non-array value'],
    [
      '$pullAll with a non-array argument',
      { $pullAll: { a: 1 } },
      2,
      '$pullAll requires an array argument but was given a int',
    ],
    ['$pop', { $pop: { n: 1 } }, 14, "Path 'n' contains an element of non-array type 'int'"],
    ['$pop with 2', { $pop: { a: 2 } }, 9, '$pop expects 1 or -1, found: 2'],
  ])('should refuse %s on a number', async (_label, update, code, message) => {
    const c = await fx.fresh('pull');
    await c.insertOne({ _id: 1, n: 1, a: [1] } as never);
    expect(await failure(c.updateOne({ _id: 1 } as never, update as never))).toEqual({ code, message });
  });
});

describe('$push', () => {
  it.each([
    ['an int', 1, 'int'],
    ['a string', 's', 'string'],
    ['a document', { a: 1 }, 'object'],
  ])('should refuse to push onto %s (BadValue)', async (_label, value, type) => {
    const c = await fx.fresh('push');
    await c.insertOne({ _id: 1, n: value } as never);
    for (const push of [{ n: 2 }, { n: { $each: [2] } }]) {
      expect(await failure(c.updateOne({ _id: 1 } as never, { $push: push } as never))).toEqual({
        code: 2,
        message: `The field 'n' must be an array but is of type ${type} in document {_id: 1}`,
      });
    }
    expect((await c.findOne({ _id: 1 } as never))!.n).toEqual(value);
  });

  it('should create the array when the field is missing', async () => {
    const c = await fx.fresh('push');
    await c.insertOne({ _id: 1 } as never);
    await c.updateOne({ _id: 1 } as never, { $push: { 'a.b': 1 } } as never);
    expect(await c.findOne({ _id: 1 } as never)).toEqual({ _id: 1, a: { b: [1] } });
  });
});

describe('upsert with _id in the update', () => {
  it('should insert when $set repeats the filter _id', async () => {
    const c = await fx.fresh('upsert-id');
    const result = await c.updateOne({ _id: 7 } as never, { $set: { _id: 7, v: 1 } } as never, { upsert: true });
    expect(result.upsertedId).toBe(7);
    expect(await c.findOne({ _id: 7 } as never)).toEqual({ _id: 7, v: 1 });
    // The same statement on the document it created is a no-op.
    const again = await c.updateOne({ _id: 7 } as never, { $set: { _id: 7, v: 1 } } as never, { upsert: true });
    expect(again).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
  });

  it('should refuse an upsert whose $set changes the filter _id (ImmutableField)', async () => {
    const c = await fx.fresh('upsert-id');
    const error = await failure(c.updateOne({ _id: 7 } as never, { $set: { _id: 8 } } as never, { upsert: true }));
    expect(error).toEqual({
      code: 66,
      message: "Performing an update on the path '_id' would modify the immutable field '_id'",
    });
  });
});
