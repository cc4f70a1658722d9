/**
 * Conformance: what mongod 7 answers to administration commands, exactly as
 * to BSON types and field order where its answer does not depend on the host:
 * `drop` and `dropDatabase` of what does not exist, `listDatabases` and
 * `listCollections` with filters, a collection's `info.uuid` and `idIndex`
 * (kept across renameCollection), `getParameter` (`'*'`, `showDetails`,
 * `allParameters`, nothing to get), `buildInfo` and `serverStatus` fields,
 * `collStats` and `dbStats` (of nothing, with `scale` and `freeStorage`) and
 * the reply of `killCursors`. The cases and answers are those an independent
 * MongoDB-compatible server's integration suite asserts against a real
 * MongoDB; sizes, versions and other values that depend on the host are
 * checked by type only. Replies are read with `promoteValues: false`, so an
 * int32, a double and an Int64 stay apart (`ok` is a double in mongod's
 * replies). Written to pass against a real MongoDB 7 (MONGO_URL) too.
 */
import { Binary, type Db, type Document, Double, type FindCursor, Int32, Long, type MongoServerError } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';
import { answer, double, expectDocument, int, isPlainDocument, long, ordered, run } from './raw-replies.fixture.js';

const fx = useDriverFixture();

/** A number's value, whichever its BSON type; 0 for none. */
function numeric(value: unknown): number {
  if (value instanceof Int32 || value instanceof Double) return value.value;
  if (value instanceof Long) return value.toNumber();
  return typeof value === 'number' ? value : 0;
}

/** A placeholder for a value checked by type only: the type's name, which {@link checked} puts in its place. */
const INT32 = '<int32>';
const NON_NEGATIVE_INT32 = '<int32 >= 0>';
const DOUBLE = '<double>';
const LONG = '<int64>';
const POSITIVE_LONG = '<int64 > 0>';
const STRING = '<non-empty string>';
const DOCUMENT = '<document>';
const RECENT_DATE = '<date within 2 s>';
const BOOLEAN = '<boolean>';
const INT32_ARRAY = '<array of int32>';

/** `value` replaced by `placeholder` when it is of the type the placeholder names; left as it is otherwise. */
function checked(value: unknown, placeholder: string): unknown {
  const fits: Record<string, (v: unknown) => boolean> = {
    [INT32]: (v) => v instanceof Int32,
    [NON_NEGATIVE_INT32]: (v) => v instanceof Int32 && v.value >= 0,
    [DOUBLE]: (v) => v instanceof Double,
    [LONG]: (v) => v instanceof Long,
    [POSITIVE_LONG]: (v) => v instanceof Long && v.greaterThan(0),
    [STRING]: (v) => typeof v === 'string' && v.length > 0,
    [DOCUMENT]: isPlainDocument,
    [RECENT_DATE]: (v) => v instanceof Date && Math.abs(v.getTime() - Date.now()) <= 2000,
    [BOOLEAN]: (v) => typeof v === 'boolean',
  };
  return fits[placeholder](value) ? placeholder : value;
}

/** `reply` with the fields named in `types` replaced by their placeholder when of that type, `omit` left out. */
function normalized(reply: Document, types: Record<string, string>, omit: string[] = []): Document {
  return Object.fromEntries(
    Object.entries(reply)
      .filter(([field]) => !omit.includes(field))
      .map(([field, value]) => [field, field in types ? checked(value, types[field]) : value]),
  );
}

/** The `_id`/`v` documents of a data set of the other suite. */
const documents = (values: Record<string, unknown>): Document[] =>
  Object.entries(values).map(([_id, v]) => ({ _id, v }));

/** Six documents whose `v` are documents holding strings (one is null, one empty). */
const DOCUMENTS_STRINGS = documents({
  'document-string': { v: 'foo' },
  'document-string-double': { v: '42.13' },
  'document-string-whole': { v: '42' },
  'document-string-empty-str': { v: '' },
  'document-string-empty': {},
  'document-string-nil': null,
});

/** Six documents whose `v` are strings (one is null). */
const STRINGS = documents({
  string: 'foo',
  'string-double': '42.13',
  'string-whole': '42',
  'string-empty': '',
  'string-duplicate': 'foo',
  'string-null': null,
});

/** Databases besides the fixture's that a suite creates: dropped after it. */
function otherDatabases(): (suffix: string) => Db {
  const used = new Set<string>();
  afterAll(async () => {
    for (const name of used) await fx.client.db(name).dropDatabase();
  });
  return (suffix) => {
    const name = `${fx.db.databaseName}_${suffix}`;
    used.add(name);
    return fx.client.db(name);
  };
}

describe('drop and dropDatabase of what does not exist', () => {
  const other = otherDatabases();

  it('should answer drop of a missing collection with { ok: 1 } alone', async () => {
    await fx.db
      .collection('never_created')
      .drop()
      .catch(() => undefined);
    expectDocument(await run(fx.db, { drop: 'never_created' }), { ok: double(1) });
  });

  it('should answer drop of a collection just dropped with { ok: 1 } alone', async () => {
    await fx.db.createCollection('dropped_twice');
    await fx.db.collection('dropped_twice').drop();
    expectDocument(await run(fx.db, { drop: 'dropped_twice' }), { ok: double(1) });
  });

  it('should answer dropDatabase of a database that never existed with { ok: 1 } alone', async () => {
    expectDocument(await run(other('never'), { dropDatabase: 1 }), { ok: double(1) });
  });

  it('should answer dropDatabase of a database just dropped with { ok: 1 } alone', async () => {
    const db = other('dropped');
    await db.createCollection('c');
    await db.dropDatabase();
    expectDocument(await run(db, { dropDatabase: 1 }), { ok: double(1) });
  });

  it('should list a database filtered by name once a collection creates it, not before', async () => {
    const db = other('created');
    const filter = { name: { $in: [db.databaseName] } };
    const names = async (): Promise<unknown[]> =>
      ((await run(fx.client.db('admin'), { listDatabases: 1, filter, nameOnly: true })).databases as Document[]).map(
        (entry) => entry.name,
      );
    const before = await names();
    await db.createCollection('c');
    expect({ before, after: await names() }).toEqual({ before: [], after: [db.databaseName] });
  });
});

describe('listDatabases with a filter', () => {
  const other = otherDatabases();
  let name: string;
  let extra: string;

  beforeAll(async () => {
    name = fx.db.databaseName;
    await (await fx.fresh('list_databases')).insertMany(DOCUMENTS_STRINGS as never[]);
    const extraDb = other('extra');
    extra = extraDb.databaseName;
    await extraDb.collection('list_databases_extra').insertOne({ v: 1 });
  });

  /** [label, filter, nameOnly, names of the databases listed]. */
  type Case = [label: string, filter: () => Document, nameOnly: boolean, expected: () => string[]];

  it.each<Case>([
    ['its name', () => ({ name }), false, () => [name]],
    ['its name, nameOnly', () => ({ name }), true, () => [name]],
    // The other suite sends { name: <name>, name: /^Test/i } (a duplicate field, read as both conditions).
    ['its name and a regex it matches', () => ({ $and: [{ name }, { name: /^Test/i }] }), false, () => [name]],
    ['its name and a regex it matches, nameOnly', () => ({ $and: [{ name }, { name: /^Test/i }] }), true, () => [name]],
    ['a name no database has', () => ({ name: 'unknown' }), false, () => []],
    ['its name and a regex it does not match', () => ({ $and: [{ name }, { name: /^xyz$/i }] }), false, () => []],
    [
      'its name and a regex it does not match, nameOnly',
      () => ({ $and: [{ name }, { name: /^xyz$/i }] }),
      true,
      () => [],
    ],
    ['a regex matching two databases', () => ({ name: new RegExp(`^${name}`, 'i') }), false, () => [name, extra]],
  ])('should filter by %s', async (_label, filter, nameOnly, expected) => {
    const reply = await run(fx.client.db('admin'), { listDatabases: 1, filter: filter(), nameOnly });
    const databases = (reply.databases as Document[])
      .map(({ sizeOnDisk: _size, ...entry }) => entry)
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    const names = expected().sort();
    const totalSize = numeric(reply.totalSize) > 0 ? 'positive' : 'zero or absent';
    // nameOnly lists names alone; otherwise each database says whether it is empty (sizeOnDisk is the host's).
    expect({ databases, totalSize }).toStrictEqual({
      databases: names.map((n) => (nameOnly ? { name: n } : { name: n, empty: false })),
      totalSize: nameOnly || names.length === 0 ? 'zero or absent' : 'positive',
    });
  });
});

describe('listCollections', () => {
  const other = otherDatabases();

  it('should filter names with $in', async () => {
    const all = ['list_names_a', 'list_names_b', 'list_names_c'];
    for (const collection of all) await (await fx.fresh(collection)).insertOne({ v: 1 });
    const filter = { name: { $in: ['list_names_c', 'list_names_a'] } };
    const names = (await fx.db.listCollections(filter, { nameOnly: true }).toArray()).map((info) => info.name);
    expect(names.sort()).toEqual(['list_names_a', 'list_names_c']);
  });

  it("should describe a collection with a UUID it keeps when it's renamed", async () => {
    const db = other('uuid');
    await db.createCollection('uuid_collection');
    const before = (await run(db, { listCollections: 1 })).cursor.firstBatch as Document[];
    const uuid: unknown = (before[0]?.info as Document | undefined)?.uuid;
    await fx.client.db('admin').command({
      renameCollection: `${db.databaseName}.uuid_collection`,
      to: `${db.databaseName}.uuid_collection_new`,
    });
    const after = (await run(db, { listCollections: 1 })).cursor.firstBatch as Document[];
    expectDocument(
      { listed: before.length, uuid: uuid instanceof Binary ? [uuid.sub_type, uuid.length()] : uuid, after },
      {
        listed: 1,
        uuid: [Binary.SUBTYPE_UUID, 16],
        after: [
          {
            name: 'uuid_collection_new',
            type: 'collection',
            options: {},
            info: { readOnly: false, uuid },
            idIndex: { v: int(2), key: { _id: int(1) }, name: '_id_' },
          },
        ],
      },
    );
  });
});

describe('getParameter', () => {
  const admin = (): Db => fx.client.db('admin');
  const COMMENT = { comment: 'getParameter test' };
  /** The `quiet` parameter with `showDetails`. */
  const QUIET_DETAILS = { value: false, settableAtRuntime: true, settableAtStartup: true };

  /** [label, command, fields expected in the reply, fields it must not have]. */
  type Case = [label: string, command: Document, expected: Document, unexpected?: string[]];

  // mongod also answers authSchemaVersion: 5 to '*' and to allParameters (left out: authentication).
  it.each<Case>([
    ["'*'", { getParameter: '*' }, { quiet: false, ok: double(1) }],
    ["'*' and quiet", { getParameter: '*', quiet: 1, ...COMMENT }, { quiet: false, ok: double(1) }],
    [
      "'*', quiet and an unknown parameter",
      { getParameter: '*', quiet: 1, quiet_other: 1, ...COMMENT },
      { quiet: false, ok: double(1) },
    ],
    [
      "'*' and an unknown parameter",
      { getParameter: '*', quiet_other: 1, ...COMMENT },
      { quiet: false, ok: double(1) },
    ],
    ['1 and quiet', { getParameter: 1, quiet: 1, ...COMMENT }, { quiet: false, ok: double(1) }],
    ['0 and quiet', { getParameter: 0, quiet: 1, ...COMMENT }, { quiet: false, ok: double(1) }],
    ['null and quiet', { getParameter: null, quiet: 1, ...COMMENT }, { quiet: false, ok: double(1) }],
    ["'1' and quiet", { getParameter: '1', quiet: 1, ...COMMENT }, { quiet: false, ok: double(1) }],
    [
      'quiet and an unknown parameter',
      { getParameter: 1, quiet: 1, quiet_other: 1, ...COMMENT },
      { quiet: false, ok: double(1) },
      ['quiet_other'],
    ],
    [
      'showDetails: true',
      { getParameter: { showDetails: true }, quiet: true },
      { quiet: QUIET_DETAILS, ok: double(1) },
      ['acceptApiVersion2'],
    ],
    [
      'showDetails: false',
      { getParameter: { showDetails: false }, quiet: true },
      { quiet: false, ok: double(1) },
      ['acceptApiVersion2'],
    ],
    [
      'showDetails and allParameters: true',
      { getParameter: { showDetails: true, allParameters: true } },
      { quiet: QUIET_DETAILS, ok: double(1) },
    ],
    [
      'showDetails, allParameters: false and quiet',
      { getParameter: { showDetails: true, allParameters: false }, quiet: true },
      { quiet: QUIET_DETAILS, ok: double(1) },
      ['acceptApiVersion2'],
    ],
    [
      'showDetails: false and allParameters: true',
      { getParameter: { showDetails: false, allParameters: true } },
      { quiet: false, ok: double(1) },
    ],
    [
      'showDetails: false, allParameters: false and quiet',
      { getParameter: { showDetails: false, allParameters: false }, quiet: true },
      { quiet: false, ok: double(1) },
      ['acceptApiVersion2'],
    ],
    [
      'showDetails: Int64 -1',
      { getParameter: { showDetails: long(-1) }, quiet: true },
      { quiet: QUIET_DETAILS, ok: double(1) },
    ],
    [
      'showDetails: Int64 1',
      { getParameter: { showDetails: long(1) }, quiet: true },
      { quiet: QUIET_DETAILS, ok: double(1) },
    ],
    [
      'showDetails: Int64 0',
      { getParameter: { showDetails: long(0) }, quiet: true },
      { quiet: false, ok: double(1) },
      ['acceptApiVersion2'],
    ],
    [
      'showDetails: 0.0',
      { getParameter: { showDetails: double(0) }, quiet: true },
      { quiet: false, ok: double(1) },
      ['acceptApiVersion2'],
    ],
    [
      'showDetails: the smallest positive double',
      { getParameter: { showDetails: Number.MIN_VALUE }, quiet: true },
      { quiet: QUIET_DETAILS, ok: double(1) },
    ],
    ['showDetails: null', { getParameter: { showDetails: null }, quiet: true }, { quiet: false, ok: double(1) }],
    ...(
      [
        ['Int64 -1', long(-1)],
        ['Int64 1', long(1)],
        ['Int64 0', long(0)],
        ['0.0', double(0)],
        ['the smallest positive double', Number.MIN_VALUE],
        ['null', null],
      ] as const
    ).map(([label, allParameters]): Case => [
      `showDetails and allParameters: ${label}`,
      { getParameter: { showDetails: true, allParameters }, quiet: true },
      { quiet: QUIET_DETAILS, ok: double(1) },
      allParameters === null ? ['acceptApiVersion2'] : [],
    ]),
    [
      'featureCompatibilityVersion',
      { getParameter: {}, featureCompatibilityVersion: 1 },
      { featureCompatibilityVersion: { version: '7.0' }, ok: double(1) },
    ],
    [
      'featureCompatibilityVersion with showDetails',
      { getParameter: { showDetails: true }, featureCompatibilityVersion: 1 },
      {
        featureCompatibilityVersion: {
          value: { version: '7.0' },
          settableAtRuntime: false,
          settableAtStartup: false,
        },
        ok: double(1),
      },
    ],
  ])('should answer %s', async (_label, command, expected, unexpected = []) => {
    const reply = await run(admin(), command);
    expectDocument(Object.fromEntries(Object.keys(expected).map((field) => [field, reply[field]])), expected);
    expect(Object.keys(reply).filter((field) => unexpected.includes(field))).toEqual([]);
  });

  const NOTHING = { code: 72, codeName: 'InvalidOptions', message: 'no option found to get' };
  const wrongType = (field: string): Document => ({
    code: 14,
    codeName: 'TypeMismatch',
    message: `BSON field 'getParameter.${field}' is the wrong type 'string', expected types '[bool, long, int, decimal, double']`,
  });

  it.each<[label: string, command: Document, expected: Document]>([
    ['no parameter', { getParameter: 1, ...COMMENT }, NOTHING],
    ['only an unknown parameter', { getParameter: 1, quiet_other: 1, ...COMMENT }, NOTHING],
    ['showDetails: true and no parameter', { getParameter: { showDetails: true } }, NOTHING],
    ['showDetails: false and no parameter', { getParameter: { showDetails: false } }, NOTHING],
    [
      'showDetails, allParameters: false and no parameter',
      { getParameter: { showDetails: true, allParameters: false } },
      NOTHING,
    ],
    [
      'showDetails, allParameters: false and an unknown parameter',
      { getParameter: { showDetails: true, allParameters: false }, quiet_other: true },
      NOTHING,
    ],
    [
      'showDetails: false, allParameters: false and no parameter',
      { getParameter: { showDetails: false, allParameters: false } },
      NOTHING,
    ],
    ["showDetails: '1'", { getParameter: { showDetails: '1' }, quiet: true }, wrongType('showDetails')],
    [
      "allParameters: '1'",
      { getParameter: { showDetails: true, allParameters: '1' }, quiet: true },
      wrongType('allParameters'),
    ],
  ])('should refuse %s', async (_label, command, expected) => {
    expect(answer(await rejection(admin().command(command)))).toEqual(expected);
  });
});

describe('buildInfo', () => {
  it('should answer its fields in order, with their types', async () => {
    const reply = await run(fx.db, { buildInfo: 1 });
    // Fields only some builds have are left out; versions and the build's own values are checked by type.
    const { versionArray } = reply;
    const int32s =
      Array.isArray(versionArray) && versionArray.length > 0 && versionArray.every((n) => n instanceof Int32);
    expectDocument(
      normalized(
        { ...reply, versionArray: int32s ? INT32_ARRAY : versionArray },
        { version: STRING, gitVersion: STRING, buildEnvironment: DOCUMENT, bits: INT32, debug: BOOLEAN },
        ['openssl', 'storageEngines', 'allocator', 'javascriptEngine', 'targetMinOS'],
      ),
      {
        version: STRING,
        gitVersion: STRING,
        modules: [],
        sysInfo: 'deprecated',
        versionArray: INT32_ARRAY,
        buildEnvironment: DOCUMENT,
        bits: INT32,
        debug: BOOLEAN,
        maxBsonObjectSize: int(16 * 1024 * 1024),
        ok: double(1),
      },
    );
  });
});

describe('collStats', () => {
  const NAME = 'coll_stats';
  const SIZES = ['size', 'avgObjSize', 'storageSize', 'totalIndexSize', 'totalSize'];
  const sizeTypes = (fields: string[]): Record<string, string> =>
    Object.fromEntries(fields.map((field) => [field, NON_NEGATIVE_INT32]));
  /** An index-by-name document replaced by its index names. */
  const indexNames = (value: unknown): unknown => (isPlainDocument(value) ? Object.keys(value) : value);

  /** The reply split as the other suite compares it: other fields in order, sizes by type, index names. */
  function parts(reply: Document, sizes: string[]): Document {
    return {
      fields: normalized(reply, {}, [...sizes, 'wiredTiger', 'indexDetails', 'indexSizes']),
      sizes: Object.fromEntries(sizes.map((field) => [field, checked(reply[field], NON_NEGATIVE_INT32)])),
      indexDetails: indexNames(reply.indexDetails),
      indexSizes: indexNames(reply.indexSizes),
    };
  }

  async function populated(documents: Document[]): Promise<void> {
    await (await fx.fresh(NAME)).insertMany(documents as never[]);
  }

  it('should answer zeros for a collection that does not exist', async () => {
    await fx.fresh(NAME);
    expectDocument(await run(fx.db, { collStats: NAME }), {
      ns: `${fx.db.databaseName}.${NAME}`,
      size: int(0),
      count: int(0),
      numOrphanDocs: int(0),
      storageSize: int(0),
      totalSize: int(0),
      nindexes: int(0),
      totalIndexSize: int(0),
      indexDetails: {},
      indexSizes: {},
      scaleFactor: int(1),
      ok: double(1),
    });
  });

  it('should answer its fields in order, with their types', async () => {
    await populated(DOCUMENTS_STRINGS);
    const reply = await run(fx.db, { collStats: NAME });
    expectDocument(
      normalized(
        { ...reply, indexDetails: indexNames(reply.indexDetails), indexSizes: indexNames(reply.indexSizes) },
        sizeTypes(SIZES),
        ['wiredTiger'],
      ),
      {
        ns: `${fx.db.databaseName}.${NAME}`,
        size: NON_NEGATIVE_INT32,
        count: int(6),
        avgObjSize: NON_NEGATIVE_INT32,
        numOrphanDocs: int(0),
        storageSize: NON_NEGATIVE_INT32,
        freeStorageSize: int(0),
        capped: false,
        nindexes: int(1),
        indexDetails: ['_id_'],
        indexBuilds: [],
        totalIndexSize: NON_NEGATIVE_INT32,
        indexSizes: ['_id_'],
        totalSize: NON_NEGATIVE_INT32,
        scaleFactor: int(1),
        ok: double(1),
      },
    );
  });

  it('should count a thousand documents', async () => {
    await populated(Array.from({ length: 1000 }, (_, _id) => ({ _id })));
    expectDocument(parts(await run(fx.db, { collStats: NAME }), SIZES), {
      fields: {
        ns: `${fx.db.databaseName}.${NAME}`,
        count: int(1000),
        numOrphanDocs: int(0),
        freeStorageSize: int(0),
        capped: false,
        nindexes: int(1),
        indexBuilds: [],
        scaleFactor: int(1),
        ok: double(1),
      },
      sizes: sizeTypes(SIZES),
      indexDetails: ['_id_'],
      indexSizes: ['_id_'],
    });
  });

  it.each<[label: string, scale: unknown, scaleFactor: number]>([
    ['int32 1', 1, 1],
    ['Int64 1000', long(1000), 1000],
    ['the largest Int64', long(2n ** 63n - 1n), 2 ** 31 - 1],
    ['2.8', 2.8, 2],
    ['the largest double', Number.MAX_VALUE, 2 ** 31 - 1],
    ['null', null, 1],
  ])('should scale by %s', async (_label, scale, scaleFactor) => {
    await populated(DOCUMENTS_STRINGS);
    const sizes = [...SIZES, 'freeStorageSize'];
    expectDocument(parts(await run(fx.db, { collStats: NAME, scale }), sizes), {
      fields: {
        ns: `${fx.db.databaseName}.${NAME}`,
        count: int(6),
        numOrphanDocs: int(0),
        capped: false,
        nindexes: int(1),
        indexBuilds: [],
        scaleFactor: int(scaleFactor),
        ok: double(1),
      },
      sizes: sizeTypes(sizes),
      indexDetails: ['_id_'],
      indexSizes: ['_id_'],
    });
  });

  const belowOne = (actual: string): Document => ({
    code: 51024,
    codeName: 'Location51024',
    message: `BSON field 'scale' value must be >= 1, actual value '${actual}'`,
  });
  const wrongScale = (type: string): Document => ({
    code: 14,
    codeName: 'TypeMismatch',
    message: `BSON field 'collStats.scale' is the wrong type '${type}', expected types '[long, int, decimal, double']`,
  });

  it.each<[label: string, scale: unknown, expected: Document]>([
    ['int32 0', 0, belowOne('0')],
    ['int32 -100', -100, belowOne('-100')],
    ['-2.8', -2.8, belowOne('-2')],
    ['the lowest double', -Number.MAX_VALUE, belowOne('-2147483648')],
    ["'1'", '1', wrongScale('string')],
    ['a document', { a: 1 }, wrongScale('object')],
  ])('should refuse a scale of %s', async (_label, scale, expected) => {
    await populated(DOCUMENTS_STRINGS);
    expect(answer(await rejection(fx.db.command({ collStats: NAME, scale })))).toEqual(expected);
  });

  it('should divide sizes by the scale, index by index', async () => {
    await populated(DOCUMENTS_STRINGS);
    expect(await fx.db.collection(NAME).createIndex({ foo: 1, bar: -1 }, { name: 'custom-name' })).toBe('custom-name');
    const scale = 10;
    const INDEXES = ['_id_', 'custom-name'];
    const divided = (value: unknown): unknown =>
      value instanceof Int32 ? int(Math.trunc(value.value / scale)) : `${String(value)} (not an int32)`;
    let actual: Document = {};
    let expected: Document = {};
    // Sizes lag behind writes in mongod's statistics: as the other suite does, try up to ten times.
    for (let attempt = 0; attempt < 10; attempt++) {
      const plain = await run(fx.db, { collStats: NAME });
      const reply = await run(fx.db, { collStats: NAME, scale });
      // wiredTiger is mongod's storage engine's own report.
      const { wiredTiger: _a, ...scaled } = reply;
      const { wiredTiger: _b, ...unscaled } = plain;
      for (const field of ['size', 'storageSize', 'totalSize', 'totalIndexSize']) {
        if (field in unscaled) unscaled[field] = divided(unscaled[field]);
      }
      if (isPlainDocument(unscaled.indexSizes)) {
        unscaled.indexSizes = Object.fromEntries(
          Object.entries(unscaled.indexSizes).map(([index, size]) => [index, divided(size)]),
        );
      }
      actual = {
        scaled: { ...scaled, indexDetails: indexNames(scaled.indexDetails) },
        plain: { indexDetails: indexNames(plain.indexDetails), scaleFactor: plain.scaleFactor },
      };
      expected = {
        scaled: { ...unscaled, indexDetails: INDEXES, scaleFactor: int(scale) },
        plain: { indexDetails: INDEXES, scaleFactor: int(1) },
      };
      if (JSON.stringify(ordered(actual)) === JSON.stringify(ordered(expected))) break;
    }
    expectDocument(actual, expected);
  });
});

describe('dbStats', () => {
  const other = otherDatabases();
  const SIZES = ['avgObjSize', 'dataSize', 'storageSize', 'indexSize', 'totalSize'];
  const FREE = ['freeStorageSize', 'indexFreeStorageSize', 'totalFreeStorageSize'];
  /** Sizes and the file system's figures depend on the host: checked as doubles. */
  const TYPES = Object.fromEntries([...SIZES, ...FREE, 'fsUsedSize', 'fsTotalSize'].map((field) => [field, DOUBLE]));

  let db: Db;
  beforeAll(async () => {
    db = other('stats');
    await db.collection('stats').insertMany(DOCUMENTS_STRINGS as never[]);
  });

  /** The reply of the database of six documents in one collection; `free` adds the free storage sizes. */
  const populated = (scaleFactor: number, free = false): Document => ({
    db: db.databaseName,
    collections: long(1),
    views: long(0),
    objects: long(6),
    avgObjSize: DOUBLE,
    dataSize: DOUBLE,
    storageSize: DOUBLE,
    indexes: long(1),
    indexSize: DOUBLE,
    totalSize: DOUBLE,
    ...(free ? { freeStorageSize: DOUBLE, indexFreeStorageSize: DOUBLE, totalFreeStorageSize: DOUBLE } : {}),
    scaleFactor: long(scaleFactor),
    fsUsedSize: DOUBLE,
    fsTotalSize: DOUBLE,
    ok: double(1),
  });

  /** The exact reply for a database that does not exist. */
  const empty = (name: string, scaleFactor: number): Document => ({
    db: name,
    collections: long(0),
    views: long(0),
    objects: long(0),
    avgObjSize: double(0),
    dataSize: double(0),
    storageSize: double(0),
    indexes: long(0),
    indexSize: double(0),
    totalSize: double(0),
    scaleFactor: long(scaleFactor),
    fsUsedSize: double(0),
    fsTotalSize: double(0),
    ok: double(1),
  });

  it('should answer zeros for a database that does not exist', async () => {
    const none = other('stats_none');
    expectDocument(await run(none, { dbStats: 1 }), empty(none.databaseName, 1));
  });

  it('should answer zeros scaled by a double for a database that does not exist', async () => {
    const none = other('stats_none');
    expectDocument(await run(none, { dbStats: 1, scale: double(1000) }), empty(none.databaseName, 1000));
  });

  it.each<[label: string, extra: Document, scaleFactor: number, free?: boolean]>([
    ['no option', {}, 1],
    ['a scale of int32 1', { scale: 1 }, 1],
    ['a scale of Int64 1000', { scale: long(1000) }, 1000],
    ['a scale of 2.8', { scale: 2.8 }, 2],
    ['a null scale', { scale: null }, 1],
    ['freeStorage: int32 0', { freeStorage: 0 }, 1],
    ['freeStorage: int32 1', { freeStorage: 1 }, 1, true],
    ['freeStorage: int32 -1', { freeStorage: -1 }, 1, true],
    ['freeStorage: true', { freeStorage: true }, 1, true],
    ['freeStorage: false', { freeStorage: false }, 1],
    ['freeStorage: null', { freeStorage: null }, 1],
  ])('should answer with %s', async (_label, extra, scaleFactor, free = false) => {
    expectDocument(normalized(await run(db, { dbStats: 1, ...extra }), TYPES), populated(scaleFactor, free));
  });
});

describe('serverStatus', () => {
  it('should answer the process and catalog fields, with their types', async () => {
    const reply = await run(fx.db, { serverStatus: 1 });
    const FIELDS = ['host', 'version', 'process', 'pid', 'uptime', 'uptimeMillis', 'uptimeEstimate', 'localTime'];
    // The many sections (metrics, locks, wiredTiger…) vary with the host and the build: only these are compared.
    const kept = Object.fromEntries(
      Object.entries(reply).filter(([field]) => [...FIELDS, 'catalogStats', 'ok'].includes(field)),
    );
    const catalog = reply.catalogStats as Document | undefined;
    if (isPlainDocument(catalog)) {
      kept.catalogStats = normalized(
        catalog,
        { collections: INT32, internalCollections: INT32, internalViews: INT32 },
        ['capped', 'csfle', 'queryableEncryption'],
      );
    }
    expectDocument(
      normalized(kept, {
        host: STRING,
        version: STRING,
        process: STRING,
        pid: POSITIVE_LONG,
        uptime: DOUBLE,
        uptimeMillis: POSITIVE_LONG,
        uptimeEstimate: LONG,
        localTime: RECENT_DATE,
      }),
      {
        host: STRING,
        version: STRING,
        process: STRING,
        pid: POSITIVE_LONG,
        uptime: DOUBLE,
        uptimeMillis: POSITIVE_LONG,
        uptimeEstimate: LONG,
        localTime: RECENT_DATE,
        catalogStats: {
          collections: INT32,
          clustered: int(0),
          timeseries: int(0),
          views: int(0),
          internalCollections: INT32,
          internalViews: INT32,
        },
        ok: double(1),
      },
    );
  });
});

describe('killCursors', () => {
  const NAME = 'kill_cursors';

  beforeAll(async () => {
    await (await fx.fresh(NAME)).insertMany(STRINGS as never[]);
  });

  /** A cursor with documents left on the server, and its id. */
  async function open(): Promise<{ cursor: FindCursor; id: Long }> {
    const cursor = fx.db.collection(NAME).find({}, { batchSize: 1 });
    expect(await cursor.next()).not.toBeNull();
    const id = cursor.id;
    if (!(id instanceof Long)) throw new Error('the find left no cursor open');
    return { cursor, id };
  }

  const noCursors = { cursorsKilled: [], cursorsNotFound: [], cursorsAlive: [], cursorsUnknown: [], ok: double(1) };

  /** What the cursor's next getMore answers: a document, or the error's code and codeName. */
  async function next(cursor: FindCursor): Promise<unknown> {
    return cursor.next().then(
      (document) => (document === null ? 'no document' : 'a document'),
      (error: MongoServerError) => ({ code: error.code, codeName: error.codeName }),
    );
  }

  it('should answer four empty lists for no cursor', async () => {
    const { cursor } = await open();
    try {
      expectDocument(await run(fx.db, { killCursors: NAME, cursors: [] }), noCursors);
    } finally {
      await cursor.close();
    }
  });

  it('should kill no cursor when one id is an int32', async () => {
    // The message is asserted in conformance-argument-types.spec.ts.
    const { cursor, id } = await open();
    try {
      const error = await rejection(fx.db.command({ killCursors: NAME, cursors: [id, 100500] }));
      expect({ refused: [error.code, error.codeName], next: await next(cursor) }).toEqual({
        refused: [14, 'TypeMismatch'],
        next: 'a document',
      });
    } finally {
      await cursor.close();
    }
  });

  it.each<[label: string, extra: Long[], notFound: Long[]]>([
    ['a killed cursor, which a getMore then does not find', [], []],
    ['the ids it did not find apart from those it killed', [long(100500)], [long(100500)]],
  ])('should list %s', async (_label, extra, notFound) => {
    const { cursor, id } = await open();
    try {
      const reply = await run(fx.db, { killCursors: NAME, cursors: [id, ...extra] });
      expectDocument(
        { reply, next: await next(cursor) },
        {
          reply: { ...noCursors, cursorsKilled: [id], cursorsNotFound: notFound },
          next: { code: 43, codeName: 'CursorNotFound' },
        },
      );
    } finally {
      await cursor.close().catch(() => undefined);
    }
  });
});
