/**
 * Conformance: the basics and the diagnostic commands, as mongod 7 answers
 * them. Command names are case-sensitive, but for the lowercase aliases the
 * old shell sends (`ismaster`, `buildinfo`, `dbstats`, `findandmodify`); a
 * find of nothing; each value of a data set of scalars and composites found
 * by its `_id` exactly as inserted (BSON types and field order, compared as
 * bytes); an empty field name; NUL bytes in strings, nested arrays, negative
 * zero (inserted, and made by `$mul`), `$`- and dotted field names and
 * infinities stored; comments (the `comment` option and `$comment`) that look
 * like SQL; `create` with valid and invalid collection and database names;
 * `ping` (also on a database that does not exist, which it does not create);
 * `hello` and `isMaster` with client metadata after the handshake; `explain`
 * of a `find` with a mistyped or negative limit or skip or a numeric
 * collection, of a missing collection, and the fields of its reply to `count`
 * and `find`; `hostInfo`'s fields. The cases and answers are those an
 * independent MongoDB-compatible server's integration suite asserts against a
 * real MongoDB; versions, host names, ports, times and sizes are checked by
 * type only. Replies are read with `promoteValues: false`, so an int32, a
 * double and an Int64 stay apart (`ok` is a double in mongod's replies).
 * Written to pass against a real MongoDB 7 (MONGO_URL) too.
 */
import { Binary, BSON, BSONRegExp, type Db, type Document, Int32, ObjectId, Timestamp } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';
import {
  answer,
  decimal,
  double,
  expectDocument,
  int,
  isPlainDocument,
  long,
  ordered,
  RAW,
  run,
} from './raw-replies.fixture.js';

const fx = useDriverFixture();

/** The `_id`/`v` documents of a data set of the other suite; `UNSET` leaves `v` out. */
const UNSET = Symbol('unset');
const documents = (values: Record<string, unknown>): Document[] =>
  Object.entries(values).map(([_id, v]) => (v === UNSET ? { _id } : { _id, v }));

/** A document with its fields in this order even where a field name is a number (a JavaScript object sorts those first). */
const ordering = (...fields: [string, unknown][]): Map<string, unknown> => new Map(fields);

const OBJECT_ID = new ObjectId('000102030405060708091011');
const DATE = new Date('2021-11-01T10:18:42.123Z');
/** 2^61: a double above the integers a double holds exactly. */
const DOUBLE_BIG = 2 ** 61;
/** The int64 range's ends, as doubles, 1100 further out (rounded to the nearest double). */
const DOUBLE_MAX_OVERFLOW = 2 ** 63 + 1100;
const DOUBLE_MIN_OVERFLOW = -(2 ** 63) - 1100;

/** Values of every scalar type (no undefined, DBPointer, JavaScript, symbol, MinKey or MaxKey). */
const SCALARS = documents({
  double: double(42.13),
  'double-whole': double(42),
  'double-zero': double(0),
  'double-max': double(Number.MAX_VALUE),
  'double-smallest': double(Number.MIN_VALUE),
  'double-big': double(DOUBLE_BIG),
  'double-1': double(-(2 ** 63)),
  'double-2': double(-123456789),
  'double-3': double(123456789),
  'double-4': double(2 ** 63),
  'double-5': double(1.7976931348623155e308),
  'double-max-overflow': double(DOUBLE_MAX_OVERFLOW),
  'double-min-overflow': double(DOUBLE_MIN_OVERFLOW),

  string: 'foo',
  'string-double': '42.13',
  'string-whole': '42',
  'string-empty': '',

  binary: new Binary(Buffer.from([42, 0, 13]), 0x80),
  'binary-empty': new Binary(Buffer.alloc(0), 0),

  objectid: OBJECT_ID,
  'objectid-empty': new ObjectId('000000000000000000000000'),

  'bool-false': false,
  'bool-true': true,

  datetime: DATE,
  'datetime-epoch': new Date(0),
  'datetime-year-min': new Date('0000-01-01T00:00:00.000Z'),
  'datetime-year-max': new Date('9999-12-31T23:59:59.999Z'),

  null: null,

  regex: new BSONRegExp('foo', 'i'),
  'regex-empty': new BSONRegExp('', ''),

  int32: int(42),
  'int32-zero': int(0),
  'int32-max': int(2147483647),
  'int32-min': int(-2147483648),
  'int32-1': int(4080),
  'int32-2': int(1048560),
  'int32-3': int(268435440),

  timestamp: new Timestamp({ t: 42, i: 13 }),
  'timestamp-i': new Timestamp({ t: 0, i: 1 }),

  int64: long(42),
  'int64-zero': long(0),
  'int64-max': long(2n ** 63n - 1n),
  'int64-min': long(-(2n ** 63n)),
  'int64-big': long(2n ** 61n),
  'int64-double-big': double(DOUBLE_BIG),
  'int64-1': long(1099511628000),
  'int64-2': long(281474976700000),
  'int64-3': long(72057594040000000n),

  'decimal128-int': decimal('42'),
  'decimal128-int-zero': decimal('0'),
  decimal128: decimal('42.13'),
  'decimal128-whole': decimal('42.0'),
  'decimal128-zero': decimal('0.0'),
  'decimal128-double': decimal('9007199254740991.0'),

  unset: UNSET,
});

/** Documents and arrays. */
const COMPOSITES = documents({
  document: { foo: int(42) },
  'document-composite': ordering(['foo', int(42)], ['42', 'foo'], ['array', [int(42), 'foo', null]]),
  'document-composite-reverse': ordering(['array', [int(42), 'foo', null]], ['42', 'foo'], ['foo', int(42)]),
  'document-composite-numerical-field-name': ordering(['foo', int(42)], ['42', 'foo'], ['array', { 42: int(42) }]),
  'document-null': { foo: null },
  'document-empty': {},

  array: [int(42)],
  'array-two': [double(42.13), 'foo'],
  'array-three': [int(42), 'foo', null],
  'array-three-reverse': [null, 'foo', int(42)],
  'array-empty': [],
  'array-null': [null],
  'array-numbers-asc': [int(42), long(43), double(45.5)],
  'array-strings-desc': ['c', 'b', 'a'],
  'array-documents': [{ field: int(42) }, { field: int(44) }],
  'array-composite': [
    double(42.13),
    'foo',
    new Binary(Buffer.from([42, 0, 13]), 0x80),
    OBJECT_ID,
    true,
    DATE,
    null,
    new BSONRegExp('foo', 'i'),
    int(42),
    new Timestamp({ t: 42, i: 13 }),
    long(41),
  ],
});

/** int32 values. */
const INT32S = documents({
  int32: int(42),
  'int32-zero': int(0),
  'int32-max': int(2147483647),
  'int32-min': int(-2147483648),
  'int32-1': int(4080),
  'int32-2': int(1048560),
  'int32-3': int(268435440),
});

/** Names of the databases listed now. */
async function databaseNames(): Promise<string[]> {
  const reply = await fx.client.db('admin').command({ listDatabases: 1, nameOnly: true });
  return (reply.databases as Document[]).map((entry) => String(entry.name));
}

describe('command names', () => {
  it("should refuse 'listcollections' in lowercase as an unknown command", async () => {
    const error = await rejection(fx.db.command({ listcollections: 1 }));
    expect(answer(error)).toEqual({
      code: 59,
      codeName: 'CommandNotFound',
      message: "no such command: 'listcollections'",
    });
  });

  it.each<[string, Document]>([
    ['listCollections', { listCollections: 1 }],
    ['ismaster', { ismaster: 1 }],
    ['isMaster', { isMaster: 1 }],
    ['buildinfo', { buildinfo: 1 }],
    ['buildInfo', { buildInfo: 1 }],
    ['dbstats', { dbstats: 1 }],
    ['dbStats', { dbStats: 1 }],
    ['findandmodify', { findandmodify: 'basic_case', update: {} }],
    ['findAndModify', { findAndModify: 'basic_case', update: {} }],
  ])('should run %s', async (_label, command) => {
    expect((await fx.db.command(command)).ok).toBe(1);
  });
});

describe('find and insert', () => {
  it('should find nothing in an empty collection', async () => {
    const collection = await fx.fresh('basic_find_nothing');
    expect(await collection.findOne({})).toBeNull();
  });

  describe('each value of the scalar and composite data sets, found by its _id', () => {
    const NAME = 'basic_insert_find';

    beforeAll(async () => {
      await (await fx.fresh(NAME)).insertMany([...SCALARS, ...COMPOSITES]);
    });

    /**
     * Values the embedded server does not give back byte for byte, known gaps kept as failing tests (they pass
     * against a real MongoDB): it stores documents as JavaScript objects, which put field names that are numbers
     * ("42") first, and bson decodes an empty regex pattern into a RegExp whose source is "(?:)".
     */
    const EMBEDDED_GAPS = new Set([
      'regex-empty',
      'document-composite',
      'document-composite-reverse',
      'document-composite-numerical-field-name',
    ]);
    const embedded = !process.env.MONGO_URL;
    const rows = [...SCALARS, ...COMPOSITES].map((doc) => [String(doc._id), doc] as const);

    const asInserted = async (_id: string, expected: Document): Promise<void> => {
      const found = await fx.db
        .collection(NAME)
        .find({ _id } as never, { sort: { _id: 1 }, raw: true })
        .toArray();
      const sent = BSON.serialize(expected);
      const readable = (bytes: Uint8Array): unknown => ordered(BSON.deserialize(bytes, RAW));
      expect(found.map((bytes) => readable(bytes as unknown as Uint8Array))).toStrictEqual([readable(sent)]);
      // Field names that are numbers lose their order in a JavaScript object: the bytes keep it.
      expect(found.map((bytes) => Buffer.from(bytes as unknown as Uint8Array).toString('hex'))).toEqual([
        Buffer.from(sent).toString('hex'),
      ]);
    };

    it.each(rows.filter(([id]) => !embedded || !EMBEDDED_GAPS.has(id)))('should return %s as inserted', asInserted);
    if (embedded) {
      it.failing.each(rows.filter(([id]) => EMBEDDED_GAPS.has(id)))(
        'should return %s as inserted (a known gap of the embedded server)',
        asInserted,
      );
    }
  });

  it('should find a document by its empty field name', async () => {
    const collection = await fx.fresh('basic_empty_key');
    const doc = { _id: 'empty-key', '': 'foo' };
    await collection.insertOne(doc as never);
    expect(await collection.find({ '': 'foo' }).toArray()).toEqual([doc]);
  });

  it('should insert a string holding a NUL byte', async () => {
    const collection = await fx.fresh('basic_nul_string');
    expect(await collection.insertOne({ _id: 'document', a: '\0' } as never)).toMatchObject({
      insertedId: 'document',
    });
  });

  describe('nested arrays', () => {
    const NAME = 'basic_nested_arrays';

    beforeAll(async () => {
      await (await fx.fresh(NAME)).insertMany(SCALARS);
    });

    it('should insert an array of arrays', async () => {
      await expect(fx.db.collection(NAME).insertOne({ foo: [['bar']] })).resolves.toMatchObject({ acknowledged: true });
    });

    it('should $set an array of arrays', async () => {
      await expect(fx.db.collection(NAME).updateOne({}, { $set: { foo: [['bar']] } })).resolves.toMatchObject({
        matchedCount: 1,
      });
    });
  });

  describe('negative zero', () => {
    const NAME = 'basic_negative_zero';

    beforeAll(async () => {
      await fx.fresh(NAME);
    });

    it.each<[string, Document, Document | undefined]>([
      ['inserted', { _id: '1', v: double(-0) }, undefined],
      ['made by $mul of int32 0 by -1.0', { _id: 'zero', v: int(0) }, { $mul: { v: double(-1) } }],
      ['made by $mul of int64 -1 by 0.0', { _id: 'negative', v: long(-1) }, { $mul: { v: double(0) } }],
    ])('should return a double -0 %s', async (_label, insert, update) => {
      const collection = fx.db.collection(NAME);
      await collection.insertOne(insert);
      const filter = { _id: insert._id as string };
      if (update) await collection.updateOne(filter as never, update);
      expectDocument(await collection.findOne(filter as never, RAW), { _id: insert._id, v: double(-0) });
    });
  });

  describe('field names and values stored as they are', () => {
    const NAME = 'basic_document_validation';

    beforeAll(async () => {
      await (await fx.fresh(NAME)).insertMany(SCALARS);
    });

    it.each<[string, Document]>([
      ['a field name starting with $', { $foo: 'bar' }],
      ['a dotted field name', { 'foo.bar': 'baz' }],
      ['Infinity', { foo: Infinity }],
      ['-Infinity', { foo: -Infinity }],
    ])('should insert %s', async (_label, doc) => {
      await expect(fx.db.collection(NAME).insertOne(doc)).resolves.toMatchObject({ acknowledged: true });
    });

    it('should $set a document with a dotted field name', async () => {
      await expect(
        fx.db.collection(NAME).updateOne({}, { $set: { foo: { 'bar.baz': 'qaz' } } }),
      ).resolves.toMatchObject({ matchedCount: 1 });
    });

    it('should $mul an int32 by the largest double, which makes an infinity', async () => {
      const collection = await fx.fresh('basic_produce_infinity');
      await collection.insertOne({ _id: 'number', v: int(42) } as never);
      await expect(
        collection.updateOne({ _id: 'number' } as never, { $mul: { v: double(Number.MAX_VALUE) } }),
      ).resolves.toMatchObject({ matchedCount: 1 });
    });
  });
});

describe('comments that look like SQL', () => {
  /** A comment that would drop the database if a server pasted it into SQL. */
  const comment = (): string => `*/ 1; DROP SCHEMA ${fx.db.databaseName} CASCADE -- `;

  /** A collection holding the scalar data set, fresh for each case (they update and delete). */
  async function scalars(name: string) {
    const collection = await fx.fresh(name);
    await collection.insertMany(SCALARS);
    return collection;
  }

  it.each<[string, (name: string) => Promise<unknown>, Document]>([
    [
      'find with the comment option',
      async (name) => (await scalars(name)).findOne({ _id: 'string' } as never, { comment: comment() }),
      { _id: 'string', v: 'foo' },
    ],
    [
      'find with $comment in the filter',
      async (name) => (await scalars(name)).findOne({ _id: 'string', $comment: comment() } as never),
      { _id: 'string', v: 'foo' },
    ],
    [
      'updateOne with the comment option',
      async (name) =>
        (await scalars(name)).updateOne({ _id: 'string' } as never, { $set: { v: 'bar' } }, { comment: comment() }),
      { matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null },
    ],
    [
      'updateOne with $comment in the filter',
      async (name) =>
        (await scalars(name)).updateOne({ _id: 'string', $comment: comment() } as never, { $set: { v: 'bar' } }),
      { matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null },
    ],
    [
      'deleteOne with the comment option',
      async (name) => (await scalars(name)).deleteOne({ _id: 'string' } as never, { comment: comment() }),
      { deletedCount: 1 },
    ],
    [
      'deleteOne with $comment in the filter',
      async (name) => (await scalars(name)).deleteOne({ _id: 'string', $comment: comment() } as never),
      { deletedCount: 1 },
    ],
  ])('should run %s and keep the database', async (label, operation, expected) => {
    const result = await operation(`basic_comment_${label.replace(/\W+/g, '_')}`);
    expect(result).toMatchObject(expected);
    expect(await databaseNames()).toContain(fx.db.databaseName);
  });
});

describe('create: collection names', () => {
  const created: string[] = [];
  afterAll(async () => {
    for (const name of created) await fx.db.dropCollection(name).catch(() => undefined);
  });

  const TOO_LONG = 'aB'.repeat(150);

  // With the database's name (test_ and 12 hex digits), 235 characters keep the namespace under 255 bytes.
  it.each([
    ['235 characters', 'a'.repeat(235)],
    ['one character', 'a'],
    ['a dash at the end', 'collection_name_with_a-'],
    ['a dash at the beginning', '-collection_name'],
    ['a dot inside', 'collection.name'],
    ['a space', ' '],
    ['non-Latin characters', 'コレクション'],
    ['a number', '1'],
    ['special characters', '+-/*<>=~!@#%^&|`?()[],;:. '],
    ['a capital letter', 'A'],
  ])('should create a collection named with %s, list it and store in it', async (_label, name) => {
    await fx.db.dropCollection(name).catch(() => undefined);
    created.push(name);
    await fx.db.command({ create: name });
    const names = (await fx.db.listCollections({}, { nameOnly: true }).toArray()).map((info) => info.name);
    expect(names).toContain(name);
    const collection = fx.db.collection(name);
    await collection.insertOne({ _id: 'item' } as never);
    expect(await collection.findOne({ _id: 'item' } as never)).toEqual({ _id: 'item' });
  });

  it.each<[string, string, (db: string) => string]>([
    [
      'too long for the namespace',
      TOO_LONG,
      (db) => `Fully qualified namespace is too long. Namespace: ${db}.${TOO_LONG} Max: 255`,
    ],
    ['a dollar sign', 'collection_name_with_a-$', () => 'Invalid collection name: collection_name_with_a-$'],
    ['nothing (empty)', '', (db) => `Invalid namespace specified '${db}.'`],
    ['a NUL byte', '\0', () => 'namespaces cannot have embedded null characters'],
    ['a leading dot', '.collection..', () => "Collection names cannot start with '.': .collection.."],
  ])('should refuse a collection named with %s', async (_label, name, message) => {
    const error = await rejection(fx.db.command({ create: name }));
    expect(answer(error)).toEqual({ code: 73, codeName: 'InvalidNamespace', message: message(fx.db.databaseName) });
  });
});

describe('create: database names', () => {
  const COLLECTION = 'basic_database_names';

  /** A Db for `name`, which the driver refuses when it holds a dot: its commands go to `name` all the same. */
  function database(name: string): Db {
    if (!name.includes('.')) return fx.client.db(name);
    const db = fx.client.db('placeholder');
    (db as unknown as { s: { namespace: { db: string } } }).s.namespace.db = name;
    return db;
  }

  it.each([
    ['dashes', '--'],
    ['underscores', '__'],
    ['a leading digit', '0prefix'],
    ['63 characters', 'a'.repeat(63)],
    ['non-Latin characters', 'データベース'],
  ])('should create a collection in a database named with %s, and drop the database', async (_label, name) => {
    const db = database(name);
    try {
      await expect(db.command({ create: COLLECTION })).resolves.toMatchObject({ ok: 1 });
    } finally {
      await db.dropDatabase();
    }
  });

  it.each<[string, string, string]>([
    ['64 characters', 'a'.repeat(64), 'db name must be at most 63 characters, found: 64'],
    ['a slash', '/', `Invalid namespace specified '/.${COLLECTION}'`],
    ['a backslash', '\\', `Invalid namespace specified '\\.${COLLECTION}'`],
    ['a dollar sign', 'name_with_a-$', `Invalid namespace: name_with_a-$.${COLLECTION}`],
    ['a space', 'data base', `Invalid namespace specified 'data base.${COLLECTION}'`],
    ['a dot', 'database.test', "'.' is an invalid character in a db name: database.test"],
  ])('should refuse a database named with %s', async (_label, name, message) => {
    const error = await rejection(database(name).command({ create: COLLECTION }));
    expect(answer(error)).toEqual({ code: 73, codeName: 'InvalidNamespace', message });
  });
});

describe('ping', () => {
  it('should answer { ok: 1.0 } alone, each of five times', async () => {
    for (let i = 0; i < 5; i++) expectDocument(await run(fx.db, { ping: int(1) }), { ok: double(1) });
  });

  it('should answer { ok: 1.0 } alone on a database that does not exist, and not create it', async () => {
    const name = `${fx.db.databaseName}_ping`;
    const before = await databaseNames();
    const reply = await run(fx.client.db(name), { ping: int(1) });
    expect({ before: before.includes(name), after: (await databaseNames()).includes(name) }).toEqual({
      before: false,
      after: false,
    });
    expectDocument(reply, { ok: double(1) });
  });
});

describe('hello and isMaster after the handshake', () => {
  it.each([
    ['hello', { hello: int(1) }],
    ['isMaster', { isMaster: int(1) }],
  ])('should answer %s without client metadata', async (_label, command) => {
    expect((await fx.db.command(command)).ok).toBe(1);
  });

  it.each([
    ['hello', { hello: int(1), client: { application: 'foobar' } }],
    ['isMaster', { isMaster: int(1), client: { application: 'foobar' } }],
  ])('should refuse %s with client metadata, which only the first hello may send', async (_label, command) => {
    const error = await rejection(fx.db.command(command));
    expect(answer(error)).toEqual({
      code: 186,
      codeName: 'ClientMetadataCannotBeMutated',
      message: 'The client metadata document may only be sent in the first hello',
    });
  });
});

describe('explain', () => {
  const NAME = 'basic_explain';

  beforeAll(async () => {
    await (await fx.fresh(NAME)).insertMany(INT32S);
  });

  it.each<[string, Document, number, string, string]>([
    [
      'a document limit',
      { find: NAME, limit: {} },
      14,
      'TypeMismatch',
      "BSON field 'FindCommandRequest.limit' is the wrong type 'object', expected types '[long, int, decimal, double']",
    ],
    [
      'a negative limit',
      { find: NAME, limit: long(-1) },
      51024,
      'Location51024',
      "BSON field 'limit' value must be >= 0, actual value '-1'",
    ],
    [
      'a document skip',
      { find: NAME, skip: {} },
      14,
      'TypeMismatch',
      "BSON field 'FindCommandRequest.skip' is the wrong type 'object', expected types '[long, int, decimal, double']",
    ],
    [
      'a negative skip',
      { find: NAME, skip: long(-1) },
      51024,
      'Location51024',
      "BSON field 'skip' value must be >= 0, actual value '-1'",
    ],
    // A numeric collection is left out: the other suite's answer (73 "Failed to parse namespace element") is
    // mongod's with authentication on; without it, mongod names the type (conformance-count-distinct-errors).
  ])('should refuse a find with %s', async (_label, find, code, codeName, message) => {
    const error = await rejection(fx.db.command({ explain: find }));
    expect(answer(error)).toEqual({ code, codeName, message });
  });

  it.each([
    ['a collection that does not exist', { find: 'non-existent' }],
    ['an int32 limit', { find: NAME, limit: int(1) }],
  ])('should explain a find of %s', async (_label, find) => {
    const reply = await fx.db.command({ explain: find });
    expect(reply.ok).toBe(1);
  });

  /** The reply with what depends on the host replaced by its type's placeholder (kept when of another type). */
  function comparable(reply: Document): Document {
    const result: Document = {};
    for (const [field, value] of Object.entries(reply)) {
      if (field === 'serverParameters' || field === 'executionStats') continue;
      if (field === 'explainVersion') result[field] = value === '1' || value === '2' ? '1 or 2' : value;
      else if (field === 'queryPlanner') {
        result[field] = isPlainDocument(value) && Object.keys(value).length > 0 ? 'a non-empty document' : value;
      } else if (field === 'serverInfo' && isPlainDocument(value)) {
        const info: Document = {};
        for (const [key, item] of Object.entries(value)) {
          const string = typeof item === 'string' && item.length > 0;
          if (key === 'port') info[key] = item instanceof Int32 ? 'an int32' : item;
          else if (key === 'host' || key === 'version' || key === 'gitVersion') {
            info[key] = string ? 'a non-empty string' : item;
          } else info[key] = item;
        }
        result[field] = info;
      } else result[field] = value;
    }
    return result;
  }

  it.each<[string, () => Document, () => Document]>([
    ['count', () => ({ count: NAME }), () => ({ count: NAME, $db: fx.db.databaseName })],
    [
      'find',
      () => ({ find: NAME, filter: { v: { $gt: int(0) } } }),
      () => ({ find: NAME, filter: { v: { $gt: int(0) } }, $db: fx.db.databaseName }),
    ],
  ])('should answer the fields of mongod for %s', async (_label, query, command) => {
    expectDocument(comparable(await run(fx.db, { explain: query() })), {
      explainVersion: '1 or 2',
      queryPlanner: 'a non-empty document',
      command: command(),
      serverInfo: {
        host: 'a non-empty string',
        port: 'an int32',
        version: 'a non-empty string',
        gitVersion: 'a non-empty string',
      },
      ok: double(1),
    });
  });
});

describe('hostInfo', () => {
  /** Fields of `system` the other suite leaves out of its comparison. */
  const UNCOMPARED = ['numPhysicalCores', 'numCpuSockets', 'numNumaNodes', 'numaEnabled', 'memSizeMB', 'memLimitMB'];

  it("should answer system, os and extra with mongod's fields and types", async () => {
    const reply = await run(fx.db, { hostInfo: 42 });
    const typed = (document: unknown, types: Record<string, string>, omit: string[] = []): unknown => {
      if (!isPlainDocument(document)) return document;
      const fits: Record<string, (v: unknown) => boolean> = {
        date: (v) => v instanceof Date,
        string: (v) => typeof v === 'string',
        int32: (v) => v instanceof Int32,
      };
      return Object.fromEntries(
        Object.entries(document)
          .filter(([field]) => !omit.includes(field))
          .map(([field, value]) => {
            const type = types[field];
            return [field, type !== undefined && fits[type](value) ? type : value];
          }),
      );
    };
    expectDocument(
      {
        ...reply,
        system: typed(
          reply.system,
          { currentTime: 'date', hostname: 'string', cpuAddrSize: 'int32', numCores: 'int32', cpuArch: 'string' },
          UNCOMPARED,
        ),
        os: typed(reply.os, { type: 'string', name: 'string', version: 'string' }),
        extra: isPlainDocument(reply.extra) ? 'a document' : reply.extra,
      },
      {
        system: { currentTime: 'date', hostname: 'string', cpuAddrSize: 'int32', numCores: 'int32', cpuArch: 'string' },
        os: { type: 'string', name: 'string', version: 'string' },
        extra: 'a document',
        ok: double(1),
      },
    );
  });
});
