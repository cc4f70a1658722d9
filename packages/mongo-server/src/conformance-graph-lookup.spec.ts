/**
 * Conformance: `$graphLookup`, ported from mongod's own jstests in
 * jstests/aggregation/sources/graphLookup/: basic.js (missing collections,
 * the whole walk, `maxDepth`, `startWith` evaluated and expanded, no walk
 * from a missing `connectFromField`, cycles, `depthField`), filter.js
 * (`restrictSearchWithMatch`, `$expr` in it, with a variable of an enclosing
 * `$lookup`), error.js (mongod's codes for a malformed stage, a filter
 * that fails, and the 100 MB bound on what the walk holds), nested_objects.js (`connectFromField` and `connectToField`
 * through arrays of documents), variables.js (`startWith` reading a variable
 * of an enclosing `$lookup`),
 * missing_fields.js (a null matches null but never a missing field, a
 * missing `startWith` matches nothing) and collation_graphlookup.js (which
 * collation the walk compares by: the aggregate's, else the local
 * collection's default, never the foreign collection's; documents and
 * `_id`s are never deduplicated by it). The cases and the expected results
 * are mongod's. Written to hold against a real MongoDB 7 (MONGO_URL) too.
 *
 * Left out: missing_fields.js's `undefined` values (the Node driver writes
 * `undefined` as null, so it cannot store one). Documents are stored as the
 * shell writes them (a bare number is a double); results are compared
 * regardless of order, as the sources' `arrayEq` does.
 */
import { type AggregateOptions, type Document, Double, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const caseInsensitiveUS = { collation: { locale: 'en_US', strength: 2 } };
const caseSensitiveUS = { collation: { locale: 'en_US', strength: 3 } };
const LOCAL = 'collation_graphlookup';
const FOREIGN = 'collation_graphlookup_foreign';

/** Drops `name` and creates it again, with `options` (a default collation) when given. */
async function recreate(name: string, options?: Document): Promise<void> {
  await fx.fresh(name);
  if (options) await fx.db.createCollection(name, options);
}

/** The source's pipeline: `usernames`' documents with the users reachable through `friends` in `from`. */
async function friendsOf(usernames: string[], from: string, options: AggregateOptions = {}): Promise<Document[]> {
  return fx.db
    .collection(LOCAL)
    .aggregate(
      [
        { $match: { username: { $in: usernames } } },
        {
          $graphLookup: {
            from,
            startWith: '$friends',
            connectFromField: 'friends',
            connectToField: 'username',
            as: 'friendUsers',
          },
        },
      ],
      options,
    )
    .toArray();
}

/** Each result's username and how many users it reached, by username. */
const reached = (results: Document[]) =>
  Object.fromEntries(results.map((doc) => [doc.username as string, (doc.friendUsers as unknown[]).length]));

/** `value` as the shell sends it: its bare numbers are doubles. */
function shellValue(value: unknown): unknown {
  if (typeof value === 'number') return new Double(value);
  if (Array.isArray(value)) return value.map(shellValue);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shellValue(v)]));
  }
  return value;
}

/** Documents sorted by `_id` (numbers first), their `as` arrays too: the sources compare regardless of order. */
function unordered(docs: Document[], as: string): Document[] {
  const byId = (a: Document, b: Document) => (Number(a._id) || 0) - (Number(b._id) || 0);
  return [...docs].sort(byId).map((doc) => ({ ...doc, [as]: [...(doc[as] as Document[])].sort(byId) }));
}

const basicGraphLookup = {
  $graphLookup: {
    from: 'foreign',
    startWith: '$starting',
    connectFromField: 'from',
    connectToField: 'to',
    as: 'results',
  },
};
const integers = (extra: Document = {}) => ({
  $graphLookup: {
    from: 'foreign',
    startWith: '$starting',
    connectFromField: 'neighbors',
    connectToField: '_id',
    as: 'integers',
    ...extra,
  },
});

describe('conformance: $graphLookup (basic.js)', () => {
  /** The first result's `integers`. */
  const walk = async (stage: Document, options: AggregateOptions = {}) =>
    (await fx.db.collection('local').aggregate([stage], options).toArray())[0]!.integers as Document[];

  it('should give no result on missing local and foreign collections, and an empty join on a missing foreign one', async () => {
    await fx.fresh('local');
    await fx.fresh('foreign');
    expect(await fx.db.collection('local').aggregate([basicGraphLookup]).toArray()).toEqual([]);
    await fx.db.collection('foreign').insertOne({});
    expect(await fx.db.collection('local').aggregate([basicGraphLookup]).toArray()).toEqual([]);
    await fx.fresh('foreign');
    await fx.db.collection('local').insertOne(shellValue({ _id: 0 }) as Document);
    expect(await fx.db.collection('local').aggregate([basicGraphLookup]).toArray()).toEqual([{ _id: 0, results: [] }]);
  });

  describe('over the integers 0–99, each the neighbour of the next', () => {
    beforeEach(async () => {
      await fx.fresh('local');
      const foreign = await fx.fresh('foreign');
      await foreign.insertMany(
        Array.from({ length: 100 }, (_, i) => shellValue({ _id: i, neighbors: [i - 1, i + 1] }) as Document),
      );
      await fx.db.collection('local').insertOne(shellValue({ starting: 50 }) as Document);
    });

    it('should reach every document', async () => {
      expect(await walk(integers())).toHaveLength(100);
    });

    it('should stop at maxDepth: one document at depth 0, two at each depth after it', async () => {
      expect(await walk(integers({ maxDepth: new Double(5) }))).toHaveLength(11);
    });

    it('should evaluate startWith', async () => {
      const found = await walk(integers({ startWith: { $add: ['$starting', 3] }, maxDepth: new Double(0) }));
      expect(found.map((doc) => doc._id)).toEqual([53]);
    });

    it('should take each element of a startWith array as a starting point', async () => {
      expect(await walk(integers({ startWith: { $literal: [1, 2, 3] }, maxDepth: new Double(0) }))).toHaveLength(3);
    });

    it('should not walk on from a document without connectFromField (never looking for a null)', async () => {
      const foreign = fx.db.collection('foreign');
      await foreign.deleteOne({ _id: 51 } as Document);
      await foreign.insertOne(shellValue({ _id: 51 }) as Document);
      await foreign.insertOne(shellValue({ _id: null, neighbors: [50, 52] }) as Document);
      expect(await walk(integers())).toHaveLength(52);
    });

    it('should end on a cyclic graph, and give each document its distance as depthField (an Int64)', async () => {
      const foreign = fx.db.collection('foreign');
      await foreign.updateOne({ _id: 99 } as Document, { $set: { neighbors: shellValue([98, 0]) } });
      await foreign.updateOne({ _id: 0 } as Document, { $set: { neighbors: shellValue([99, 1]) } });
      expect(await walk(integers())).toHaveLength(100);
      const found = await walk(integers({ depthField: 'distance' }), { promoteLongs: false });
      expect(found).toHaveLength(100);
      for (const doc of found) {
        expect(doc.distance).toBeInstanceOf(Long);
        expect((doc.distance as Long).toNumber()).toBe(Math.abs(50 - Number(doc._id)));
      }
    });
  });
});

describe('conformance: $graphLookup (filter.js)', () => {
  const first = async (pipeline: Document[]) => (await fx.db.collection('local').aggregate(pipeline).toArray())[0]!;

  beforeEach(async () => {
    await fx.fresh('local');
    await fx.db.collection('local').insertOne(shellValue({ starting: 0 }) as Document);
  });

  describe('over the integers 0–99', () => {
    beforeEach(async () => {
      const foreign = await fx.fresh('foreign');
      await foreign.insertMany(
        Array.from({ length: 100 }, (_, i) => shellValue({ _id: i, neighbors: [i - 1, i + 1] }) as Document),
      );
    });

    it('should walk only documents matching restrictSearchWithMatch', async () => {
      const res = await first([integers({ restrictSearchWithMatch: { _id: { $lt: 10 } } })]);
      expect(res.integers).toHaveLength(10);
    });

    it('should not walk through documents that do not match it', async () => {
      const res = await first([integers({ restrictSearchWithMatch: { _id: { $gt: 10 } } })]);
      expect(res.integers).toHaveLength(0);
    });
  });

  describe('over a chain whose second link is excluded', () => {
    const chain = (restrictSearchWithMatch: Document) => ({
      $graphLookup: {
        from: 'foreign',
        startWith: '$starting',
        connectFromField: 'to',
        connectToField: 'from',
        as: 'results',
        restrictSearchWithMatch,
      },
    });
    beforeEach(async () => {
      const foreign = await fx.fresh('foreign');
      await foreign.insertMany(
        [
          { from: 0, to: 1, shouldBeIncluded: true },
          { from: 1, to: 2, shouldBeIncluded: false },
          { from: 2, to: 3, shouldBeIncluded: true },
        ].map((doc) => shellValue(doc) as Document),
      );
    });

    it('should stop exploring at a document that does not match the filter', async () => {
      expect((await first([chain({ shouldBeIncluded: true })])).results).toHaveLength(1);
    });

    it('should take $expr in the filter', async () => {
      expect((await first([chain({ $expr: { $eq: ['$shouldBeIncluded', true] } })])).results).toHaveLength(1);
    });

    it("should give $expr in the filter the variables of an enclosing $lookup's let", async () => {
      const res = await first([
        {
          $lookup: {
            from: 'local',
            let: { foo: true },
            pipeline: [chain({ $expr: { $eq: ['$shouldBeIncluded', '$$foo'] } })],
            as: 'array',
          },
        },
      ]);
      expect((res.array as Document[])[0]!.results).toHaveLength(1);
    });
  });
});

describe('conformance: $graphLookup (nested_objects.js)', () => {
  const reachedFrom = async (docs: Document[], connectFromField: string, connectToField: string) => {
    await fx.fresh('local');
    await fx.db.collection('local').insertOne(shellValue({ starting: 0 }) as Document);
    const foreign = await fx.fresh('foreign');
    await foreign.insertMany(docs.map((doc) => shellValue(doc) as Document));
    const stage = {
      $graphLookup: { from: 'foreign', startWith: '$starting', connectFromField, connectToField, as: 'integers' },
    };
    return ((await fx.db.collection('local').aggregate([stage]).toArray())[0]!.integers as Document[]).length;
  };
  const hundred = <T>(make: (i: number) => T) => Array.from({ length: 100 }, (_, i) => make(i));

  it('should follow a connectFromField that is an array of documents', async () => {
    const docs = hundred((i) => ({ _id: i, neighbors: [{ id: i + 1 }, { id: i + 2 }] }));
    expect(await reachedFrom(docs, 'neighbors.id', '_id')).toBe(100);
  });

  it('should match a connectToField that is an array of documents', async () => {
    const docs = hundred((i) => ({ previous: [{ neighbor: i }, { neighbor: i - 1 }], value: i + 1 }));
    expect(await reachedFrom(docs, 'value', 'previous.neighbor')).toBe(100);
  });

  it('should do both at once', async () => {
    const docs = hundred((i) => ({
      previous: [{ neighbor: i }, { neighbor: i - 1 }],
      values: [{ neighbor: i + 1 }, { neighbor: i + 2 }],
    }));
    expect(await reachedFrom(docs, 'values.neighbor', 'previous.neighbor')).toBe(100);
  });
});

describe('conformance: $graphLookup (variables.js)', () => {
  it("should start with a variable of an enclosing $lookup's let", async () => {
    const local = await fx.fresh('graph_lookup_var_local');
    const foreign = await fx.fresh('graph_lookup_var_foreign');
    await foreign.insertOne(shellValue({ from: 'b', to: 'a', _id: 0 }) as Document);
    await local.insertOne({});
    const res = await local
      .aggregate([
        {
          $lookup: {
            from: 'graph_lookup_var_local',
            let: { var1: 'a' },
            pipeline: [
              {
                $graphLookup: {
                  from: 'graph_lookup_var_foreign',
                  startWith: '$$var1',
                  connectFromField: 'from',
                  connectToField: 'to',
                  as: 'resultsFromGraphLookup',
                },
              },
            ],
            as: 'resultsFromLookup',
          },
        },
      ])
      .toArray();
    expect(res).toHaveLength(1);
    const [inner] = res[0]!.resultsFromLookup as Document[];
    expect(res[0]!.resultsFromLookup).toHaveLength(1);
    expect(inner!.resultsFromGraphLookup).toEqual([{ _id: 0, from: 'b', to: 'a' }]);
  });
});

/** error.js's stage with `fields` changed (`undefined` leaves a field out). */
function errorStage(fields: Document): Document {
  const base: Document = {
    from: 'foreign',
    startWith: { $literal: 0 },
    connectToField: 'a',
    connectFromField: 'b',
    as: 'output',
    ...fields,
  };
  return { $graphLookup: Object.fromEntries(Object.entries(base).filter(([, value]) => value !== undefined)) };
}

/** [what error.js says, the stage, mongod's code] */
const STAGE_ERRORS: [string, Document, number][] = [
  ['$graphLookup spec must be an object', { $graphLookup: 4 }, 9],
  ['maxDepth must be numeric', errorStage({ maxDepth: 'string' }), 40100],
  ['maxDepth must be nonnegative', errorStage({ maxDepth: new Double(-1) }), 40101],
  ['maxDepth must be representable as a long long', errorStage({ maxDepth: 2.3 }), 40102],
  ['from must be a string', errorStage({ from: -1 }), 9],
  ['from must be a valid namespace', errorStage({ from: '' }), 73],
  ['as must be a string', errorStage({ as: 0 }), 40103],
  ['as cannot be a fieldPath', errorStage({ as: '$output' }), 16410],
  ['connectFromField must be a string', errorStage({ connectFromField: 0 }), 40103],
  ['connectFromField cannot be a fieldPath', errorStage({ connectFromField: '$b' }), 16410],
  ['connectToField must be a string', errorStage({ connectToField: 0 }), 40103],
  ['connectToField cannot be a fieldPath', errorStage({ connectToField: '$a' }), 16410],
  ['depthField must be a string', errorStage({ depthField: 0 }), 40103],
  ['depthField cannot be a fieldPath', errorStage({ depthField: '$depth' }), 16410],
  ['restrictSearchWithMatch must be an object', errorStage({ restrictSearchWithMatch: 'notamatch' }), 40185],
  ['unknown argument', errorStage({ notAField: 'foo' }), 40104],
  ['connectToField was not specified', errorStage({ connectToField: undefined }), 40105],
  ['connectFromField was not specified', errorStage({ connectFromField: undefined }), 40105],
  ['startWith was not specified', errorStage({ startWith: undefined }), 40105],
  ['as was not specified', errorStage({ as: undefined }), 40105],
  ['from was not specified', errorStage({ from: undefined }), 9],
];

/** error.js's filters that must fail (it checks only that they throw). */
const FILTERS_THAT_FAIL: [string, Document][] = [
  ['unable to parse match expression', { $not: { a: 1 } }],
  ['cannot use $where inside $graphLookup', { $where: '3 > 2' }],
  ['cannot use $text inside $graphLookup', { $text: { $search: 'some text' } }],
  [
    'cannot use $near inside $graphLookup',
    { x: { $near: { $geometry: { type: 'Point', coordinates: [0, 0] }, $maxDistance: 100 } } },
  ],
  [
    'cannot use $near inside $graphLookup at any depth',
    { $and: [{ x: { $near: { $geometry: { type: 'Point', coordinates: [0, 0] }, $maxDistance: 100 } } }] },
  ],
  ['cannot use $expr with unbound variable', { $expr: { $eq: ['$x', '$$unbound'] } }],
];

describe('conformance: $graphLookup (error.js)', () => {
  beforeAll(async () => {
    const local = await fx.fresh('local');
    await local.insertOne(shellValue({ b: 0 }) as Document);
    const foreign = await fx.fresh('foreign');
    await foreign.insertOne(shellValue({ a: 0, x: 0 }) as Document);
  });
  const fails = (stage: Document) => rejection(fx.db.collection('local').aggregate([stage]).toArray());

  it.each(STAGE_ERRORS)('%s', async (_label, stage, code) => {
    expect((await fails(stage)).code).toBe(code);
  });

  it.each(FILTERS_THAT_FAIL)('%s', async (_label, restrictSearchWithMatch) => {
    await fails(errorStage({ restrictSearchWithMatch }));
  });

  describe('what one walk holds, at most 100 MB', () => {
    const walk = (startWith: unknown, connectToField: string, connectFromField: string, as: string) => ({
      $graphLookup: { from: 'foreign', startWith, connectToField, connectFromField, as },
    });

    it('maximum memory usage reached: the documents reached', async () => {
      const foreign = await fx.fresh('foreign');
      for (let i = 0; i < 8; i++)
        await foreign.insertOne(shellValue({ _id: i, longString: 'x'.repeat(14 * 1024 * 1024 - 1) }) as Document);
      const initial = Array.from({ length: 8 }, (_, i) => new Double(i));
      expect((await fails(walk({ $literal: initial }, '_id', 'notimportant', 'graph'))).code).toBe(40099);
    });

    it('maximum memory usage reached: the documents reached and the frontier', async () => {
      const foreign = await fx.fresh('foreign');
      for (let i = 0; i < 14; i++)
        await foreign.insertOne(shellValue({ from: 0, to: 1, s: ' '.repeat(7 * 1024 * 1024 - 1) }) as Document);
      expect((await fails(walk({ $literal: 0 }, 'from', 's', 'out'))).code).toBe(40099);
    });

    it('no error when the documents reached stay under it', async () => {
      const foreign = await fx.fresh('foreign');
      for (let i = 0; i < 13; i++)
        await foreign.insertOne(shellValue({ from: 0, to: 1, s: ' '.repeat(7 * 1024 * 1024 - 1) }) as Document);
      const res = await fx.db
        .collection('local')
        .aggregate([walk({ $literal: 0 }, 'from', 'to', 'out'), { $unwind: { path: '$out' } }])
        .toArray();
      expect(res).toHaveLength(13);
    });
  });

  it('division by zero in $expr', async () => {
    const foreign = await fx.fresh('foreign');
    await foreign.insertOne(shellValue({ a: 0, x: 0 }) as Document);
    const error = await fails(errorStage({ restrictSearchWithMatch: { $expr: { $divide: [1, '$x'] } } }));
    expect([16608, 2]).toContain(error.code);
  });
});

describe('conformance: $graphLookup (missing_fields.js)', () => {
  const lookup = (startWith: unknown) => [
    {
      $graphLookup: {
        from: 'missing_fields',
        startWith,
        connectFromField: 'x',
        connectToField: 'y',
        as: 'arr',
        maxDepth: new Double(0),
      },
    },
  ];
  const run = async (docs: Document[], startWith: unknown) => {
    const coll = await fx.fresh('missing_fields');
    await coll.insertMany(docs.map((doc) => shellValue(doc) as Document));
    return unordered(await coll.aggregate(lookup(startWith)).toArray(), 'arr');
  };

  it('should match a null startWith to null only, never to a missing connectToField', async () => {
    const docs = [
      { _id: 0, x: 1, y: 1 },
      { _id: 1, x: 1, y: null },
      { _id: 2, x: 1, y: 1 },
      { _id: 3, x: 1 },
    ];
    expect(await run(docs, '$y')).toEqual([
      { _id: 0, x: 1, y: 1, arr: [docs[0], docs[2]] },
      { _id: 1, x: 1, y: null, arr: [docs[1]] },
      { _id: 2, x: 1, y: 1, arr: [docs[0], docs[2]] },
      { _id: 3, x: 1, arr: [] },
    ]);
    expect(await run(docs, null)).toEqual(docs.map((doc) => ({ ...doc, arr: [docs[1]] })));
  });

  it('should not match a missing startWith to a missing connectToField', async () => {
    expect(
      await run(
        [
          { _id: 0, x: 1, y: 1 },
          { _id: 1, x: 2 },
          { _id: 3, x: 1 },
        ],
        '$y',
      ),
    ).toEqual([
      { _id: 0, x: 1, y: 1, arr: [{ _id: 0, x: 1, y: 1 }] },
      { _id: 1, x: 2, arr: [] },
      { _id: 3, x: 1, arr: [] },
    ]);
    const none = [
      { _id: 0, x: 1 },
      { _id: 1, x: 2 },
      { _id: 3, x: 1 },
    ];
    expect(await run(none, '$y')).toEqual(none.map((doc) => ({ ...doc, arr: [] })));
  });
});

describe('conformance: $graphLookup (collation_graphlookup.js)', () => {
  it("should compare by the aggregation's collation: case-insensitively, erica reaches JEREMY and JIMMY", async () => {
    await recreate(LOCAL);
    const coll = fx.db.collection(LOCAL);
    await coll.insertOne({ username: 'erica', friends: ['jeremy', 'jimmy'] });
    await coll.insertMany([{ username: 'JEREMY' }, { username: 'JIMMY' }]);
    expect(reached(await friendsOf(['erica'], LOCAL, caseInsensitiveUS))).toEqual({ erica: 2 });
    // The local collection has no default collation: the simple one finds no friend.
    expect(reached(await friendsOf(['erica'], LOCAL))).toEqual({ erica: 0 });
  });

  it("should use the local collection's simple collation, not the foreign collection's default", async () => {
    await recreate(LOCAL);
    const coll = fx.db.collection(LOCAL);
    await coll.insertOne({ username: 'erica', friends: ['jeremy', 'jimmy'] });
    await coll.insertMany([{ username: 'JEREMY' }, { username: 'JIMMY' }]);
    await recreate(FOREIGN, caseInsensitiveUS);
    await fx.db.collection(FOREIGN).insertMany([{ username: 'JEREMY' }, { username: 'JIMMY' }]);
    await coll.insertOne({ username: 'fiona', friends: ['jeremy'] });
    await coll.insertOne({ username: 'gretchen', friends: ['jimmy'] });
    expect(reached(await friendsOf(['erica', 'fiona', 'gretchen'], FOREIGN))).toEqual({
      erica: 0,
      fiona: 0,
      gretchen: 0,
    });
  });

  it("should inherit the local collection's default collation over the foreign collection's", async () => {
    await recreate(LOCAL, caseInsensitiveUS);
    await fx.db.collection(LOCAL).insertOne({ username: 'erica', friends: ['jeremy', 'jimmy'] });
    await recreate(FOREIGN, caseSensitiveUS);
    await fx.db.collection(FOREIGN).insertMany([{ username: 'JEREMY' }, { username: 'JIMMY' }]);
    expect(reached(await friendsOf(['erica'], FOREIGN))).toEqual({ erica: 2 });
  });

  it('should not deduplicate string _ids by the collation (nodes "foo" and "FOO" are both reached)', async () => {
    await recreate(LOCAL);
    await fx.db.collection(LOCAL).insertMany([
      { username: 'erica', friends: ['jeremy'] },
      { _id: 'foo', username: 'JEREMY', friends: ['jimmy'] },
      { _id: 'FOO', username: 'jimmy', friends: [] },
    ] as Document[]);
    expect(reached(await friendsOf(['erica'], LOCAL, caseInsensitiveUS))).toEqual({ erica: 2 });
  });

  it('should not deduplicate documents equal under the collation', async () => {
    await recreate(LOCAL);
    await fx.db.collection(LOCAL).insertMany([
      { username: 'erica', friends: ['jeremy'] },
      { _id: 'foo', username: 'jeremy' },
      { _id: 'FOO', username: 'JEREMY' },
    ] as Document[]);
    expect(reached(await friendsOf(['erica'], LOCAL, caseInsensitiveUS))).toEqual({ erica: 2 });
  });
});
