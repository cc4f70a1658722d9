/**
 * Conformance: find projections with `$slice`, `$elemMatch` and the
 * positional `.$`, written from MongoDB 7's projection operator reference;
 * through the driver and mongoose, and against MONGO_URL too.
 */
import { MongoServerError } from 'mongodb';
import mongoose from 'mongoose';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const POST = () => ({
  _id: 1,
  title: 't',
  comments: ['a', 'b', 'c', 'd', 'e'],
  grades: [
    { grade: 80, mean: 75 },
    { grade: 85, mean: 90 },
    { grade: 90, mean: 85 },
  ],
  scores: [70, 87, 90],
});

async function project(projection: object, filter: object = { _id: 1 }): Promise<unknown> {
  const c = await fx.fresh('projection');
  await c.insertOne(POST() as never);
  return c.findOne(filter as never, { projection });
}

describe('find projection', () => {
  describe('$slice', () => {
    it.each([
      ['the first n', { comments: { $slice: 2 } }, ['a', 'b']],
      ['the last n', { comments: { $slice: -2 } }, ['d', 'e']],
      ['[skip, limit]', { comments: { $slice: [1, 2] } }, ['b', 'c']],
      ['[negative skip, limit]', { comments: { $slice: [-2, 5] } }, ['d', 'e']],
      ['more than there are', { comments: { $slice: 1_000_000_000 } }, ['a', 'b', 'c', 'd', 'e']],
    ])('should return %s elements and keep every other field', async (_label, projection, comments) => {
      expect(await project(projection)).toEqual({ ...POST(), comments });
    });

    it('should return only the named fields when combined with an inclusion', async () => {
      expect(await project({ title: 1, comments: { $slice: 1 } })).toEqual({ _id: 1, title: 't', comments: ['a'] });
    });

    it('should combine with an exclusion', async () => {
      const { grades: _grades, ...rest } = POST();
      expect(await project({ grades: 0, comments: { $slice: 1 } })).toEqual({ ...rest, comments: ['a'] });
    });

    it('should serve mongoose .slice() and populate with a slice', async () => {
      const conn = await mongoose.createConnection(fx.mongo.uri).asPromise();
      try {
        const suffix = Math.random().toString(36).slice(2);
        const Tag = conn.model(`SliceTag${suffix}`, new mongoose.Schema({ name: String }));
        const Post = conn.model(
          `SlicePost${suffix}`,
          new mongoose.Schema({ title: String, comments: [String], tags: [{ type: 'ObjectId', ref: Tag }] }),
        );
        const tags = await Tag.create([{ name: 'x' }, { name: 'y' }, { name: 'z' }]);
        const post = await Post.create({ title: 't', comments: ['a', 'b', 'c'], tags: tags.map((t) => t._id) });
        const sliced = (await Post.findById(post._id).slice('comments', 2).lean())!;
        expect(sliced).toMatchObject({ title: 't', comments: ['a', 'b'] });
        expect(sliced.tags).toHaveLength(3);
        const populated = (await Post.findById(post._id).populate('tags').slice('tags', -1).lean())!;
        expect(populated.title).toBe('t');
        expect((populated.tags as unknown as { name: string }[]).map((t) => t.name)).toEqual(['z']);
      } finally {
        await conn.close();
      }
    });
  });

  describe('$elemMatch', () => {
    it.each([
      [
        'a document condition',
        { grades: { $elemMatch: { mean: { $gt: 80 } } } },
        { grades: [{ grade: 85, mean: 90 }] },
      ],
      ['an operator-only condition', { scores: { $elemMatch: { $gte: 80, $lt: 90 } } }, { scores: [87] }],
      ['no matching element', { scores: { $elemMatch: { $gt: 100 } } }, {}],
    ])('should return the first element matching %s (and _id only)', async (_label, projection, fields) => {
      expect(await project(projection)).toEqual({ _id: 1, ...fields });
    });
  });

  describe('positional $', () => {
    it.each([
      [
        'an equality on a field of the elements',
        { 'grades.grade': 85 },
        { 'grades.$': 1 },
        { grades: [{ grade: 85, mean: 90 }] },
      ],
      [
        '$elemMatch',
        { grades: { $elemMatch: { mean: { $gt: 80 } } } },
        { 'grades.$': 1 },
        { grades: [{ grade: 85, mean: 90 }] },
      ],
      ['a range on values', { scores: { $gte: 88 } }, { 'scores.$': 1, title: 1 }, { title: 't', scores: [90] }],
    ])('should return the element the filter matched with %s', async (_label, filter, projection, fields) => {
      expect(await project(projection, { _id: 1, ...filter })).toEqual({ _id: 1, ...fields });
    });
  });

  it.each([
    [
      'an exclusion in an inclusion',
      { title: 1, comments: 0 },
      31254,
      'Cannot do exclusion on field comments in inclusion projection',
    ],
    [
      'an inclusion in an exclusion',
      { title: 0, comments: 1 },
      31253,
      'Cannot do inclusion on field comments in exclusion projection',
    ],
  ])('should refuse %s, also on an empty collection', async (_label, projection, code, message) => {
    const c = await fx.fresh('projection-empty');
    const error = await c.findOne({}, { projection }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code, message });
  });
});

describe('find projection of a nested field', () => {
  const DOC = { _id: 1, a: { b: [1, 2, 3], c: 1 }, l: [{ x: 1 }, { x: 2 }] };

  it.each([
    ['a sub-projection', { a: { b: { $slice: 1 } } }],
    ['a dotted path', { 'a.b': { $slice: 1 } }],
  ])('should $slice through %s and keep the other fields', async (_label, projection) => {
    const c = await fx.fresh('nested_projection');
    await c.insertOne(structuredClone(DOC) as never);
    // A $slice alone neither includes nor excludes: the document stays whole but for the slice.
    expect(await c.find({}, { projection }).toArray()).toEqual([
      { _id: 1, a: { b: [1], c: 1 }, l: [{ x: 1 }, { x: 2 }] },
    ]);
  });

  it('should refuse $elemMatch on a nested field (31275)', async () => {
    const c = await fx.fresh('nested_projection');
    await expect(c.find({}, { projection: { a: { b: { $elemMatch: { $gt: 1 } } } } }).toArray()).rejects.toMatchObject({
      code: 31275,
    });
  });
});
