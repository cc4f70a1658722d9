/**
 * Conformance: `let` variables (`$$name`) in find, aggregate, update,
 * delete and findAndModify, from MongoDB 7's command reference; passes
 * against MONGO_URL too.
 */
import { Timestamp } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const CAKES = [
  { _id: 1, flavor: 'chocolate', price: 8 },
  { _id: 2, flavor: 'strawberry', price: 20 },
  { _id: 3, flavor: 'cherry', price: 12 },
];

async function cakes() {
  const c = await fx.fresh('cakes');
  await c.insertMany(CAKES.map((cake) => ({ ...cake })) as never[]);
  return c;
}

describe('let variables', () => {
  it('should bind variables in a find filter $expr', async () => {
    const c = await cakes();
    const found = await c.find({ $expr: { $eq: ['$flavor', '$$target'] } }, { let: { target: 'cherry' } }).toArray();
    expect(found.map((d) => d._id)).toEqual([3]);
  });

  it('should explain a find and an aggregate that use let variables', async () => {
    const c = await cakes();
    // The variables are defined while explaining too: an undefined one is refused (17276).
    const found = await c.find({ $expr: { $eq: ['$flavor', '$$target'] } }, { let: { target: 'cherry' } }).explain();
    expect(found.queryPlanner).toBeDefined();
    const aggregated = await c
      .aggregate([{ $match: { _id: { $gt: 0 } } }, { $project: { note: '$$note' } }], { let: { note: 'x' } })
      .explain();
    expect(aggregated.ok).toBe(1);
  });

  it('should evaluate a variable defined by an expression once', async () => {
    const c = await cakes();
    const found = await c
      .find({ $expr: { $gt: ['$price', '$$limit'] } }, { let: { limit: { $add: [5, 5] } } })
      .toArray();
    expect(found.map((d) => d._id)).toEqual([2, 3]);
  });

  it('should bind variables in an aggregation pipeline', async () => {
    const c = await cakes();
    const out = await c
      .aggregate([{ $match: { $expr: { $lt: ['$price', '$$max'] } } }, { $project: { _id: 1, note: '$$note' } }], {
        let: { max: 15, note: 'cheap' },
      })
      .toArray();
    expect(out).toEqual([
      { _id: 1, note: 'cheap' },
      { _id: 3, note: 'cheap' },
    ]);
  });

  it('should bind variables in update, delete and findAndModify filters and pipelines', async () => {
    const c = await cakes();
    await c.updateMany({ $expr: { $eq: ['$flavor', '$$f'] } }, [{ $set: { price: '$$p' } }], {
      let: { f: 'cherry', p: 15 },
    });
    expect((await c.findOne({ _id: 3 } as never))!.price).toBe(15);
    await c.deleteOne({ $expr: { $eq: ['$flavor', '$$f'] } }, { let: { f: 'chocolate' } });
    expect(await c.countDocuments()).toBe(2);
    const before = await c.findOneAndUpdate(
      { $expr: { $eq: ['$_id', '$$id'] } },
      { $set: { sold: true } },
      { let: { id: 2 } },
    );
    expect(before).toMatchObject({ _id: 2 });
    expect((await c.findOne({ _id: 2 } as never))!.sold).toBe(true);
  });

  it('should bind variables in a find projection and in findAndModify fields', async () => {
    const c = await cakes();
    const found = await c
      .find({ _id: 1 } as never, {
        projection: { flavor: 1, tax: { $multiply: ['$price', '$$rate'] } },
        let: { rate: 0.5 },
      })
      .toArray();
    expect(found).toEqual([{ _id: 1, flavor: 'chocolate', tax: 4 }]);
    const before = await c.findOneAndUpdate(
      { _id: 2 } as never,
      { $set: { sold: true } },
      { projection: { label: { $concat: ['$flavor', '$$suffix'] } }, let: { suffix: ' cake' } },
    );
    expect(before).toEqual({ _id: 2, label: 'strawberry cake' });
  });

  it('should refuse a pipeline stage of two fields when the command has let', async () => {
    const c = await cakes();
    const error = await rejection(
      c.aggregate([{ $match: { $expr: { $eq: ['$_id', '$$id'] } }, $limit: 1 }], { let: { id: 1 } }).toArray(),
    );
    expect(error.code).toBe(40323);
  });

  it('should refuse a variable name starting with an upper-case letter', async () => {
    const c = await cakes();
    const error = await rejection(c.find({ $expr: { $eq: ['$flavor', '$$X'] } }, { let: { X: 1 } }).toArray());
    expect(error.code).toBe(16870);
  });
});

describe('system variables and pipeline-style updates', () => {
  it('should give $$CLUSTER_TIME, as a replica set member does: a Timestamp of now', async () => {
    const c = await cakes();
    const before = Math.floor(Date.now() / 1000);
    const [doc] = await c
      .aggregate([
        { $match: { _id: 1 } },
        { $project: { _id: 0, t: '$$CLUSTER_TIME', type: { $type: '$$CLUSTER_TIME' } } },
      ])
      .toArray();
    expect(doc!.type).toBe('timestamp');
    const seconds = (doc!.t as Timestamp).high;
    expect(seconds).toBeGreaterThanOrEqual(before - 1);
    expect(seconds).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    await c.updateOne({ _id: 1 } as never, [{ $set: { at: '$$CLUSTER_TIME' } }]);
    expect((await c.findOne({ _id: 1 } as never))!.at).toBeInstanceOf(Timestamp);
  });

  it.each([
    ['$replaceWith of a document without _id', [{ $replaceWith: { n: '$price' } }], { _id: 1, n: 8 }],
    ['$project without _id', [{ $project: { _id: 0, flavor: 1 } }], { _id: 1, flavor: 'chocolate' }],
  ])('should keep the _id after %s, as a replacement does', async (_label, pipeline, expected) => {
    const c = await cakes();
    await c.updateOne({ _id: 1 } as never, pipeline);
    expect(await c.findOne({ _id: 1 } as never)).toEqual(expected);
  });

  it('should refuse a pipeline that changes the _id (66)', async () => {
    const c = await cakes();
    const error = await rejection(c.updateOne({ _id: 1 } as never, [{ $replaceWith: { _id: 5 } }]));
    expect(error.code).toBe(66);
  });
});
