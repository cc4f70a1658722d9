/**
 * Conformance: the `$collStats` aggregation stage (`count`, `storageStats`
 * with and without `scale`, sizes divided by the scale index by index, its
 * errors: a database or collection that does not exist, a null
 * specification, a scale below 1 or of the wrong type, a position other than
 * the first), `dbStats` refusing a `scale` below 1 or of the wrong type, and
 * the session commands the embedded server has: `endSessions` (of sessions
 * known or not, several at once, leaving the cursors of an ended session
 * usable, a non-array argument) and `killAllSessions` (of a user with no
 * sessions, of everyone with `[]`, its IDL errors), with the checks every
 * command makes of its `lsid`. The cases and answers are those an
 * independent MongoDB-compatible server's integration suite asserts against
 * a real MongoDB; what depends on the host (sizes, host name, time) is
 * checked by type, or as the other suite does by being positive. Replies are
 * read with `promoteValues: false`, so an int32, a double and an Int64 stay
 * apart (`ok` is a double in mongod's replies). Written for a server without
 * authentication; passes against a real MongoDB 7 (MONGO_URL) too.
 */
import { type ClientSession, type Db, type Document, Binary, Int32, Long, type MongoServerError, UUID } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';
import {
  answer,
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

/** Whether the suite runs on the embedded server (no MONGO_URL), where some answers are known to differ. */
const embedded = !process.env.MONGO_URL;

/** A placeholder for a value checked by type only: the type's name, which {@link checked} puts in its place. */
const POSITIVE_INT32 = '<int32 > 0>';
const HOST_PORT = '<host:port>';
const DATE = '<date>';
const ANY = '<any value>';
const NON_EMPTY_DOCUMENT = '<non-empty document>';
const ARRAY = '<array>';
const POSITIVE_SIZES = '<non-empty document of int32 > 0>';
const CURSOR_ID = '<non-zero int64>';

const positiveInt32 = (v: unknown): boolean => v instanceof Int32 && v.value > 0;

/** `value` replaced by `placeholder` when it is of the type the placeholder names; left as it is otherwise. */
function checked(value: unknown, placeholder: string): unknown {
  const fits: Record<string, (v: unknown) => boolean> = {
    [POSITIVE_INT32]: positiveInt32,
    // A host and a port, as Go's net.SplitHostPort reads them (an IPv6 host in brackets), the port not empty.
    [HOST_PORT]: (v) => typeof v === 'string' && /^(\[[^\]]*\]|[^:[\]]*):[^:]+$/.test(v),
    [DATE]: (v) => v instanceof Date,
    [ANY]: () => true,
    [NON_EMPTY_DOCUMENT]: (v) => isPlainDocument(v) && Object.keys(v).length > 0,
    [ARRAY]: Array.isArray,
    [POSITIVE_SIZES]: (v) =>
      isPlainDocument(v) && Object.keys(v).length > 0 && Object.values(v).every((size) => positiveInt32(size)),
    [CURSOR_ID]: (v) => v instanceof Long && !v.isZero(),
  };
  return fits[placeholder](value) ? placeholder : value;
}

/** Two documents whose `_id`s are 'a' and 'b', which the session cases page through one at a time. */
const AB = [{ _id: 'a' }, { _id: 'b' }];

describe('$collStats', () => {
  const NAME = 'coll_stats';

  /** Four documents holding arrays of documents (the other suite's data set). */
  const ARRAY_DOCUMENTS = [
    { _id: 'array-documents-nested', v: [{ foo: [{ bar: 'hello' }, { bar: 'world' }] }] },
    { _id: 'array-documents-nested-duplicate', v: [{ foo: [{ bar: 'hello' }, { bar: 'world' }] }] },
    { _id: 'array-two-documents', v: [{ foo: [{ bar: 'hello' }] }, { foo: [{ bar: 'hello' }] }] },
    {
      _id: 'array-three-documents',
      v: [{ bar: [{ a: 'b' }] }, { foo: [{ bar: 'hello' }] }, { foo: [{ bar: 'hello' }] }],
    },
  ];

  beforeAll(async () => {
    await (await fx.fresh(NAME)).insertMany(ARRAY_DOCUMENTS as never[]);
  });

  /**
   * A `storageStats` document as the other suite compares it: the sizes and counts positive int32s (`size`
   * exactly 0 when the scale leaves nothing of it), `freeStorageSize` present with any value, the
   * `indexDetails` of some index, `indexBuilds` an array, each index size a positive int32, mongod's own
   * `wiredTiger` section left out.
   */
  function comparableStorageStats(stats: unknown, sizeIsZero: boolean): unknown {
    if (!isPlainDocument(stats)) return stats;
    const types: Record<string, string> = {
      count: POSITIVE_INT32,
      avgObjSize: POSITIVE_INT32,
      storageSize: POSITIVE_INT32,
      nindexes: POSITIVE_INT32,
      totalIndexSize: POSITIVE_INT32,
      totalSize: POSITIVE_INT32,
      freeStorageSize: ANY,
      indexDetails: NON_EMPTY_DOCUMENT,
      indexBuilds: ARRAY,
      indexSizes: POSITIVE_SIZES,
    };
    if (!sizeIsZero) types.size = POSITIVE_INT32;
    return Object.fromEntries(
      Object.entries(stats)
        .filter(([field]) => field !== 'wiredTiger')
        .map(([field, value]) => [field, field in types ? checked(value, types[field]) : value]),
    );
  }

  /** The stage's document with `host` (a host and port) and `localTime` (a date) checked by type. */
  function comparable(doc: Document, sizeIsZero: boolean): Document {
    return Object.fromEntries(
      Object.entries(doc).map(([field, value]) => {
        if (field === 'host') return [field, checked(value, HOST_PORT)];
        if (field === 'localTime') return [field, checked(value, DATE)];
        if (field === 'storageStats') return [field, comparableStorageStats(value, sizeIsZero)];
        return [field, value];
      }),
    );
  }

  /** The `storageStats` the other suite expects, with the int32 `scaleFactor` mongod answers. */
  const storage = (scaleFactor: number, sizeIsZero = false): Document => ({
    size: sizeIsZero ? int(0) : POSITIVE_INT32,
    count: POSITIVE_INT32,
    avgObjSize: POSITIVE_INT32,
    numOrphanDocs: int(0),
    storageSize: POSITIVE_INT32,
    freeStorageSize: ANY,
    capped: false,
    nindexes: POSITIVE_INT32,
    indexDetails: NON_EMPTY_DOCUMENT,
    indexBuilds: ARRAY,
    totalIndexSize: POSITIVE_INT32,
    indexSizes: POSITIVE_SIZES,
    totalSize: POSITIVE_INT32,
    scaleFactor: int(scaleFactor),
  });

  /**
   * Cases whose storage figures the embedded server does not have, known gaps kept as failing tests (they pass
   * against a real MongoDB): it keeps no index structures on disk, so its index sizes are 0, and its storage
   * size is the data's size, 0 at a scale of 1000 where mongod's files take some kilobytes.
   */
  const STORAGE_GAPS = new Set([
    'storageStats with a scaleFactor of 1',
    'storageStats with a scale of int32 1000, scaling the size to 0',
    'storageStats with a scale of 42.42 as a scaleFactor of 42',
    'count and storageStats, storageStats first',
  ]);

  // The other suite runs `validate` on the collection first, to bring mongod's statistics up to date; left out
  // here (the embedded server has no validate), as mongod keeps these counts and sizes current as it writes.
  const cases: [label: string, spec: Document, fields: Document][] = [
    ['{} with ns, host and localTime alone', {}, {}],
    ['count with the number of documents as an int32', { count: {} }, { count: int(4) }],
    ['storageStats with a scaleFactor of 1', { storageStats: {} }, { storageStats: storage(1) }],
    [
      'storageStats with a scale of int32 1000, scaling the size to 0',
      { storageStats: { scale: 1000 } },
      { storageStats: storage(1000, true) },
    ],
    [
      'storageStats with a scale of 42.42 as a scaleFactor of 42',
      { storageStats: { scale: 42.42 } },
      { storageStats: storage(42) },
    ],
    [
      'count and storageStats, storageStats first',
      { count: {}, storageStats: {} },
      { storageStats: storage(1), count: int(4) },
    ],
  ];

  const answers = async (_label: string, spec: Document, fields: Document): Promise<void> => {
    // The size is checked to be 0 where the case expects it so, positive otherwise.
    const sizeIsZero = ((fields.storageStats ?? {}) as Document).size instanceof Int32;
    const docs = await fx.db
      .collection(NAME)
      .aggregate([{ $collStats: spec }], RAW)
      .toArray();
    expectDocument(
      docs.map((doc) => comparable(doc, sizeIsZero)),
      [{ ns: `${fx.db.databaseName}.${NAME}`, host: HOST_PORT, localTime: DATE, ...fields }],
    );
  };

  it.each(cases.filter(([label]) => !embedded || !STORAGE_GAPS.has(label)))('should answer %s', answers);
  if (embedded) {
    it.failing.each(cases.filter(([label]) => STORAGE_GAPS.has(label)))(
      'should answer %s (a known gap of the embedded server)',
      answers,
    );
  }

  it('should pass one document on to the next stage', async () => {
    const docs = await fx.db
      .collection(NAME)
      .aggregate([{ $collStats: { count: {}, storageStats: {} } }, { $count: 'after' }], RAW)
      .toArray();
    expectDocument(docs, [{ after: int(1) }]);
  });

  it('should divide the sizes by the scale, index by index, and nothing else', async () => {
    const INDEX_SIZES = 'coll_stats_index_sizes';
    // Six documents whose `v` are documents holding strings (one is null, one empty): the other suite's data set.
    await (
      await fx.fresh(INDEX_SIZES)
    ).insertMany([
      { _id: 'document-string', v: { v: 'foo' } },
      { _id: 'document-string-double', v: { v: '42.13' } },
      { _id: 'document-string-whole', v: { v: '42' } },
      { _id: 'document-string-empty-str', v: { v: '' } },
      { _id: 'document-string-empty', v: {} },
      { _id: 'document-string-nil', v: null },
    ] as never[]);
    const scale = 1000;
    const stats = (spec: Document): Promise<Document[]> =>
      fx.db
        .collection(INDEX_SIZES)
        .aggregate([{ $collStats: { storageStats: spec } }], RAW)
        .toArray();
    const divided = (value: unknown): unknown =>
      value instanceof Int32 ? int(Math.trunc(value.value / scale)) : `${String(value)} (not an int32)`;
    /** The document without its localTime (checked to be a date apart), all else compared. */
    const withoutTime = (doc: Document | undefined): Document => {
      const { localTime: _time, ...rest } = doc ?? {};
      return rest;
    };
    let actual: unknown;
    let expected: unknown;
    // Sizes lag behind writes in mongod's statistics: try up to ten times.
    for (let attempt = 0; attempt < 10; attempt++) {
      const plain = await stats({});
      const scaled = await stats({ scale });
      const plainDoc = withoutTime(plain[0]);
      // Everything else is the same, mongod's own wiredTiger section too (its figures are not scaled).
      const unscaled = { ...((plainDoc.storageStats ?? {}) as Document) };
      for (const field of ['size', 'storageSize', 'freeStorageSize', 'totalIndexSize', 'totalSize']) {
        if (field in unscaled) unscaled[field] = divided(unscaled[field]);
      }
      if (isPlainDocument(unscaled.indexSizes)) {
        unscaled.indexSizes = Object.fromEntries(
          Object.entries(unscaled.indexSizes).map(([index, size]) => [index, divided(size)]),
        );
      }
      actual = {
        counts: [plain.length, scaled.length],
        localTimes: [plain[0]?.localTime instanceof Date, scaled[0]?.localTime instanceof Date],
        plainScaleFactor: ((plainDoc.storageStats ?? {}) as Document).scaleFactor,
        scaled: withoutTime(scaled[0]),
      };
      expected = {
        counts: [1, 1],
        localTimes: [true, true],
        plainScaleFactor: int(1),
        scaled: { ...plainDoc, storageStats: { ...unscaled, scaleFactor: int(scale) } },
      };
      if (JSON.stringify(ordered(actual)) === JSON.stringify(ordered(expected))) break;
    }
    expectDocument(actual, expected);
  });

  /** A case; `suffix` names a database of its own (the fixture's name and the suffix), null for the fixture's. */
  type ErrorCase = [label: string, command: Document, expected: (db: string) => Document, suffix: string | null];

  const MISSING = 'coll_stats_never_created';
  const storageStatsOf = (collection: string): Document => ({
    aggregate: collection,
    pipeline: [{ $collStats: { storageStats: {} } }],
    cursor: {},
  });
  const notFound = (ns: string): Document => ({
    code: 26,
    codeName: 'NamespaceNotFound',
    message:
      'PlanExecutor error during aggregation :: caused by :: ' +
      'Unable to retrieve storageStats in $collStats stage :: caused by :: ' +
      `Collection [${ns}] not found.`,
  });

  it.each<ErrorCase>([
    [
      'storageStats in a database that does not exist',
      storageStatsOf(MISSING),
      (db) => notFound(`${db}.${MISSING}`),
      '_none',
    ],
    [
      'storageStats of a collection that does not exist',
      storageStatsOf('non-existent'),
      (db) => notFound(`${db}.non-existent`),
      null,
    ],
    [
      'a null specification',
      { aggregate: MISSING, pipeline: [{ $collStats: null }], cursor: {} },
      () => ({
        code: 5447000,
        codeName: 'Location5447000',
        message: '$collStats must take a nested object but found: $collStats: null',
      }),
      null,
    ],
    [
      'a storageStats scale of int32 -1000',
      { aggregate: MISSING, pipeline: [{ $collStats: { storageStats: { scale: -1000 } } }], cursor: {} },
      () => ({
        code: 51024,
        codeName: 'Location51024',
        message: "BSON field 'scale' value must be >= 1, actual value '-1000'",
      }),
      null,
    ],
    [
      "a storageStats scale of 'invalid'",
      { aggregate: MISSING, pipeline: [{ $collStats: { storageStats: { scale: 'invalid' } } }], cursor: {} },
      () => ({
        code: 14,
        codeName: 'TypeMismatch',
        message:
          "BSON field '$collStats.storageStats.scale' is the wrong type 'string', expected types '[long, int, decimal, double']",
      }),
      null,
    ],
    [
      '$collStats after a $count',
      {
        aggregate: MISSING,
        pipeline: [{ $count: 'before' }, { $collStats: { count: {}, storageStats: {} } }, { $count: 'after' }],
        cursor: {},
      },
      () => ({
        code: 40602,
        codeName: 'Location40602',
        message: '$collStats is only valid as the first stage in a pipeline',
      }),
      null,
    ],
  ])('should refuse %s', async (_label, command, expected, suffix) => {
    // A database of its own, which nothing creates, when the case names one.
    const db = suffix === null ? fx.db : fx.client.db(`${fx.db.databaseName}${suffix}`);
    expect(answer(await rejection(db.command(command)))).toEqual(expected(db.databaseName));
  });
});

describe('dbStats scale', () => {
  const belowOne = { code: 2, codeName: 'BadValue', message: 'Scale factor must be greater than zero' };
  const wrongType = (type: string): Document => ({
    code: 14,
    codeName: 'TypeMismatch',
    message: `BSON field 'dbStats.scale' is the wrong type '${type}', expected types '[long, int, decimal, double']`,
  });

  it.each<[label: string, scale: unknown, expected: Document]>([
    ['int32 0', 0, belowOne],
    ['int32 -100', -100, belowOne],
    ['the lowest double', -Number.MAX_VALUE, belowOne],
    ["the string '1'", '1', wrongType('string')],
    ['a document', { a: 1 }, wrongType('object')],
  ])('should refuse a scale of %s', async (_label, scale, expected) => {
    expect(answer(await rejection(fx.db.command({ dbStats: 1, scale })))).toEqual(expected);
  });
});

describe('sessions', () => {
  const NAME = 'sessions';

  beforeAll(async () => {
    await (await fx.fresh(NAME)).insertMany(AB.map((doc) => ({ ...doc })) as never[]);
  });

  let sessions: ClientSession[] = [];
  afterEach(async () => {
    await Promise.all(sessions.map((session) => session.endSession()));
    sessions = [];
  });

  /**
   * A session the server knows, used once. The other suite starts its sessions with the `startSession`
   * command; the driver makes up the id of its own, which the server takes on the session's first command.
   */
  async function startSession(): Promise<ClientSession> {
    const session = fx.client.startSession();
    sessions.push(session);
    await fx.db.collection(NAME).findOne({}, { session });
    return session;
  }

  /** The session's `{ id }` as the session commands take it. */
  const lsid = (session: ClientSession): Document => ({ id: session.id!.id });

  /** A find of one document per batch in `session`, its reply as the other suite expects it; the cursor's id. */
  async function find(session: ClientSession): Promise<Long> {
    const reply = await run(fx.db, { find: NAME, batchSize: 1 }, session);
    const cursor = (reply.cursor ?? {}) as Document;
    expectDocument(
      { ...reply, cursor: { ...cursor, id: checked(cursor.id, CURSOR_ID) } },
      { cursor: { firstBatch: [AB[0]], id: CURSOR_ID, ns: `${fx.db.databaseName}.${NAME}` }, ok: double(1) },
    );
    return cursor.id as Long;
  }

  /** The reply of a getMore of the cursor `id` in `session`: the rest, or the error's code, codeName and message. */
  function getMore(id: Long, session: ClientSession): Promise<Document> {
    return run(fx.db, { getMore: id, collection: NAME }, session).catch((error: MongoServerError) => answer(error));
  }

  /** What a getMore of the cursor answers while it is open: the last document, and cursor id 0. */
  const rest = (): Document => ({
    cursor: { nextBatch: [AB[1]], id: long(0), ns: `${fx.db.databaseName}.${NAME}` },
    ok: double(1),
  });
  const cursorNotFound = (id: Long): Document => ({
    code: 43,
    codeName: 'CursorNotFound',
    message: `cursor id ${id.toString()} not found`,
  });

  const OK = { ok: double(1) };
  const randomLsid = (): Document => ({ id: new UUID() });

  describe('endSessions', () => {
    it.each<[label: string, lsids: () => Promise<Document[]>]>([
      ['one session', async () => [lsid(await startSession())]],
      ['a session the server never saw', () => Promise.resolve([randomLsid()])],
      ['two sessions', async () => [lsid(await startSession()), lsid(await startSession())]],
    ])('should answer { ok: 1 } alone for %s', async (_label, lsids) => {
      expectDocument(await run(fx.db, { endSessions: await lsids() }), OK);
    });

    // mongod closes an ended session's cursors at its next session refresh (every 5 minutes); the embedded
    // server closes them at once, on purpose (cursor-timeout.spec.ts), so that a test sees no cursor outlive
    // its session.
    it('should leave the cursor of an ended session open until the refresh (closed at once when embedded)', async () => {
      const session = await startSession();
      const id = await find(session);
      const ended = await run(fx.db, { endSessions: [lsid(session)] });
      const next = await getMore(id, session);
      expectDocument({ ended, next }, { ended: OK, next: embedded ? cursorNotFound(id) : rest() });
    });

    it('should refuse a string', async () => {
      expect(answer(await rejection(fx.db.command({ endSessions: 'invalid' })))).toEqual({
        code: 14,
        codeName: 'TypeMismatch',
        message: "BSON field 'endSessions.endSessions' is the wrong type 'string', expected type 'array'",
      });
    });
  });

  describe('killAllSessions', () => {
    const admin = (): Db => fx.client.db('admin');

    it('should answer { ok: 1 } alone for a user that does not exist', async () => {
      expectDocument(await run(admin(), { killAllSessions: [{ db: 'admin', user: 'nonexistent' }] }), OK);
    });

    it("should close every session's cursors for []", async () => {
      const [first, second] = [await startSession(), await startSession()];
      const [firstId, secondId] = [await find(first), await find(second)];
      const killed = await run(admin(), { killAllSessions: [] });
      expectDocument(
        { killed, first: await getMore(firstId, first), second: await getMore(secondId, second) },
        { killed: OK, first: cursorNotFound(firstId), second: cursorNotFound(secondId) },
      );
    });

    const FIELD = 'KillAllSessionsCmd.killAllSessions';
    it.each<[label: string, users: unknown, code: number, message: string]>([
      ['a string', 'invalid', 14, `BSON field '${FIELD}' is the wrong type 'string', expected type 'array'`],
      ['a string user', ['invalid'], 14, `BSON field '${FIELD}.0' is the wrong type 'string', expected type 'object'`],
      ['a user without db', [{ user: 'foo' }], 40414, `BSON field '${FIELD}.db' is missing but a required field`],
      [
        'a boolean db',
        [{ db: true, user: 'foo' }],
        14,
        `BSON field '${FIELD}.db' is the wrong type 'bool', expected type 'string'`,
      ],
      ['a user without user', [{ db: 'bar' }], 40414, `BSON field '${FIELD}.user' is missing but a required field`],
      [
        'a boolean user',
        [{ db: 'bar', user: false }],
        14,
        `BSON field '${FIELD}.user' is the wrong type 'bool', expected type 'string'`,
      ],
    ])('should refuse %s', async (_label, users, code, message) => {
      const expected = { code, codeName: code === 14 ? 'TypeMismatch' : `Location${code}`, message };
      expect(answer(await rejection(admin().command({ killAllSessions: users })))).toEqual(expected);
    });
  });

  describe('the lsid of a command', () => {
    /**
     * `command`'s answer when its `lsid` is `value`. The driver sends the id of the session a command runs in
     * over any `lsid` of the command: the command runs in a session of its own whose server session carries
     * `value` as its id (its own id back once the command is answered), marked dirty so that the driver drops
     * it rather than use it again.
     */
    async function withLsid(value: unknown, command: Document): Promise<Document> {
      const session = fx.client.startSession();
      const server = session.serverSession;
      const own = server.id;
      server.id = value as typeof own;
      server.isDirty = true;
      try {
        return await fx.db.command(command, { ...RAW, session });
      } catch (error) {
        return answer(error as MongoServerError);
      } finally {
        server.id = own;
        await session.endSession();
      }
    }

    const LSID = 'OperationSessionInfo.lsid';
    it.each<[label: string, value: unknown, code: number, message: string]>([
      ['a string', 'invalid', 14, `BSON field '${LSID}' is the wrong type 'string', expected type 'object'`],
      ['{}', {}, 40414, `BSON field '${LSID}.id' is missing but a required field`],
      [
        'a string id',
        { id: 'invalid' },
        14,
        `BSON field '${LSID}.id' is the wrong type 'string', expected type 'binData'`,
      ],
      [
        'an empty function binData id',
        { id: new Binary(new Uint8Array(0), Binary.SUBTYPE_FUNCTION) },
        14,
        `BSON field '${LSID}.id' is the wrong binData type 'function', expected type 'UUID'`,
      ],
      [
        'an empty UUID binData id',
        { id: new Binary(new Uint8Array(0), Binary.SUBTYPE_UUID) },
        207,
        'uuid must be a 16-byte binary field with UUID (4) subtype',
      ],
    ])('should refuse a find whose lsid is %s', async (_label, value, code, message) => {
      const codeName = code === 14 ? 'TypeMismatch' : code === 207 ? 'InvalidUUID' : `Location${code}`;
      expect(await withLsid(value, { find: NAME })).toEqual({ code, codeName, message });
    });

    it('should refuse a killCursors whose lsid has a string id, leaving the cursor open', async () => {
      const session = await startSession();
      const id = await find(session);
      const refused = await withLsid({ id: 'invalid' }, { killCursors: NAME, cursors: [id] });
      expectDocument(
        { refused, next: await getMore(id, session) },
        {
          refused: {
            code: 14,
            codeName: 'TypeMismatch',
            message: `BSON field '${LSID}.id' is the wrong type 'string', expected type 'binData'`,
          },
          next: rest(),
        },
      );
    });
  });
});
