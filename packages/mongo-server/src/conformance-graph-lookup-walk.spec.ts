/**
 * Conformance: `$graphLookup` reaches exactly what mongod's definition of the
 * walk reaches (document_source_graph_lookup.cpp): breadth first, each level
 * the foreign documents matching `{ $and: [restrictSearchWithMatch,
 * { <connectToField>: { $in: <frontier> } }] }` (with `$exists: true` when a
 * null is in the frontier), each document once, at the depth it was first
 * reached, up to `maxDepth`. The walk is done here a second time with one
 * `find` per level, and both must reach the same documents at the same
 * depths, over random documents whose `connectToField` holds scalars of
 * every kind, numbers of four types, strings equal under a collation,
 * arrays, nested arrays, documents and regexes (which `$in` matches by
 * pattern), with and without a collation. Written to hold against a real
 * MongoDB 7 (MONGO_URL) too.
 */
import fc from 'fast-check';
import { BSONRegExp, type CollationOptions, Decimal128, type Document, Double, Long, ObjectId } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const LOCAL = 'graph_walk_local';
const FOREIGN = 'graph_walk_foreign';

const scalar = fc.constantFrom<unknown>(
  1,
  2,
  new Double(2),
  new Long(2),
  Decimal128.fromString('2'),
  2.5,
  'a',
  'A',
  'b',
  '',
  null,
  true,
  new ObjectId('65a000000000000000000001'),
  new Date('2026-01-02T00:00:00Z'),
);
/** What a `connectFromField` or `startWith` gives: a regex now and then, which `$in` matches by pattern. */
const fromValue = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(new BSONRegExp('^a$', 'i'), new BSONRegExp('^b')) },
  { weight: 1, arbitrary: fc.array(scalar, { minLength: 1, maxLength: 2 }).map((values) => [values]) },
);
/** What a `connectToField` holds: scalars, arrays of them, nested arrays and documents. */
const toValue = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.array(scalar, { maxLength: 2 }), { maxLength: 2 }) },
  { weight: 1, arbitrary: scalar.map((x) => ({ x })) },
);
/** A `c` whose `c.x` the walk may connect to: through a document or an array of documents. */
const nested = fc.oneof(
  scalar.map((x) => ({ x })),
  fc.array(
    scalar.map((x) => ({ x })),
    { maxLength: 3 },
  ),
  scalar,
);
const foreignDocs = fc
  .array(fc.record({ from: fromValue, to: toValue, c: nested, k: fc.constantFrom(0, 1, 2) }, { requiredKeys: [] }), {
    maxLength: 25,
  })
  .map((docs) => docs.map((doc, i) => ({ _id: i, ...doc })));
const walk = fc.record({
  starts: fc.array(fromValue, { minLength: 1, maxLength: 3 }),
  connectToField: fc.constantFrom('to', 'c.x'),
  maxDepth: fc.option(fc.constantFrom(0, 1, 3), { nil: undefined }),
  restrict: fc.option(
    fc.constantFrom<Document>({ k: { $gt: 0 } }, { k: { $ne: 1 } }, { $or: [{ k: 0 }, { to: 'b' }] }),
    {
      nil: undefined,
    },
  ),
  collation: fc.option(fc.constant<CollationOptions>({ locale: 'en', strength: 2 }), { nil: undefined }),
});
type Walk = typeof walk extends fc.Arbitrary<infer T> ? T : never;

/** The values a document's `from` adds to the frontier: its elements if an array (the trailing array expanded), else itself. */
function fromValues(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Each `_id` the walk from `start` reaches, with its depth, found with one `find` per level. */
async function walkByFind(start: unknown, spec: Walk): Promise<Record<string, number>> {
  const reached: Record<string, number> = {};
  let frontier = fromValues(start);
  const limit = spec.maxDepth ?? Number.POSITIVE_INFINITY;
  for (let depth = 0; depth <= limit && frontier.length > 0; depth += 1) {
    const and: Document[] = [];
    if (spec.restrict) and.push(spec.restrict);
    and.push({ [spec.connectToField]: { $in: frontier } });
    if (frontier.includes(null)) and.push({ [spec.connectToField]: { $exists: true } });
    const found = await fx.db
      .collection(FOREIGN)
      .find({ $and: and }, spec.collation ? { collation: spec.collation } : {})
      .toArray();
    const next: unknown[] = [];
    for (const doc of found) {
      if (String(doc._id) in reached) continue;
      reached[String(doc._id)] = depth;
      next.push(...fromValues(doc.from));
    }
    frontier = next;
  }
  return reached;
}

/** Each `_id` `$graphLookup` reached from each local document, with its depth. */
async function walkByGraphLookup(spec: Walk): Promise<Record<string, number>[]> {
  const stage: Document = {
    from: FOREIGN,
    startWith: '$start',
    connectFromField: 'from',
    connectToField: spec.connectToField,
    as: 'reached',
    depthField: 'depth',
  };
  if (spec.maxDepth !== undefined) stage.maxDepth = spec.maxDepth;
  if (spec.restrict) stage.restrictSearchWithMatch = spec.restrict;
  const results = await fx.db
    .collection(LOCAL)
    .aggregate([{ $sort: { _id: 1 } }, { $graphLookup: stage }], spec.collation ? { collation: spec.collation } : {})
    .toArray();
  return results.map((doc) =>
    Object.fromEntries((doc.reached as Document[]).map((found) => [String(found._id), Number(found.depth)])),
  );
}

describe('conformance: $graphLookup equals a breadth-first walk by find', () => {
  it('should reach the same documents at the same depths', async () => {
    await fc.assert(
      fc.asyncProperty(foreignDocs, walk, async (docs, spec) => {
        const foreign = await fx.fresh(FOREIGN);
        if (docs.length > 0) await foreign.insertMany(docs as Document[]);
        const local = await fx.fresh(LOCAL);
        await local.insertMany(spec.starts.map((start, i) => ({ _id: i, start }) as Document));
        const expected = [];
        for (const start of spec.starts) expected.push(await walkByFind(start, spec));
        expect(await walkByGraphLookup(spec)).toEqual(expected);
      }),
      { numRuns: 80 },
    );
  });
});
