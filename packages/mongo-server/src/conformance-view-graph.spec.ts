/**
 * Conformance: views that read other collections and views. `create` checks a
 * view's pipeline and its place among the database's views (no cycle through
 * `viewOn`, `$lookup`, `$graphLookup`, `$facet` or `$unionWith`, at most 20
 * views deep, no writing stage, one collation); `$lookup`, `$graphLookup` and
 * `$unionWith` read a view through its pipeline; a view's default collation
 * is never overridden. Written from MongoDB 7's manual and mongod's view
 * graph; passes against MONGO_URL too.
 */
import type { CollationOptions, Document } from 'mongodb';

import { rejection as failure, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** What a read of `collection` through `pipeline` is refused with. */
const aggregateFailure = (collection: string, pipeline: Document[]) =>
  failure(fx.db.collection(collection).aggregate(pipeline).toArray());

const create = (name: string, viewOn: string, pipeline: Document[] = [], options: Document = {}) =>
  fx.db.command({ create: name, viewOn, pipeline, ...options });
const lookup = (from: string) => ({ $lookup: { from, localField: 'k', foreignField: 'k', as: 'joined' } });
const graphLookup = (from: string) => ({
  $graphLookup: { from, startWith: '$k', connectFromField: 'k', connectToField: 'k', as: 'graph' },
});
const facet = (from: string) => ({ $facet: { joined: [lookup(from)] } });
const union = (coll: string) => ({ $unionWith: coll });

beforeEach(async () => {
  await fx.db.dropDatabase();
});

describe('reading a view from another pipeline', () => {
  beforeEach(async () => {
    await fx.db.collection('items').insertMany([
      { _id: 1, k: 'a', price: 5 },
      { _id: 2, k: 'b', price: 50 },
      { _id: 3, k: 'c', price: 8 },
    ] as never[]);
    await create('cheap', 'items', [{ $match: { price: { $lt: 10 } } }, { $set: { cheap: true } }]);
  });

  it('should give $lookup the view documents, not an empty collection', async () => {
    const joined = await fx.db
      .collection('items')
      .aggregate([lookup('cheap'), { $project: { ids: '$joined._id', flags: '$joined.cheap' } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(joined).toEqual([
      { _id: 1, ids: [1], flags: [true] },
      { _id: 2, ids: [], flags: [] },
      { _id: 3, ids: [3], flags: [true] },
    ]);
  });

  it('should give $unionWith and $graphLookup the view documents', async () => {
    const unioned = await fx.db
      .collection('items')
      .aggregate([{ $match: { _id: 2 } }, union('cheap'), { $project: { price: 1 } }])
      .toArray();
    expect(unioned.map((doc) => doc._id).sort()).toEqual([1, 2, 3]);
    const graphed = await fx.db
      .collection('items')
      .aggregate([graphLookup('cheap'), { $project: { graph: '$graph._id' } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(graphed).toEqual([
      { _id: 1, graph: [1] },
      { _id: 2, graph: [] },
      { _id: 3, graph: [3] },
    ]);
  });

  it('should read a view whose pipeline looks up another view', async () => {
    await create('withCheap', 'items', [lookup('cheap'), { $project: { n: { $size: '$joined' } } }]);
    const docs = await fx.db
      .collection('withCheap')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    expect(docs).toEqual([
      { _id: 1, n: 1 },
      { _id: 2, n: 0 },
      { _id: 3, n: 1 },
    ]);
  });
});

describe('create of a view', () => {
  it.each<[string, [string, string, Document[]][]]>([
    ['a view on itself', [['a', 'a', []]]],
    [
      'a view on a view that reads it',
      [
        ['a', 'b', []],
        ['b', 'a', []],
      ],
    ],
    [
      'a three-view cycle',
      [
        ['a', 'b', []],
        ['b', 'c', []],
        ['c', 'a', []],
      ],
    ],
    ['a $lookup of itself', [['a', 'b', [lookup('a')]]]],
    ['a $graphLookup of itself', [['a', 'b', [graphLookup('a')]]]],
    ['a $facet that looks itself up', [['a', 'b', [facet('a')]]]],
    ['a $unionWith of itself', [['a', 'b', [union('a')]]]],
    ['a $unionWith nested in a $unionWith', [['a', 'b', [{ $unionWith: { coll: 'c', pipeline: [union('a')] } }]]]],
    [
      'a view that looks up a view on it',
      [
        ['a', 'b', []],
        ['b', 'c', [lookup('a')]],
      ],
    ],
  ])('should refuse %s (GraphContainsCycle)', async (_label, views) => {
    const last = views.pop()!;
    for (const [name, viewOn, pipeline] of views) await create(name, viewOn, pipeline);
    const error = await failure(create(...last));
    expect([error.code, error.codeName]).toEqual([5, 'GraphContainsCycle']);
    expect(error.message).toMatch(new RegExp(`^View cycle detected: ${fx.db.databaseName}\\.${last[0]} => `));
    const listed = await fx.db.listCollections({ name: last[0] }).toArray();
    expect(listed).toEqual([]);
  });

  it('should allow a view to read the same view through several stages', async () => {
    await create('a', 'b', [lookup('b'), graphLookup('b'), facet('b'), union('b')]);
    await create('b', 'items');
  });

  it.each([
    ['$out', { $out: 'copy' }],
    ['$merge', { $merge: { into: 'copy' } }],
  ])('should refuse %s in the pipeline (OptionNotSupportedOnView)', async (stage, spec) => {
    const error = await failure(create('v', 'items', [{ $match: {} }, spec]));
    expect([error.code, error.codeName]).toEqual([167, 'OptionNotSupportedOnView']);
    expect(error.message).toContain(
      `The aggregation stage ${stage} in location 1 of the pipeline cannot be used in the view definition of ${fx.db.databaseName}.v because it writes to disk`,
    );
  });

  it('should refuse a $documents stage, which reads no collection (InvalidNamespace)', async () => {
    const error = await failure(create('v', 'items', [{ $documents: [{ a: 1 }] }]));
    expect([error.code, error.codeName]).toEqual([73, 'InvalidNamespace']);
    expect(error.message).toContain('cannot be used in a view definition');
  });

  it('should refuse a view on a view of another collation (OptionNotSupportedOnView)', async () => {
    await create('french', 'items', [], { collation: { locale: 'fr' } });
    for (const options of [{}, { collation: { locale: 'de' } }]) {
      const error = await failure(create('v', 'french', [], options));
      expect([error.code, error.codeName]).toEqual([167, 'OptionNotSupportedOnView']);
    }
    await create('v', 'french', [], { collation: { locale: 'fr' } });
  });

  describe('views 20 deep, each reading the next through four stages', () => {
    const DEPTH = 20;

    beforeEach(async () => {
      // From the bottom up: each create then checks a graph that is already whole below it.
      for (let i = DEPTH; i >= 1; i--) {
        const next = `v${i + 1}`;
        await create(`v${i}`, next, [lookup(next), graphLookup(next), facet(next), union(next)]);
      }
    });

    it.each<[string, [string, string, Document[]]]>([
      ['a view under the deepest', ['v21', 'v22', []]],
      ['a view on the top', ['v0', 'v1', []]],
      ['a view that looks up the top', ['v0', 'items', [lookup('v1')]]],
      ['a view that unions the top', ['v0', 'items', [union('v1')]]],
    ])('should refuse %s (ViewDepthLimitExceeded)', async (_label, view) => {
      const error = await failure(create(...view));
      expect([error.code, error.codeName]).toEqual([149, 'ViewDepthLimitExceeded']);
    });

    it('should allow a view in the middle', async () => {
      await create('middle', 'v10');
    });

    it('should refuse a read that resolves 20 views, before running anything (ViewDepthLimitExceeded)', async () => {
      const error = await aggregateFailure('v10', [union('v1')]);
      expect([error.code, error.codeName]).toEqual([149, 'ViewDepthLimitExceeded']);
    });
  });

  it('should read views 19 deep, each looking up the next three times, reading each view once', async () => {
    // Without $facet (which always gives one document) the views stay empty: only the
    // number of view reads could grow, as 3^19 if each lookup read its view again.
    for (let i = 20; i >= 1; i--) {
      const next = `w${i + 1}`;
      await create(`w${i}`, next, [lookup(next), graphLookup(next), union(next)]);
    }
    expect(await fx.db.collection('w2').find().toArray()).toEqual([]);
  });
});

describe("a view's default collation", () => {
  beforeEach(async () => {
    await fx.db.collection('places').insertMany([
      { _id: 1, category: 'café' },
      { _id: 2, category: 'cafe' },
      { _id: 3, category: 'cafE' },
    ] as never[]);
    await create('placesView', 'places', [{ $project: { category: 1 } }], {
      collation: { locale: 'fr', strength: 1 },
    });
  });

  it('should compare strings on the view under its collation', async () => {
    expect(await fx.db.collection('placesView').countDocuments({ category: 'cafe' })).toBe(3);
    expect(await fx.db.collection('placesView').distinct('category')).toHaveLength(1);
    expect(
      await fx.db
        .collection('placesView')
        .countDocuments({ category: 'cafe' }, { collation: { locale: 'fr', strength: 1 } }),
    ).toBe(3);
  });

  it('should not take the collection default collation for a view without one', async () => {
    await fx.db.dropDatabase();
    await fx.db.createCollection('places', { collation: { locale: 'fr', strength: 1 } });
    await fx.db.collection('places').insertMany([{ category: 'café' }, { category: 'cafe' }] as never[]);
    await create('plain', 'places');
    expect(await fx.db.collection('plain').countDocuments({ category: 'cafe' })).toBe(1);
  });

  it.each<[string, (collation: CollationOptions) => Promise<unknown>]>([
    ['find', (collation) => fx.db.collection('placesView').find({}, { collation }).toArray()],
    ['aggregate', (collation) => fx.db.collection('placesView').aggregate([], { collation }).toArray()],
    ['count', (collation) => fx.db.command({ count: 'placesView', collation })],
    ['distinct', (collation) => fx.db.collection('placesView').distinct('category', {}, { collation })],
    [
      'a $lookup of the view',
      (collation) =>
        fx.db
          .collection('places')
          .aggregate([lookup('placesView')], { collation })
          .toArray(),
    ],
  ])('should refuse %s with another collation (OptionNotSupportedOnView)', async (_label, read) => {
    for (const collation of [{ locale: 'en' }, { locale: 'simple' }]) {
      const error = await failure(read(collation));
      expect([error.code, error.codeName]).toEqual([167, 'OptionNotSupportedOnView']);
    }
  });

  it('should refuse a $lookup of the view from a collection of another default collation', async () => {
    const error = await aggregateFailure('places', [lookup('placesView')]);
    expect([error.code, error.codeName]).toEqual([167, 'OptionNotSupportedOnView']);
  });
});

describe('explain of a read on a view', () => {
  beforeEach(async () => {
    await fx.db.collection('items').insertMany([{ k: 'a' }, { k: 'b' }] as never[]);
    await create('all', 'items', [{ $match: {} }]);
  });

  it.each<[string, () => Promise<Document>]>([
    ['find', () => fx.db.collection('all').find({ k: 'a' }).explain('executionStats')],
    [
      'aggregate',
      () =>
        fx.db
          .collection('all')
          .aggregate([{ $match: { k: 'a' } }])
          .explain('executionStats'),
    ],
    ['aggregate with explain: true', () => fx.db.command({ aggregate: 'all', pipeline: [], explain: true })],
  ])('should explain %s as the aggregation on the source, not run it', async (_label, explain) => {
    const plan = await explain();
    expect(plan.cursor).toBeUndefined();
    const cursorStage = (plan.stages as Document[] | undefined)?.[0]?.$cursor as Document | undefined;
    const queryPlanner = (plan.queryPlanner ?? cursorStage?.queryPlanner) as Document;
    expect(queryPlanner.namespace).toBe(`${fx.db.databaseName}.items`);
  });
});

describe('renameCollection of a view', () => {
  it('should be refused (CommandNotSupportedOnView)', async () => {
    await create('v', 'items');
    const error = await failure(
      fx.client.db('admin').command({ renameCollection: `${fx.db.databaseName}.v`, to: `${fx.db.databaseName}.w` }),
    );
    expect([error.code, error.codeName]).toEqual([166, 'CommandNotSupportedOnView']);
    expect((await fx.db.listCollections({ name: 'v' }).toArray()).map((info) => info.type)).toEqual(['view']);
  });
});
