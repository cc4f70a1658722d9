/**
 * Conformance: `$lookup` joining by `localField` and `foreignField`, ported
 * from mongod's own jstests: jstests/aggregation/sources/lookup/
 * lookup_equijoin_semantics_lib.js (the table of scalars, arrays, nested
 * arrays, null, missing, NaN, the BSON types, dotted paths with and without
 * array indexes on either side), lookup_array_semantics.js,
 * lookup_null_semantics.js, lookup_numeric_field.js (its `$lookup` half),
 * the localField/foreignField cases of lookup.js, and
 * lookup_subpipeline_and_fields.js (the concise form of MongoDB 5.0+:
 * localField/foreignField with `pipeline` and `let`), and
 * lookup_collation.js (which collation the join compares strings by). The cases and the
 * expected joins are mongod's; none is made up here. Written to hold
 * against a real MongoDB 7 (MONGO_URL) too.
 *
 * Left out: the sources' `undefined` values (the Node driver writes
 * `undefined` as null or not at all, so it cannot store one), the explain
 * checks (which join algorithm ran), the index variants of the equijoin
 * table (INLJ: the same answers but for SERVER-64221, which this port
 * takes as the collection scans give it), lookup_numeric_field.js's
 * `a.00` cases that hold only under `forceClassicEngine`, and lookup.js's
 * error codes, which the stored versions give as older servers did;
 * lookup_collation.js's `_internalCollation` (a field of mongod's own) and
 * its explain checks of the join strategy.
 *
 * Documents are stored as the shell writes them (a bare number is a
 * double). The sources compare as they do: the equijoin table and
 * lookup_array_semantics.js compare the matched `_id`s as sets
 * (`assertArrayEq`); lookup.js sorts the results by `_id` and compares each
 * joined array in the foreign collection's natural order; lookup_null_semantics.js
 * and lookup_subpipeline_and_fields.js compare regardless of order.
 */
import {
  type AggregateOptions,
  Binary,
  BSONRegExp,
  type Collection,
  DBRef,
  Decimal128,
  type Document,
  Double,
  Int32,
  Long,
  ObjectId,
  Timestamp,
} from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';
import { bsonText, isPlainDocument, RAW } from './raw-replies.fixture.js';

const fx = useDriverFixture();

/** The shell's `NumberDecimal(3.14)`: the double printed with 15 digits. */
const decimal = (text: string) => Decimal128.fromString(text);
const long = (n: number) => Long.fromNumber(n);

/** `value` as the shell sends it: its bare numbers are doubles. */
function shellValue(value: unknown): unknown {
  if (typeof value === 'number') return new Double(value);
  if (Array.isArray(value)) return value.map(shellValue);
  if (isPlainDocument(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shellValue(v)]));
  return value;
}

/** A stored document's `_id` as the sources write it: a number by its value, anything else by its text. */
function idOf(doc: Document): unknown {
  const id: unknown = doc._id;
  if (id instanceof Double || id instanceof Int32) return id.value;
  return bsonText(id);
}

/** Sorted for a comparison as sets: numbers before strings. */
function sortedIds(ids: unknown[]): unknown[] {
  return [...ids].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0,
  );
}

/** Documents sorted by `_id`, as lookup.js's `compareId` and an order-insensitive comparison take them. */
function byId(docs: Document[]): Document[] {
  return [...docs].sort((a, b) => {
    const [x, y] = [idOf(a), idOf(b)];
    return typeof x === 'number' && typeof y === 'number'
      ? x - y
      : String(x) < String(y)
        ? -1
        : String(x) > String(y)
          ? 1
          : 0;
  });
}

async function load(name: string, docs: Document[]): Promise<Collection> {
  const coll = await fx.fresh(name);
  if (docs.length > 0) await coll.insertMany(docs.map((doc) => shellValue(doc) as Document));
  return coll;
}

async function aggregate(local: Collection, pipeline: Document[], options?: AggregateOptions): Promise<Document[]> {
  return local.aggregate(pipeline, { ...RAW, ...options }).toArray();
}

/** A case of the equijoin table: which `_id`s join. */
interface JoinCase {
  label: string;
  run: () => Promise<unknown>;
  expected: unknown;
}

const LOCAL = 'lookup_local';
const FOREIGN = 'lookup_foreign';

/**
 * runTest_SingleForeignRecord (and lookup_array_semantics.js's runTest): one
 * foreign document; the `_id`s of the local documents that joined it, as a
 * set, with no document joined twice (SERVER-66119).
 */
function singleForeign(
  source: string,
  description: string,
  localRecords: Document[],
  localField: string,
  foreignRecord: Document,
  foreignField: string,
  idsExpectedToMatch: unknown[],
): JoinCase {
  return {
    label: `${description} (${source}: localField ${localField}, foreignField ${foreignField})`,
    expected: { ids: sortedIds(idsExpectedToMatch), duplicated: [] },
    run: async () => {
      const local = await load(LOCAL, localRecords);
      await load(FOREIGN, [foreignRecord]);
      const results = await aggregate(local, [{ $lookup: { from: FOREIGN, localField, foreignField, as: 'matched' } }]);
      const matched = results.filter((doc) => (doc.matched as unknown[]).length > 0);
      return {
        ids: sortedIds(matched.map(idOf)),
        duplicated: results.filter((doc) => (doc.matched as unknown[]).length > 1).map(idOf),
      };
    },
  };
}

/** runTest_SingleLocalRecord: one local document; the `_id`s of the foreign documents it joined, as a set. */
function singleLocal(
  source: string,
  description: string,
  localRecord: Document,
  localField: string,
  foreignRecords: Document[],
  foreignField: string,
  idsExpectedToMatch: unknown[],
): JoinCase {
  return {
    label: `${description} (${source}: localField ${localField}, foreignField ${foreignField})`,
    expected: sortedIds(idsExpectedToMatch),
    run: async () => {
      const local = await load(LOCAL, [localRecord]);
      await load(FOREIGN, foreignRecords);
      const results = await aggregate(local, [{ $lookup: { from: FOREIGN, localField, foreignField, as: 'matched' } }]);
      expect(results).toHaveLength(1);
      return sortedIds((results[0].matched as Document[]).map(idOf));
    },
  };
}

const LIB = 'lookup_equijoin_semantics_lib.js';

// ---------------------------------------------------------------------------
// lookup_equijoin_semantics_lib.js
// ---------------------------------------------------------------------------

const nullAndMissingDocs = [
  { _id: 0, no_a: 1 },
  { _id: 1, a: null },
  { _id: 2, a: [null, 1] },
  { _id: 10, a: [] },
  { _id: 20, a: 1 },
  { _id: 21, a: { x: null } },
  { _id: 22, a: [[null, 1], 2] },
  { _id: 23, a: false },
  { _id: 24, a: 0 },
  { _id: 25, a: {} },
  { _id: 26, a: '' },
];

const nanDocs = [
  { _id: 0, a: NaN },
  { _id: 1, a: decimal('NaN') },
  { _id: 2, a: [1, NaN] },
  { _id: 3, a: [1, decimal('NaN')] },
  { _id: 10, a: null },
  { _id: 11, no_a: 42 },
];

// No shell equivalent for Code, Symbol and CodeWScope, as the source notes.
const typeDocs: Document[] = [
  { _id: 0, a: new Int32(0) },
  { _id: 1, a: 3.14 },
  { _id: 2, a: decimal('3.14000000000000') },
  { _id: 3, a: 'abc' },
  { _id: 4, a: { b: 1, c: 2, d: 3 } },
  { _id: 5, a: true },
  { _id: 6, a: false },
  { _id: 7, a: new Date('2022-01-01T00:00:00.00Z') },
  { _id: 8, a: new Timestamp({ t: 1, i: 123 }) },
  { _id: 9, a: new ObjectId('0102030405060708090A0B0C') },
  { _id: 10, a: Binary.createFromBase64('BBBBBBBBBBBBBBBBBBBBBBBBBBBB', 0) },
  { _id: 11, a: /hjkl/ },
  { _id: 12, a: /hjkl/g },
  { _id: 13, a: new DBRef('collection', 'id' as unknown as ObjectId, 'database') },
];

const topLevelScalarDocs = [
  { _id: 0, a: 1, y: 2 },
  { _id: 1, a: [1] },
  { _id: 2, a: [1, 2, 3] },
  { _id: 3, a: [1, [2, 3]] },
  { _id: 4, a: [1, [1, 2]] },
  { _id: 5, a: [1, 2, 1] },
  { _id: 6, a: [1, null] },
  { _id: 7, a: [1, []] },
  { _id: 10, a: 2 },
  { _id: 11, a: [[1], 2] },
  { _id: 12, a: [2, 3] },
  { _id: 13, a: { y: 1 } },
  { _id: 14, no_a: 1 },
];

const pathScalarDocs = [
  { _id: 0, a: { x: 1, y: 2 } },
  { _id: 1, a: [{ x: 1 }, { x: 2 }] },
  { _id: 2, a: [{ x: 1 }, { x: null }] },
  { _id: 3, a: [{ x: 1 }, { x: [] }] },
  { _id: 4, a: [{ x: 1 }, { no_x: 2 }] },
  { _id: 5, a: { x: [1, 2] } },
  { _id: 6, a: [{ x: [1, 2] }] },
  { _id: 7, a: [{ x: [1, 2] }, { no_x: 2 }] },
  { _id: 10, a: { x: 2, y: 1 } },
  { _id: 11, a: { x: [2, 3], y: 1 } },
  { _id: 12, a: [{ no_x: 1 }, { x: 2 }, { x: 3 }] },
  { _id: 13, a: { x: [[1], 2] } },
  { _id: 14, a: [{ x: [[1], 2] }] },
  { _id: 15, a: { no_x: 1 } },
];

const deepPathDocs = [
  { _id: 0, a: { b: { c: 1 } } },
  { _id: 1, a: { b: { c: [[2, 3], 1] } } },
  { _id: 2, a: { b: [{ c: 2 }, { c: 1 }] } },
  { _id: 3, a: { b: [{ c: null }, { c: 1 }] } },
  { _id: 4, a: { b: [{ no_c: 2 }, { c: 1 }] } },
  { _id: 5, a: { b: [{ c: [] }, { c: 1 }] } },
  { _id: 6, a: { b: [{ c: [[2, 3], 1] }] } },
  { _id: 7, a: { b: [{ c: 1 }, { c: [[2, 3], 4] }] } },
  { _id: 8, a: [{ b: { c: 2 } }, { b: { c: 1 } }] },
  { _id: 9, a: [{ b: { c: null } }, { b: { c: 1 } }] },
  { _id: 10, a: [{ b: { no_c: 2 } }, { b: { c: 1 } }] },
  { _id: 11, a: [{ b: { c: [] } }, { b: { c: 1 } }] },
  { _id: 12, a: [{ b: { c: [[2, 3], 1] } }] },
  { _id: 13, a: [{ b: { c: 4 } }, { b: { c: [[2, 3], 1] } }] },
  { _id: 14, a: [{ no_b: 2 }, { b: { c: 1 } }] },
  { _id: 15, a: [{ b: [{ c: 1 }] }] },
  { _id: 16, a: [{ b: { c: 3 } }, { b: [{ c: 1 }, { c: 2 }] }] },
  { _id: 17, a: [{ b: { c: null } }, { b: [{ c: 1 }] }] },
  { _id: 18, a: [{ b: { no_c: 2 } }, { b: [{ c: 1 }] }] },
  { _id: 19, a: [{ b: { c: [] } }, { b: [{ c: 1 }] }] },
  { _id: 20, a: [{ b: [{ c: [[2, 3], 1] }] }] },
  { _id: 21, a: [{ b: { c: 4 } }, { b: [{ c: [[2, 3], 1] }] }] },
  { _id: 22, a: [{ no_b: 2 }, { b: [{ no_c: 3 }, { c: 1 }] }] },
  { _id: 100, a: { b: { c: [[1, 2], 3] } } },
  { _id: 101, a: { b: [{ c: [[1, 2], 3] }] } },
  { _id: 102, a: [{ b: { c: [[1, 2], 3] } }] },
  { _id: 103, a: [{ b: [{ c: [[1, 2], 3] }] }] },
];
const deepPathMatches = Array.from({ length: 23 }, (_, i) => i);

const topLevelArrayDocs = [
  { _id: 0, a: [[1, 2], 3], y: 4 },
  { _id: 1, a: [[1, 2]] },
  { _id: 2, a: [1, 2], y: 3 },
  { _id: 10, a: [[[1, 2], 3], 4] },
  { _id: 11, a: [2, 1] },
  { _id: 12, a: [[2, 1], 3], y: [1, 2] },
  { _id: 13, a: [[2, 1], 3], y: [[1, 2], 3] },
  { _id: 14, a: null },
  { _id: 15, no_a: [1, 2] },
];

const pathArrayDocs = [
  { _id: 0, a: { x: [[1, 2], 3], y: 4 } },
  { _id: 1, a: [{ x: [[1, 2], 3] }, { x: 4 }] },
  { _id: 2, a: [{ x: [[1, 2], 3] }, { x: null }] },
  { _id: 3, a: [{ x: [[1, 2], 3] }, { no_x: 4 }] },
  { _id: 4, a: { x: [1, 2], y: 4 } },
  { _id: 5, a: [{ x: [1, 2] }, { x: 4 }] },
  { _id: 6, a: [{ x: [1, 2] }, { x: null }] },
  { _id: 7, a: [{ x: [1, 2] }, { no_x: 4 }] },
  { _id: 10, a: { x: [2, 1], y: [1, 2] } },
  { _id: 11, a: { x: [[2, 1], 3], y: [[1, 2], 3] } },
  { _id: 12, a: [{ x: 1 }, { x: 2 }] },
  { _id: 13, a: { x: [[[1, 2], 3]] } },
  { _id: 14, a: [{ x: [[[1, 2], 3]] }] },
  { _id: 15, a: { no_x: [[1, 2], 3] } },
];

const missingOnPathDocs = [
  { _id: 0, a: { no_x: 1 } },
  { _id: 1, a: { no_x: [1, 2] } },
  { _id: 2, a: [{ no_x: 1 }, { no_x: 2 }] },
  { _id: 3, a: [{ no_x: 2 }, { x: 1 }] },
  { _id: 4, a: [{ no_x: [1, 2] }, { x: 1 }] },
  { _id: 5, a: { x: null } },
  { _id: 6, a: [{ x: null }, { x: 1 }] },
  { _id: 7, a: [{ x: null }, { x: [1] }] },
  { _id: 8, no_a: 1 },
  { _id: 9, a: [1] },
  { _id: 10, a: [] },
  { _id: 11, a: [[1]] },
  { _id: 12, a: [[]] },
  { _id: 20, a: { x: 2, y: 1 } },
  { _id: 21, a: [{ x: 2 }, { x: 3 }] },
];

const scalarsOnPathDocs = [
  { _id: 0, a: 1 },
  { _id: 1, no_a: 1 },
  { _id: 2, a: [1] },
  { _id: 3, a: { b: 1 } },
  { _id: 4, a: { no_b: 1 } },
  { _id: 5, a: { b: [1] } },
  { _id: 6, a: [{ b: { no_c: 1 } }, 1] },
  { _id: 7, a: { b: [{ no_c: 1 }, 1] } },
];

const emptyArrayTopDocs = [
  { _id: 0, a: [[]] },
  { _id: 1, a: [[], 1] },
  { _id: 2, a: [[], null] },
  { _id: 3, a: [] },
  { _id: 10, no_a: 1 },
  { _id: 11, a: null },
  { _id: 12, a: [null] },
  { _id: 13, a: [null, 1] },
  { _id: 20, a: 1 },
  { _id: 21, a: [[[], 1], 2] },
  { _id: 22, a: [1, 2] },
  { _id: 23, a: [[null, 1], 2] },
];

const deepEmptyArrayDocs = [
  { _id: 0, a: { b: { c: [] } } },
  { _id: 1, a: { b: [{ c: [] }, { c: [] }] } },
  { _id: 2, a: { b: [{ no_c: 42 }, { c: [] }, { c: [] }] } },
  { _id: 3, a: [{ b: { c: [] } }, { b: { c: [] } }] },
  { _id: 4, a: [{ b: { no_c: 42 } }, { b: { c: [] } }, { b: { c: [] } }] },
  { _id: 5, a: { b: { c: [[]] } } },
  { _id: 6, a: { b: [{ c: [] }, { c: [[]] }] } },
  { _id: 7, a: { b: [{ no_c: 42 }, { c: [] }, { c: [[]] }] } },
  { _id: 8, a: [{ b: { c: [] } }, { b: { c: [[]] } }] },
  { _id: 9, a: [{ b: { no_c: 42 } }, { b: { c: [] } }, { b: { c: [[]] } }] },
];

const emptyArrayOnPathDocs = [
  { _id: 0, a: { x: [[]], y: 1 } },
  { _id: 1, a: [{ x: [[]] }] },
  { _id: 2, a: [{ x: [[]] }, { x: 1 }] },
  { _id: 3, a: [{ x: [[]] }, { x: null }] },
  { _id: 4, a: [{ x: [[]] }, { no_x: 1 }] },
  { _id: 5, a: { x: [[], 1] } },
  { _id: 10, a: { x: [], y: 1 } },
  { _id: 11, a: [{ x: [] }, { x: 1 }] },
  { _id: 12, a: [{ x: [] }, { x: null }] },
  { _id: 13, a: [{ x: [] }, { no_x: 1 }] },
  { _id: 20, no_a: 1 },
  { _id: 21, a: { no_x: 1 } },
  { _id: 22, a: [{ no_x: 1 }, { no_x: 2 }] },
  { _id: 23, a: [{ x: null }, { x: 1 }] },
  { _id: 30, a: [] },
  { _id: 31, a: [1] },
  { _id: 32, a: [null, 1] },
  { _id: 33, a: [[]] },
  { _id: 34, a: [[1], 2] },
  { _id: 40, a: { x: 1 } },
  { _id: 41, a: { x: [[[], 1], 2] } },
  { _id: 42, a: { x: [1, 2] } },
  { _id: 43, a: { x: [[null, 1], 2] } },
  { _id: 44, a: [{ x: 1 }] },
  { _id: 45, a: [{ x: [[[], 1], 2] }] },
  { _id: 46, a: [{ x: [1, 2] }] },
  { _id: 47, a: [{ x: [[null, 1], 2] }] },
];

const numericScalarDocs = [
  { _id: 0, a: [{ x: 1 }, { x: 2 }] },
  { _id: 1, a: [{ x: [2, 3, 1] }] },
  { _id: 2, a: [{ x: 1 }, { y: 1 }] },
  { _id: 10, a: [{ x: 2 }, { x: 1 }] },
  { _id: 11, a: [{ x: [2, 3] }] },
  { _id: 12, a: { x: 1 } },
  { _id: 13, a: { x: [1, 2] } },
  { _id: 14, a: [{ y: 1 }, { x: 1 }] },
];

const numericNullDocs = [
  { _id: 0, a: { x: 1 } },
  { _id: 1, a: { x: [1, 2] } },
  { _id: 2, a: [{ y: 1 }, { x: 1 }] },
  { _id: 3, a: [{ x: null }, { x: 1 }] },
  { _id: 4, a: [{ x: [1, null] }, { x: 1 }] },
  { _id: 5, a: [1, 2] },
  { _id: 10, a: [{ x: 1 }, { y: 1 }] },
  { _id: 11, a: [{ x: [1, 2] }] },
];

const EQUIJOIN: JoinCase[] = [
  // testMatchingNullAndMissing
  singleForeign(
    LIB,
    'Null in foreign, top-level field in local',
    nullAndMissingDocs,
    'a',
    { _id: 0, b: null },
    'b',
    [0, 1, 2, 10],
  ),
  singleLocal(
    LIB,
    'Null in local, top-level field in foreign',
    { _id: 0, b: null },
    'b',
    nullAndMissingDocs,
    'a',
    [0, 1, 2],
  ),
  singleForeign(
    LIB,
    'Missing in foreign, top-level field in local',
    nullAndMissingDocs,
    'a',
    { _id: 0, no_b: 1 },
    'b',
    [0, 1, 2, 10],
  ),
  singleLocal(
    LIB,
    'Missing in local, top-level field in foreign',
    { _id: 0, no_b: 1 },
    'b',
    nullAndMissingDocs,
    'a',
    [0, 1, 2],
  ),
  // testMatchingNaN
  singleForeign(LIB, 'NaN in foreign, top-level field in local', nanDocs, 'a', { _id: 0, b: NaN }, 'b', [0, 1, 2, 3]),
  singleLocal(LIB, 'NaN in local, top-level field in foreign', { _id: 0, b: NaN }, 'b', nanDocs, 'a', [0, 1, 2, 3]),
  // testVariousDataTypes
  ...typeDocs.flatMap((doc) => [
    singleForeign(
      LIB,
      `Various data types in local matching to _id ${String(doc._id)}`,
      typeDocs,
      'a',
      { b: doc.a },
      'b',
      [doc._id],
    ),
    singleLocal(
      LIB,
      `Various data types in foreign matching to _id ${String(doc._id)}`,
      { b: doc.a },
      'b',
      typeDocs,
      'a',
      [doc._id],
    ),
  ]),
  singleForeign(LIB, 'Various data types in local, expecting no match', typeDocs, 'a', { b: 'xxx' }, 'b', []),
  singleLocal(LIB, 'Various data types in foreign, expecting no match', { b: 'xxx' }, 'b', typeDocs, 'a', []),
  // testMatchingTopLevelFieldToScalar
  singleForeign(
    LIB,
    'Top-level field in local and top-level scalar in foreign',
    topLevelScalarDocs,
    'a',
    { _id: 0, b: 1 },
    'b',
    [0, 1, 2, 3, 4, 5, 6, 7],
  ),
  singleLocal(
    LIB,
    'Top-level scalar in local and top-level field in foreign',
    { _id: 0, b: 1 },
    'b',
    topLevelScalarDocs,
    'a',
    [0, 1, 2, 3, 4, 5, 6, 7],
  ),
  // testMatchingPathToScalar
  singleForeign(
    LIB,
    'Path in local and top-level scalar in foreign',
    pathScalarDocs,
    'a.x',
    { _id: 0, b: 1 },
    'b',
    [0, 1, 2, 3, 4, 5, 6, 7],
  ),
  singleLocal(
    LIB,
    'Top-level scalar in local and path in foreign',
    { _id: 0, b: 1 },
    'b',
    pathScalarDocs,
    'a.x',
    [0, 1, 2, 3, 4, 5, 6, 7],
  ),
  // testMatchingDeepPathToScalar
  singleForeign(
    LIB,
    'Deep path in local and top-level scalar in foreign',
    deepPathDocs,
    'a.b.c',
    { _id: 0, key: 1 },
    'key',
    deepPathMatches,
  ),
  singleLocal(
    LIB,
    'Top-level scalar in local and deep path in foreign',
    { _id: 0, key: 1 },
    'key',
    deepPathDocs,
    'a.b.c',
    deepPathMatches,
  ),
  // testMatchingTopLevelFieldToArray
  singleForeign(
    LIB,
    'Top-level field in local and top-level array in foreign',
    topLevelArrayDocs,
    'a',
    { _id: 0, b: [1, 2] },
    'b',
    [0, 1, 2, 11],
  ),
  singleLocal(
    LIB,
    'Top-level array in local and top-level field in foreign',
    { _id: 0, b: [1, 2] },
    'b',
    topLevelArrayDocs,
    'a',
    [2, 11],
  ),
  singleForeign(
    LIB,
    'Top-level field in local and nested array in foreign',
    topLevelArrayDocs,
    'a',
    { _id: 0, b: [[1, 2], 42] },
    'b',
    [0, 1],
  ),
  singleLocal(
    LIB,
    'Nested array in local and top-level field in foreign',
    { _id: 0, b: [[1, 2], 42] },
    'b',
    topLevelArrayDocs,
    'a',
    [0, 1, 2],
  ),
  // testMatchingPathToArray
  singleForeign(
    LIB,
    'Path in local and top-level array in foreign',
    pathArrayDocs,
    'a.x',
    { _id: 0, b: [1, 2] },
    'b',
    [0, 1, 2, 3, 4, 5, 6, 7, 10, 12],
  ),
  singleLocal(
    LIB,
    'Top-level array in local and path in foreign',
    { _id: 0, b: [1, 2] },
    'b',
    pathArrayDocs,
    'a.x',
    [4, 5, 6, 7, 10, 12],
  ),
  singleForeign(
    LIB,
    'Path in local and nested array in foreign',
    pathArrayDocs,
    'a.x',
    { _id: 0, b: [[1, 2], 42] },
    'b',
    [0, 1, 2, 3],
  ),
  singleLocal(
    LIB,
    'Nested array in local and path in foreign',
    { _id: 0, b: [[1, 2], 42] },
    'b',
    pathArrayDocs,
    'a.x',
    [0, 1, 2, 3, 4, 5, 6, 7],
  ),
  // testMatchingMissingOnPath
  singleForeign(
    LIB,
    'Missing in local path and top-level null in foreign',
    missingOnPathDocs,
    'a.x',
    { _id: 0, b: null },
    'b',
    [0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12],
  ),
  singleLocal(
    LIB,
    'Top-level null in local and missing in foreign path',
    { _id: 0, b: null },
    'b',
    missingOnPathDocs,
    'a.x',
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  ),
  singleForeign(
    LIB,
    'Missing in local path and top-level missing in foreign',
    missingOnPathDocs,
    'a.x',
    { _id: 0, no_b: 1 },
    'b',
    [0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12],
  ),
  singleLocal(
    LIB,
    'Top-level missing in local and missing in foreign path',
    { _id: 0, no_b: 1 },
    'b',
    missingOnPathDocs,
    'a.x',
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  ),
  // testMatchingScalarsOnPath
  singleForeign(
    LIB,
    'Scalars on local path and top-level null in foreign',
    scalarsOnPathDocs,
    'a.b.c',
    { _id: 0, b: null },
    'b',
    [0, 1, 2, 3, 4, 5, 6, 7],
  ),
  singleLocal(
    LIB,
    'Top-level null in local and scalars on path in foreign',
    { _id: 0, b: null },
    'b',
    scalarsOnPathDocs,
    'a.b.c',
    [0, 1, 2, 3, 4, 5, 6, 7],
  ),
  // testMatchingEmptyArrayInTopLevelField
  singleForeign(
    LIB,
    'Empty top-level array in foreign, top field in local',
    emptyArrayTopDocs,
    'a',
    { _id: 0, b: [] },
    'b',
    [0, 1, 2],
  ),
  singleLocal(
    LIB,
    'Empty top-level array in local, top field in foreign',
    { _id: 0, b: [] },
    'b',
    emptyArrayTopDocs,
    'a',
    [2, 10, 11, 12, 13],
  ),
  singleForeign(
    LIB,
    'Empty nested array in foreign, top field in local',
    emptyArrayTopDocs,
    'a',
    { _id: 0, b: [[], 42] },
    'b',
    [0, 1, 2],
  ),
  singleLocal(
    LIB,
    'Empty nested array in local, top field in foreign',
    { _id: 0, b: [[], 42] },
    'b',
    emptyArrayTopDocs,
    'a',
    [0, 1, 2, 3],
  ),
  // testMatchingDeepPathWithEmptyArrays
  singleForeign(
    LIB,
    'Empty arrays and missing on deep path in local (null in foreign)',
    deepEmptyArrayDocs,
    'a.b.c',
    { _id: 0, b: null },
    'b',
    [0, 1, 2, 3, 4],
  ),
  singleForeign(
    LIB,
    'Empty arrays and missing on deep path in local (empty array in foreign)',
    deepEmptyArrayDocs,
    'a.b.c',
    { _id: 0, b: [] },
    'b',
    [5, 6, 7, 8, 9],
  ),
  // testMatchingEmptyArrayValueOnPath
  singleForeign(
    LIB,
    'Empty top-level array in foreign, path in local',
    emptyArrayOnPathDocs,
    'a.x',
    { _id: 0, b: [] },
    'b',
    [0, 1, 2, 3, 4, 5],
  ),
  singleLocal(
    LIB,
    'Empty top-level array in local, path in foreign',
    { _id: 0, b: [] },
    'b',
    emptyArrayOnPathDocs,
    'a.x',
    [3, 4, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33, 34],
  ),
  singleForeign(
    LIB,
    'Empty nested array in foreign, path in local',
    emptyArrayOnPathDocs,
    'a.x',
    { _id: 0, b: [[], 42] },
    'b',
    [0, 1, 2, 3, 4, 5],
  ),
  singleLocal(
    LIB,
    'Empty nested array in local, path in foreign',
    { _id: 0, b: [[], 42] },
    'b',
    emptyArrayOnPathDocs,
    'a.x',
    [0, 1, 2, 3, 4, 5, 10, 11, 12, 13],
  ),
  // testMatchingPathWithNumericComponentToScalar
  singleForeign(
    LIB,
    'Scalar in foreign, path with numeral in local',
    numericScalarDocs,
    'a.0.x',
    { _id: 0, b: 1 },
    'b',
    [0, 1, 2],
  ),
  singleLocal(
    LIB,
    'Scalar in local, path with numeral in foreign',
    { _id: 0, b: 1 },
    'b',
    numericScalarDocs,
    'a.0.x',
    [0, 1, 2],
  ),
  // testMatchingPathWithNumericComponentToNull: a collection scan also joins 10 and 11 (SERVER-64221).
  singleForeign(
    LIB,
    'Null in foreign, path with numeral in local',
    numericNullDocs,
    'a.0.x',
    { _id: 0, b: null },
    'b',
    [0, 1, 2, 3, 4, 5],
  ),
  singleLocal(
    LIB,
    'Null in local, path with numeral in foreign',
    { _id: 0, b: null },
    'b',
    numericNullDocs,
    'a.0.x',
    [0, 1, 2, 3, 4, 5, 10, 11],
  ),
  // testNonExistentForeignCollection: every local document joins nothing.
  {
    label: `a foreign collection that does not exist (${LIB})`,
    expected: Array.from({ length: 10 }, () => []),
    run: async () => {
      const local = await load(
        LOCAL,
        Array.from({ length: 10 }, () => ({ a: 1 })),
      );
      await fx.fresh(FOREIGN);
      const results = await aggregate(local, [
        { $lookup: { from: FOREIGN, localField: 'a', foreignField: 'b', as: 'matched' } },
      ]);
      return results.map((doc) => doc.matched as unknown);
    },
  },
];

// ---------------------------------------------------------------------------
// lookup_array_semantics.js: one foreign document, the local `_id`s that join it.
// ---------------------------------------------------------------------------

const ARRAYS = 'lookup_array_semantics.js';

const ARRAY_SEMANTICS: JoinCase[] = [
  singleForeign(
    ARRAYS,
    'Scalar in local should match elements of arrays in foreign',
    [
      { _id: 0, a: 1 },
      { _id: 1, a: [1] },
      { _id: 2, a: [1, 2, 3] },
      { _id: 3, a: [1, [2, 3]] },
      { _id: 4, a: [1, [1, 2]] },
      { _id: 5, a: [1, 2, 1] },
      { _id: 10, a: [[1]] },
      { _id: 11, a: [[1, 2], 3] },
      { _id: 12, a: 3 },
      { _id: 13, a: [2, 3] },
      { _id: 14, a: { b: 1 } },
    ],
    'a',
    { _id: 0, b: 1 },
    'b',
    [0, 1, 2, 3, 4, 5],
  ),
  singleForeign(
    ARRAYS,
    'Elements in an array in foreign should match to scalars in local',
    [
      { _id: 0, a: 1 },
      { _id: 1, a: 2 },
      { _id: 2, a: [1] },
      { _id: 3, a: [1, 3] },
      { _id: 4, a: [3, 2] },
      { _id: 10, a: 3 },
      { _id: 11, a: [[1]] },
      { _id: 12, a: [3, 4] },
    ],
    'a',
    { _id: 0, b: [1, 2] },
    'b',
    [0, 1, 2, 3, 4],
  ),
  singleForeign(
    ARRAYS,
    'An array in foreign should match as a whole value',
    [
      { _id: 0, a: [[1, 2], 4] },
      { _id: 1, a: [[1, 2]] },
      { _id: 10, a: [1, 2] },
      { _id: 11, a: [[[1, 2]]] },
      { _id: 12, a: [[1, 2, 3]] },
    ],
    'a',
    { _id: 0, b: [[1, 2], 3] },
    'b',
    [0, 1],
  ),
  singleForeign(
    ARRAYS,
    'Scalar in foreign should match dotted paths in local',
    [
      { _id: 0, a: [{ x: 1 }, { x: 2 }] },
      { _id: 1, a: [{ x: [1, 2] }] },
      { _id: 2, a: { x: 1 } },
      { _id: 3, a: { x: [1, 2] } },
      { _id: 10, a: [{ x: 2 }, { x: 3 }] },
      { _id: 11, a: 1 },
      { _id: 12, a: [1] },
      { _id: 13, a: [[1]] },
      { _id: 14, a: [{ y: 1 }] },
    ],
    'a.x',
    { _id: 0, b: 1 },
    'b',
    [0, 1, 2, 3],
  ),
  singleForeign(
    ARRAYS,
    'Elements of array in foreign should match dotted paths in local',
    [
      { _id: 0, a: [{ x: 1 }, { x: 3 }] },
      { _id: 1, a: [{ x: [1, 3] }] },
      { _id: 2, a: { x: 1 } },
      { _id: 3, a: { x: [1, 2] } },
      { _id: 10, a: 1 },
      { _id: 11, a: [1] },
      { _id: 12, a: [{ x: 3 }] },
      { _id: 13, a: [{ y: 1 }] },
    ],
    'a.x',
    { _id: 0, b: [1, 2] },
    'b',
    [0, 1, 2, 3],
  ),
  singleForeign(
    ARRAYS,
    'An array in foreign should not match as a whole value to dotted paths',
    [
      { _id: 10, a: [{ x: 1 }, { x: 2 }] },
      { _id: 11, a: [{ x: [1, 2] }] },
      { _id: 12, a: { x: [1, 2] } },
      { _id: 13, a: [1, 2] },
    ],
    'a.x',
    { _id: 0, b: [[1, 2], 3] },
    'b',
    [],
  ),
  singleForeign(
    ARRAYS,
    'Array of objects in foreign should match on subfield',
    [
      { _id: 0, a: 1 },
      { _id: 1, a: 2 },
      { _id: 2, a: [1] },
      { _id: 3, a: [1, 3] },
      { _id: 4, a: [3, 2] },
      { _id: 5, a: [[1, 2], 3] },
      { _id: 10, a: 4 },
      { _id: 11, a: [[1]] },
      { _id: 12, a: [3, 4] },
    ],
    'a',
    { _id: 0, b: [{ x: 1 }, { x: 2 }] },
    'b.x',
    [0, 1, 2, 3, 4],
  ),
  singleForeign(
    ARRAYS,
    'Empty array in foreign should only match to empty nested arrays',
    [
      { _id: 0, a: [[]] },
      { _id: 1, a: [[], 1] },
      { _id: 10 },
      { _id: 11, a: null },
      { _id: 12, a: [] },
      { _id: 13, a: [null] },
      { _id: 14, a: [null, 1] },
      { _id: 15, a: 1 },
      { _id: 16, a: [[[]]] },
      { _id: 17, a: [1, 2] },
    ],
    'a',
    { _id: 0, b: [] },
    'b',
    [0, 1],
  ),
  // SERVER-63368: an empty array in local joins null and missing.
  singleForeign(
    ARRAYS,
    'Empty array in local and null in foreign',
    [
      { _id: 0, a: [] },
      { _id: 10, a: [[]] },
      { _id: 11, a: [[], 1] },
      { _id: 12, a: [1] },
    ],
    'a',
    { _id: 0, b: null },
    'b',
    [0],
  ),
  singleForeign(
    ARRAYS,
    'Empty array in local and missing in foreign',
    [
      { _id: 0, a: [] },
      { _id: 10, a: [[]] },
      { _id: 11, a: [[], 1] },
      { _id: 12, a: [1] },
    ],
    'a',
    { _id: 0, no_b: true },
    'b',
    [0],
  ),
  singleForeign(
    ARRAYS,
    'Path with arrays in local can match to empty array',
    [
      { _id: 0, a: [{ x: [[]] }] },
      { _id: 10, a: [{ y: 1 }, { y: 2 }] },
      { _id: 11, a: [[]] },
      { _id: 12, a: [{ x: [] }] },
      { _id: 13, a: [] },
    ],
    'a.x',
    { _id: 0, b: [] },
    'b',
    [0],
  ),
  singleForeign(
    ARRAYS,
    'Path with arrays in local can match to null',
    [
      { _id: 0, a: [{ y: 1 }, { y: 2 }] },
      { _id: 1, a: [{ x: [] }] },
      { _id: 2, a: [] },
      { _id: 3, a: [[]] },
      { _id: 4, a: { x: [] } },
      { _id: 5, x: [1, 2] },
      { _id: 10, a: [{ x: 1 }, { y: 2 }] },
      { _id: 11, a: [{ x: [] }, { x: 1 }] },
      { _id: 12, a: [{ x: [[]] }] },
    ],
    'a.x',
    { _id: 0, b: null },
    'b',
    [0, 1, 2, 3, 4, 5],
  ),
  singleForeign(
    ARRAYS,
    'Paths with numbers in local match to scalar',
    [
      { _id: 0, a: [{ x: 1 }, { x: 2 }] },
      { _id: 1, a: [{ x: [2, 3, 1] }] },
      { _id: 10, a: [{ x: 2 }, { x: 1 }] },
      { _id: 11, a: [{ x: [2, 3] }] },
      { _id: 12, a: { x: 1 } },
      { _id: 13, a: { x: [1, 2] } },
      { _id: 14, a: [{ y: 1 }, { x: 1 }] },
    ],
    'a.0.x',
    { _id: 0, b: 1 },
    'b',
    [0, 1],
  ),
  singleForeign(
    ARRAYS,
    'Paths with numbers in local can match to null',
    [
      { _id: 0, a: { x: 1 } },
      { _id: 1, a: { x: [1, 2] } },
      { _id: 2, a: [{ y: 1 }, { x: 1 }] },
      { _id: 3, a: [] },
      { _id: 4, a: [[]] },
      { _id: 5, x: [1, 2] },
      { _id: 10, a: [{ x: 1 }, { x: 2 }] },
      { _id: 11, a: [{ x: [1, 2] }] },
    ],
    'a.0.x',
    { _id: 0, b: null },
    'b',
    [0, 1, 2, 3, 4, 5],
  ),
];

// ---------------------------------------------------------------------------
// Whole results: lookup_null_semantics.js, lookup.js, lookup_subpipeline_and_fields.js.
// ---------------------------------------------------------------------------

/** How a source compares a pipeline's results with its expectation. */
type Order = 'natural' | 'byId' | 'any';

interface ResultCase {
  label: string;
  local: Document[];
  foreign: Record<string, Document[]>;
  pipeline: Document[];
  expected: Document[];
  /** `byId`: lookup.js's compareId on the results, joined arrays in natural order; `any`: at every depth by `_id`. */
  order: Order;
  setup?: () => Promise<void>;
}

/** The value in the form compared: joined arrays sorted by `_id` when the source compares without order. */
function arranged(docs: Document[], order: Order): unknown {
  const deep = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      const items = value.map(deep);
      return items.every((item) => isPlainDocument(item) && '_id' in item) ? byId(items as Document[]) : items;
    }
    if (isPlainDocument(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, deep(v)]));
    return value;
  };
  if (order === 'natural') return bsonText(docs);
  if (order === 'byId') return bsonText(byId(docs));
  return bsonText(deep(docs));
}

const NULLS = 'lookup_null_semantics.js';
const BASIC = 'lookup.js';
const CONCISE = 'lookup_subpipeline_and_fields.js';

const basicLocal = [{ _id: 0, a: 1 }, { _id: 1, a: null }, { _id: 2 }];
const basicFrom = [{ _id: 0, b: 1 }, { _id: 1, b: null }, { _id: 2 }];
const basicLookup = (localField: string, foreignField: string, as = 'same', from = 'from') => ({
  $lookup: { localField, foreignField, from, as },
});
const dottedLocal = [{ _id: 0, a: 1 }, { _id: 1, a: null }, { _id: 2 }, { _id: 3, a: { c: 1 } }];
const dottedFrom = [
  { _id: 0, b: 1 },
  { _id: 1, b: null },
  { _id: 2 },
  { _id: 3, b: { c: 1 } },
  { _id: 4, b: { c: 2 } },
];

const locations = [
  { _id: 'doghouse', coordinates: [25.0, 60.0], extra: { breeds: ['terrier', 'dachshund', 'bulldog'] } },
  { _id: 'bullpen', coordinates: [-25.0, -60.0], extra: { breeds: 'Scottish Highland', feeling: 'bullish' } },
  { _id: 'puppyhouse', coordinates: [-25.0, 60.0], extra: { breeds: 1, feeling: ['cute', 'small'] } },
];
const animals = [
  { _id: 'dog', locationId: 'doghouse' },
  { _id: 'bull', locationId: 'bullpen' },
  { _id: 'puppy', locationId: 'puppyhouse', breed: 1 },
];
const [doghouse, bullpen, puppyhouse] = locations;
const concise = (extra: Document) => ({
  $lookup: { from: 'locations', localField: 'locationId', foreignField: '_id', as: 'location', ...extra },
});
const puppyWithoutExtra = {
  _id: 'puppy',
  locationId: 'puppyhouse',
  breed: 1,
  location: { _id: 'puppyhouse', coordinates: [-25.0, 60.0] },
};

const RESULTS: ResultCase[] = [
  {
    label: `null, missing and a scalar on the left, arrays of them on the right (${NULLS})`,
    local: [{ _id: 0 }, { _id: 1, a: null }, { _id: 2, a: 9 }, { _id: 3, a: [null, 9] }],
    // The source's foreign documents 2 and 6 hold `undefined`, which the driver cannot store.
    foreign: {
      from: [
        { _id: 0 },
        { _id: 1, b: null },
        { _id: 3, b: 9 },
        { _id: 4, b: [null, 9] },
        { _id: 5, b: 42 },
        { _id: 7, b: [9, 10] },
      ],
    },
    pipeline: [basicLookup('a', 'b', 'lookupResults')],
    expected: [
      { _id: 0, lookupResults: [{ _id: 0 }, { _id: 1, b: null }, { _id: 4, b: [null, 9] }] },
      { _id: 1, a: null, lookupResults: [{ _id: 0 }, { _id: 1, b: null }, { _id: 4, b: [null, 9] }] },
      {
        _id: 2,
        a: 9,
        lookupResults: [
          { _id: 3, b: 9 },
          { _id: 4, b: [null, 9] },
          { _id: 7, b: [9, 10] },
        ],
      },
      {
        _id: 3,
        a: [null, 9],
        lookupResults: [
          { _id: 0 },
          { _id: 1, b: null },
          { _id: 3, b: 9 },
          { _id: 4, b: [null, 9] },
          { _id: 7, b: [9, 10] },
        ],
      },
    ],
    order: 'any',
  },
  {
    label: `a == b, nonexistent fields as null (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('a', 'b')],
    expected: [
      { _id: 0, a: 1, same: [{ _id: 0, b: 1 }] },
      { _id: 1, a: null, same: [{ _id: 1, b: null }, { _id: 2 }] },
      { _id: 2, same: [{ _id: 1, b: null }, { _id: 2 }] },
    ],
    order: 'byId',
  },
  {
    label: `a nonexistent localField is null (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('nonexistent', 'b')],
    expected: [
      { _id: 0, a: 1, same: [{ _id: 1, b: null }, { _id: 2 }] },
      { _id: 1, a: null, same: [{ _id: 1, b: null }, { _id: 2 }] },
      { _id: 2, same: [{ _id: 1, b: null }, { _id: 2 }] },
    ],
    order: 'byId',
  },
  {
    label: `a nonexistent foreignField is null (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('a', 'nonexistent')],
    expected: [
      { _id: 0, a: 1, same: [] },
      { _id: 1, a: null, same: [{ _id: 0, b: 1 }, { _id: 1, b: null }, { _id: 2 }] },
      { _id: 2, same: [{ _id: 0, b: 1 }, { _id: 1, b: null }, { _id: 2 }] },
    ],
    order: 'byId',
  },
  ...[basicLookup('_id', 'nonexistent'), basicLookup('a', 'b', 'same', 'nonexistent')].map((stage): ResultCase => ({
    label: `no matches: ${JSON.stringify(stage.$lookup)} (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [stage],
    expected: [
      { _id: 0, a: 1, same: [] },
      { _id: 1, a: null, same: [] },
      { _id: 2, same: [] },
    ],
    order: 'byId',
  })),
  {
    label: `an existing "as" field is overwritten (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('a', 'b', 'a')],
    expected: [
      { _id: 0, a: [{ _id: 0, b: 1 }] },
      { _id: 1, a: [{ _id: 1, b: null }, { _id: 2 }] },
      { _id: 2, a: [{ _id: 1, b: null }, { _id: 2 }] },
    ],
    order: 'byId',
  },
  {
    label: `multiple $lookups (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('a', 'b', 'c'), { $project: { a: 1, c: 1 } }, basicLookup('a', 'b', 'd')],
    expected: [
      { _id: 0, a: 1, c: [{ _id: 0, b: 1 }], d: [{ _id: 0, b: 1 }] },
      { _id: 1, a: null, c: [{ _id: 1, b: null }, { _id: 2 }], d: [{ _id: 1, b: null }, { _id: 2 }] },
      { _id: 2, c: [{ _id: 1, b: null }, { _id: 2 }], d: [{ _id: 1, b: null }, { _id: 2 }] },
    ],
    order: 'byId',
  },
  {
    label: `$unwind of the "as" field (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('a', 'b'), { $unwind: { path: '$same' } }],
    expected: [
      { _id: 0, a: 1, same: { _id: 0, b: 1 } },
      { _id: 1, a: null, same: { _id: 1, b: null } },
      { _id: 1, a: null, same: { _id: 2 } },
      { _id: 2, same: { _id: 1, b: null } },
      { _id: 2, same: { _id: 2 } },
    ],
    order: 'byId',
  },
  {
    label: `$unwind of the "as" field with includeArrayIndex (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('a', 'b'), { $unwind: { path: '$same', includeArrayIndex: 'index' } }],
    expected: [
      { _id: 0, a: 1, same: { _id: 0, b: 1 }, index: long(0) },
      { _id: 1, a: null, same: { _id: 1, b: null }, index: long(0) },
      { _id: 1, a: null, same: { _id: 2 }, index: long(1) },
      { _id: 2, same: { _id: 1, b: null }, index: long(0) },
      { _id: 2, same: { _id: 2 }, index: long(1) },
    ],
    order: 'byId',
  },
  {
    label: `$unwind with no matching documents (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('_id', 'nonexistent'), { $unwind: { path: '$same' } }],
    expected: [],
    order: 'byId',
  },
  {
    label: `$unwind with preserveNullAndEmptyArrays, no matching documents (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('_id', 'nonexistent'), { $unwind: { path: '$same', preserveNullAndEmptyArrays: true } }],
    expected: [{ _id: 0, a: 1 }, { _id: 1, a: null }, { _id: 2 }],
    order: 'byId',
  },
  {
    label: `$unwind with preserveNullAndEmptyArrays, some matching (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('_id', 'b'), { $unwind: { path: '$same', preserveNullAndEmptyArrays: true } }],
    expected: [{ _id: 0, a: 1 }, { _id: 1, a: null, same: { _id: 0, b: 1 } }, { _id: 2 }],
    order: 'byId',
  },
  {
    label: `$unwind with preserveNullAndEmptyArrays and includeArrayIndex (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [
      basicLookup('_id', 'b'),
      { $unwind: { path: '$same', preserveNullAndEmptyArrays: true, includeArrayIndex: 'index' } },
    ],
    expected: [
      { _id: 0, a: 1, index: null },
      { _id: 1, a: null, same: { _id: 0, b: 1 }, index: long(0) },
      { _id: 2, index: null },
    ],
    order: 'byId',
  },
  {
    label: `localField is a dependency of a later $project (${BASIC})`,
    local: basicLocal,
    foreign: { from: basicFrom },
    pipeline: [basicLookup('a', 'b'), { $project: { same: 1 } }],
    expected: [
      { _id: 0, same: [{ _id: 0, b: 1 }] },
      { _id: 1, same: [{ _id: 1, b: null }, { _id: 2 }] },
      { _id: 2, same: [{ _id: 1, b: null }, { _id: 2 }] },
    ],
    order: 'byId',
  },
  {
    label: `a document value, without a dotted field (${BASIC})`,
    local: dottedLocal,
    foreign: { from: dottedFrom },
    pipeline: [basicLookup('a', 'b')],
    expected: [
      { _id: 0, a: 1, same: [{ _id: 0, b: 1 }] },
      { _id: 1, a: null, same: [{ _id: 1, b: null }, { _id: 2 }] },
      { _id: 2, same: [{ _id: 1, b: null }, { _id: 2 }] },
      { _id: 3, a: { c: 1 }, same: [{ _id: 3, b: { c: 1 } }] },
    ],
    order: 'byId',
  },
  {
    label: `dotted localField and foreignField (${BASIC})`,
    local: dottedLocal,
    foreign: { from: dottedFrom },
    pipeline: [basicLookup('a.c', 'b.c')],
    expected: [
      { _id: 0, a: 1, same: [{ _id: 0, b: 1 }, { _id: 1, b: null }, { _id: 2 }] },
      { _id: 1, a: null, same: [{ _id: 0, b: 1 }, { _id: 1, b: null }, { _id: 2 }] },
      { _id: 2, same: [{ _id: 0, b: 1 }, { _id: 1, b: null }, { _id: 2 }] },
      { _id: 3, a: { c: 1 }, same: [{ _id: 3, b: { c: 1 } }] },
    ],
    order: 'byId',
  },
  {
    label: `a dotted "as" and $unwind with a dotted includeArrayIndex (${BASIC})`,
    local: [{ _id: 0, a: { b: 1 } }, { _id: 1 }],
    foreign: { from: [{ _id: 0, target: 1 }] },
    pipeline: [
      basicLookup('a.b', 'target', 'same.documents'),
      { $unwind: { path: '$same.documents', preserveNullAndEmptyArrays: true, includeArrayIndex: 'c.d.e' } },
    ],
    expected: [
      { _id: 0, a: { b: 1 }, same: { documents: { _id: 0, target: 1 } }, c: { d: { e: long(0) } } },
      { _id: 1, same: {}, c: { d: { e: null } } },
    ],
    order: 'byId',
  },
  {
    label: `a regex local value joins by equality only (SERVER-21287, ${BASIC})`,
    local: [{ _id: 0, a: /a regex/ }],
    foreign: {
      from: [
        { _id: 0, b: /a regex/ },
        { _id: 1, b: 'string that matches /a regex/' },
      ],
    },
    pipeline: [basicLookup('a', 'b', 'b')],
    expected: [{ _id: 0, a: new BSONRegExp('a regex', ''), b: [{ _id: 0, b: new BSONRegExp('a regex', '') }] }],
    order: 'byId',
  },
  {
    label: `a local array joins several documents (${BASIC})`,
    local: [{ _id: 0, a: [0, 1, 2] }],
    foreign: { from: [{ _id: 0 }, { _id: 1 }] },
    pipeline: [basicLookup('a', '_id', 'b')],
    expected: [{ _id: 0, a: [0, 1, 2], b: [{ _id: 0 }, { _id: 1 }] }],
    order: 'byId',
  },
  {
    label: `a local array joins a single document (${BASIC})`,
    local: [{ _id: 0, a: [1] }],
    foreign: { from: [{ _id: 0 }, { _id: 1 }] },
    pipeline: [basicLookup('a', '_id', 'b')],
    expected: [{ _id: 0, a: [1], b: [{ _id: 1 }] }],
    order: 'byId',
  },
  {
    label: `a local array of regexes joins by equality (${BASIC})`,
    local: [
      { _id: 0, a: [/a regex/, /^x/] },
      { _id: 1, a: [/^x/] },
    ],
    foreign: {
      from: [
        { _id: 0, b: 'should not match a regex' },
        { _id: 1, b: 'xxxx' },
        { _id: 2, b: /a regex/ },
        { _id: 3, b: /^x/ },
      ],
    },
    pipeline: [basicLookup('a', 'b', 'b')],
    expected: [
      {
        _id: 0,
        a: [new BSONRegExp('a regex', ''), new BSONRegExp('^x', '')],
        b: [
          { _id: 2, b: new BSONRegExp('a regex', '') },
          { _id: 3, b: new BSONRegExp('^x', '') },
        ],
      },
      { _id: 1, a: [new BSONRegExp('^x', '')], b: [{ _id: 3, b: new BSONRegExp('^x', '') }] },
    ],
    order: 'byId',
  },
  {
    label: `localField in an array of sub-objects (${BASIC})`,
    local: [{ _id: 0, a: [{ b: 1 }, { b: 2 }] }],
    foreign: { from: [{ _id: 0 }, { _id: 1 }, { _id: 2 }, { _id: 3 }] },
    pipeline: [basicLookup('a.b', '_id', 'c')],
    expected: [{ _id: 0, a: [{ b: 1 }, { b: 2 }], c: [{ _id: 1 }, { _id: 2 }] }],
    order: 'byId',
  },
  {
    label: `localField/foreignField with let and pipeline (${CONCISE})`,
    local: animals,
    foreign: { locations },
    pipeline: [
      concise({
        let: { animal_breed: '$breed' },
        pipeline: [{ $match: { $expr: { $eq: ['$$animal_breed', '$extra.breeds'] } } }],
      }),
    ],
    expected: [
      { _id: 'dog', locationId: 'doghouse', location: [] },
      { _id: 'bull', locationId: 'bullpen', location: [] },
      { _id: 'puppy', locationId: 'puppyhouse', breed: 1, location: [puppyhouse] },
    ],
    order: 'any',
  },
  {
    label: `localField/foreignField with a pipeline, without let (${CONCISE})`,
    local: animals,
    foreign: { locations },
    pipeline: [concise({ pipeline: [{ $match: { $expr: { $in: [-25.0, '$coordinates'] } } }] })],
    expected: [
      { _id: 'dog', locationId: 'doghouse', location: [] },
      { _id: 'bull', locationId: 'bullpen', location: [bullpen] },
      { _id: 'puppy', locationId: 'puppyhouse', breed: 1, location: [puppyhouse] },
    ],
    order: 'any',
  },
  {
    label: `the concise form followed by $unwind and a $match on "as" (${CONCISE})`,
    local: animals,
    foreign: { locations },
    pipeline: [
      concise({ let: { animal: '$_id' }, pipeline: [{ $match: { $expr: { $in: [-25.0, '$coordinates'] } } }] }),
      { $unwind: '$location' },
      { $match: { 'location.extra.feeling': { $type: 'array' } } },
      { $project: { 'location.extra': false } },
    ],
    expected: [puppyWithoutExtra],
    order: 'natural',
  },
  {
    label: `the concise form followed by $unwind and a $match partly on "as" (${CONCISE})`,
    local: animals,
    foreign: { locations },
    pipeline: [
      concise({ let: { animal: '$_id' }, pipeline: [{ $set: { 'extra.unrelated': '$_id' } }] }),
      { $unwind: '$location' },
      { $match: { 'location.extra.feeling': { $exists: true }, breed: { $eq: 1 } } },
      { $project: { 'location.extra': false } },
    ],
    expected: [puppyWithoutExtra],
    order: 'natural',
  },
  {
    label: `the concise form followed by a $jsonSchema $match (${CONCISE})`,
    local: animals,
    foreign: { locations },
    pipeline: [
      concise({ pipeline: [{ $match: { $expr: { $in: [60.0, '$coordinates'] } } }] }),
      { $unwind: '$location' },
      { $match: { $jsonSchema: { properties: { location: { properties: { extra: { minProperties: 2 } } } } } } },
      { $project: { 'location.extra': false } },
    ],
    expected: [puppyWithoutExtra],
    order: 'natural',
  },
  {
    label: `the concise form from a view (${CONCISE})`,
    local: animals,
    foreign: { locations },
    setup: async () => {
      await fx.db
        .collection('view')
        .drop()
        .catch(() => undefined);
      await fx.db.createCollection('view', {
        viewOn: 'locations',
        pipeline: [{ $set: { my_id: '$_id' } }, { $match: { $expr: { $in: [-25.0, '$coordinates'] } } }],
      });
    },
    pipeline: [
      {
        $lookup: {
          from: 'view',
          localField: 'locationId',
          foreignField: 'my_id',
          as: 'location',
          pipeline: [{ $match: { $expr: { $in: [60.0, '$coordinates'] } } }],
        },
      },
    ],
    expected: [
      { _id: 'dog', locationId: 'doghouse', location: [] },
      { _id: 'bull', locationId: 'bullpen', location: [] },
      { _id: 'puppy', locationId: 'puppyhouse', breed: 1, location: [{ ...puppyhouse, my_id: 'puppyhouse' }] },
    ],
    order: 'any',
  },
  {
    label: `the join's $match runs before the user's pipeline (${CONCISE})`,
    local: animals,
    foreign: { locations },
    pipeline: [concise({ pipeline: [{ $project: { _id: 'doghouse' } }] })],
    expected: [
      { _id: 'dog', locationId: 'doghouse', location: [{ _id: 'doghouse' }] },
      { _id: 'bull', locationId: 'bullpen', location: [{ _id: 'doghouse' }] },
      { _id: 'puppy', locationId: 'puppyhouse', breed: 1, location: [{ _id: 'doghouse' }] },
    ],
    order: 'any',
  },
  {
    label: `$unwind and a $match on a field the user's pipeline sets (${CONCISE})`,
    local: animals,
    foreign: { locations },
    pipeline: [
      concise({ pipeline: [{ $set: { my_field: '$_id' } }] }),
      { $unwind: '$location' },
      { $match: { 'location.my_field': 'doghouse' } },
    ],
    expected: [{ _id: 'dog', locationId: 'doghouse', location: { ...doghouse, my_field: 'doghouse' } }],
    order: 'any',
  },
  {
    label: `$unwind and two $matches on the user's pipeline's fields (${CONCISE})`,
    local: animals,
    foreign: { locations },
    pipeline: [
      concise({ pipeline: [{ $set: { my_field: '$_id' } }] }),
      { $unwind: '$location' },
      { $match: { 'location.my_field': 'puppyhouse' } },
      { $match: { 'location.extra.feeling': { $type: 'array' } } },
    ],
    expected: [
      { _id: 'puppy', locationId: 'puppyhouse', breed: 1, location: { ...puppyhouse, my_field: 'puppyhouse' } },
    ],
    order: 'any',
  },
];

// ---------------------------------------------------------------------------
// lookup_numeric_field.js: whether the local document joins {y: 3, z: 4} by `y`.
// ---------------------------------------------------------------------------

const NUMERIC_FIELD: [localField: string, localDoc: Document, shouldMatch: boolean][] = [
  ['a', { a: 3 }, true],
  ['a', { a: 1 }, false],
  ['a.b', { a: { b: 3 } }, true],
  ['a.b.0', { a: { b: [3] } }, true],
  ['a.0', { a: [3, 2, 1] }, true],
  ['a.0', { a: { '0': 3, '1': 2, '3': 1 } }, true],
  ['a.1', { a: [3, 2, 1] }, false],
  ['a.3', { a: [3, 2, 1] }, false],
  ['b.3', { a: [3, 2, 1] }, false],
  ['c.1.0', { c: [0, [3, 4, 3], [1, 2]] }, true],
  ['c.1.2', { c: [0, [3, 4, 3], [1, 2]] }, true],
  ['c.0.0', { c: [0, [3, 4, 3], [1, 2]] }, false],
  ['b.2.1', { a: [0, [3, 4, 3], [1, 2]] }, false],
  ['a.2.b.1', { a: [{}, { b: [2] }, { b: [1, 3] }] }, true],
  ['a.2.b.1', { a: { '2': { b: [1, 3] } } }, true],
  ['a.2.b.2', { a: [{}, { b: [2] }, { b: [1, 3] }] }, false],
  ['a.1.b.1', { a: [{}, { b: [2] }, { b: [1, 3] }] }, false],
  ['a.1.b.2', { a: [{}, { b: [2] }, { b: [1, 3] }] }, false],
  ['a.b.c.1', { a: { b: { c: [1, 3] } } }, true],
  ['a.00', { a: { '00': 3 } }, true],
  ['a.b.01', { a: { b: { '01': 3 } } }, true],
  ['a.00.b', { a: { '00': { b: 3 } } }, true],
];

/** Runs `cases` with `test`, each named by its label. */
function each<T extends { label: string }>(cases: T[], test: (c: T) => Promise<void>): void {
  it.each(cases.map((c) => [c.label, c] as const))('%s', (_label, c) => test(c));
}

// ---------------------------------------------------------------------------
// lookup_collation.js: the local collection's collation or the command's,
// never the foreign collection's
// ---------------------------------------------------------------------------

const COLLATION = 'lookup_collation.js';
const caseInsensitive = { locale: 'en_US', strength: 1 };
const caseSensitive = { locale: 'simple' };
const records = [
  { _id: 0, key: 'a' },
  { _id: 1, key: 'A' },
];
const resultCaseSensitive = [
  { _id: 0, key: 'a', matched: [{ _id: 0, key: 'a' }] },
  { _id: 1, key: 'A', matched: [{ _id: 1, key: 'A' }] },
];
const resultCaseInsensitive = [
  { _id: 0, key: 'a', matched: records },
  { _id: 1, key: 'A', matched: records },
];
const lookupForms = {
  lookupWithPipeline: (from: string) => ({
    $lookup: {
      from,
      as: 'matched',
      let: { l_key: '$key' },
      pipeline: [{ $match: { $expr: { $eq: ['$key', '$$l_key'] } } }],
    },
  }),
  lookupNoPipeline: (from: string) => ({ $lookup: { from, localField: 'key', foreignField: 'key', as: 'matched' } }),
};

/** The source's three collections: case-sensitive, case-insensitive by default, and case-sensitive with two indexes. */
async function collationCollections(): Promise<void> {
  for (const name of ['case_sensitive', 'case_insensitive', 'case_sensitive_indexed']) await fx.fresh(name);
  await fx.db.createCollection('case_sensitive');
  await fx.db.createCollection('case_sensitive_indexed');
  await fx.db.createCollection('case_insensitive', { collation: caseInsensitive });
  for (const name of ['case_sensitive', 'case_insensitive', 'case_sensitive_indexed']) {
    await fx.db.collection(name).insertMany(records.map((doc) => shellValue(doc) as Document));
  }
  const indexed = fx.db.collection('case_sensitive_indexed');
  await indexed.createIndex({ key: 1 });
  await indexed.createIndex({ key: 1, x: 1 }, { collation: caseInsensitive });
}

/** [label, local collection, foreign collection, aggregate options, expected] of each run of the source. */
const COLLATION_RUNS: [string, string, string, AggregateOptions, Document[]][] = [
  [
    'default collation on local (the foreign one is ignored)',
    'case_sensitive',
    'case_insensitive',
    {},
    resultCaseSensitive,
  ],
  [
    'case-insensitive collation on local',
    'case_insensitive',
    'case_sensitive',
    { allowDiskUse: false },
    resultCaseInsensitive,
  ],
  [
    'case-insensitive collation on local, disk use allowed',
    'case_insensitive',
    'case_sensitive',
    { allowDiskUse: true },
    resultCaseInsensitive,
  ],
  [
    'case-insensitive collation on command',
    'case_sensitive',
    'case_sensitive',
    { collation: caseInsensitive },
    resultCaseInsensitive,
  ],
  [
    'case-sensitive collation on command',
    'case_insensitive',
    'case_sensitive',
    { collation: caseSensitive },
    resultCaseSensitive,
  ],
  [
    'case-insensitive collation on local, foreign is indexed',
    'case_insensitive',
    'case_sensitive_indexed',
    {},
    resultCaseInsensitive,
  ],
  [
    'case-insensitive collation on command, foreign is indexed',
    'case_sensitive',
    'case_sensitive_indexed',
    { collation: caseInsensitive },
    resultCaseInsensitive,
  ],
];

describe('conformance: $lookup by localField and foreignField', () => {
  describe(`the equijoin table (${LIB})`, () => {
    each(EQUIJOIN, async (c) => {
      expect(await c.run()).toEqual(c.expected);
    });
  });

  describe(`array semantics (${ARRAYS})`, () => {
    each(ARRAY_SEMANTICS, async (c) => {
      expect(await c.run()).toEqual(c.expected);
    });
  });

  describe('whole results', () => {
    each(RESULTS, async (c) => {
      const local = await load(LOCAL, c.local);
      for (const [name, docs] of Object.entries(c.foreign)) await load(name, docs);
      await c.setup?.();
      const results = await aggregate(local, c.pipeline);
      expect(arranged(results, c.order)).toEqual(
        arranged(
          c.expected.map((doc) => shellValue(doc) as Document),
          c.order,
        ),
      );
    });
  });

  describe('numeric components of localField (lookup_numeric_field.js)', () => {
    const cases = NUMERIC_FIELD.map(([localField, localDoc, shouldMatch]) => ({
      label: `${localField} of ${JSON.stringify(localDoc)} ${shouldMatch ? 'joins' : 'joins nothing'}`,
      localField,
      localDoc,
      shouldMatch,
    }));
    each(cases, async ({ localField, localDoc, shouldMatch }) => {
      await load('inner', [{ y: 3, z: 4 }]);
      const outer = await load('outer', [localDoc]);
      const results = await aggregate(outer, [
        { $lookup: { from: 'inner', localField, foreignField: 'y', as: 'docs' } },
        { $match: { 'docs.0.z': 4 } },
        { $count: 'count' },
      ]);
      expect(results.map((doc) => Number(doc.count))).toEqual(shouldMatch ? [1] : []);
    });
  });

  describe(`collation (${COLLATION})`, () => {
    const runs = Object.entries(lookupForms).flatMap(([form, stage]) =>
      COLLATION_RUNS.map(([label, local, foreign, options, expected]) => ({
        label: `${form}: ${label}`,
        run: () => aggregate(fx.db.collection(local), [stage(foreign)], options),
        expected,
      })),
    );
    each(runs, async (c) => {
      await collationCollections();
      expect(arranged(await c.run(), 'any')).toEqual(
        arranged(
          c.expected.map((doc) => shellValue(doc) as Document),
          'any',
        ),
      );
    });
  });
});
