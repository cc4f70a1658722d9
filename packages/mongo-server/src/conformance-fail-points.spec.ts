/**
 * Conformance: the `failCommand` fail point (`configureFailPoint` on the
 * admin database), driven only through the driver. Against a real MongoDB
 * (MONGO_URL) it needs `enableTestCommands=1`; without test commands the
 * suite reports itself skipped, never passed.
 */
import {
  type Collection,
  type CommandStartedEvent,
  MongoClient,
  type MongoClientOptions,
  type MongoServerError,
} from 'mongodb';

import { POLLING_MONITOR, rejection, useDriverFixture } from './conformance.fixture.js';
import { supportsFailPoints } from './supports-fail-points.js';

const fx = useDriverFixture({ transactions: true });

// Probed once up front so that `describe.skip` can be chosen (the embedded server always has it).
const failPoints = await supportsFailPoints();

const admin = () => fx.client.db('admin');
const arm = (mode: unknown, data: object) => admin().command({ configureFailPoint: 'failCommand', mode, data });

/** Extra clients (own options, command monitoring), closed after each test. */
const extraClients: MongoClient[] = [];
async function client(options: MongoClientOptions = {}): Promise<{ client: MongoClient; started: string[] }> {
  const started: string[] = [];
  const extra = new MongoClient(fx.mongo.uri, { monitorCommands: true, ...options });
  extra.on('commandStarted', (event: CommandStartedEvent) => started.push(event.commandName));
  extraClients.push(extra);
  return { client: await extra.connect(), started };
}

(failPoints ? describe : describe.skip)('failCommand fail point', () => {
  let c: Collection;
  beforeEach(async () => {
    c = await fx.fresh('fail_points');
  });
  afterEach(async () => {
    await admin().command({ configureFailPoint: 'failCommand', mode: 'off' });
    await Promise.all(extraClients.splice(0).map((extra) => extra.close()));
  });

  it('fails the listed command with errorCode, without running it, for `times` commands', async () => {
    await arm({ times: 2 }, { failCommands: ['findAndModify'], errorCode: 11000 });
    const upsert = () => c.findOneAndUpdate({ _id: 'x' as never }, { $inc: { n: 1 } }, { upsert: true });
    const expected = {
      code: 11000,
      codeName: 'DuplicateKey',
      errmsg: "Failing command via 'failCommand' failpoint",
    };
    await expect(upsert()).rejects.toMatchObject(expected);
    // Commands not listed neither fail nor count down.
    expect(await c.countDocuments()).toBe(0);
    await expect(upsert()).rejects.toMatchObject(expected);
    await upsert();
    expect(await c.findOne({ _id: 'x' as never })).toEqual({ _id: 'x', n: 1 });
  });

  it('skips the first N matching commands in `skip` mode, then stays on until turned off', async () => {
    await arm({ skip: 1 }, { failCommands: ['insert'], errorCode: 2 });
    await c.insertOne({ _id: 1 } as never);
    await expect(c.insertOne({ _id: 2 } as never)).rejects.toMatchObject({ code: 2, codeName: 'BadValue' });
    await expect(c.insertOne({ _id: 3 } as never)).rejects.toMatchObject({ code: 2 });
    await admin().command({ configureFailPoint: 'failCommand', mode: 'off' });
    await c.insertOne({ _id: 4 } as never);
    expect((await c.find().toArray()).map((d) => d._id)).toEqual([1, 4]);
  });

  it('returns the given errorLabels, and never fails configureFailPoint itself', async () => {
    await arm('alwaysOn', {
      failCommands: ['ping', 'configureFailPoint'],
      errorCode: 50,
      errorLabels: ['SomeLabel'],
    });
    const error: unknown = await admin()
      .command({ ping: 1 })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
    expect((error as { errorLabels: string[] }).errorLabels).toEqual(['SomeLabel']);
    await admin().command({ configureFailPoint: 'failCommand', mode: 'off' });
    await expect(admin().command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
  });

  it('labels a retryable error RetryableWriteError itself, so the driver retries the write once', async () => {
    // PrimarySteppedDown marks the server Unknown: see POLLING_MONITOR.
    const { client: retrying, started } = await client(POLLING_MONITOR);
    await arm({ times: 1 }, { failCommands: ['insert'], errorCode: 189 });
    await retrying
      .db(fx.db.databaseName)
      .collection(c.collectionName)
      .insertOne({ _id: 'r' } as never);
    expect(started.filter((name) => name === 'insert')).toHaveLength(2);
    expect(await c.find().toArray()).toEqual([{ _id: 'r' }]);
  });

  it('closes the connection instead of replying with closeConnection', async () => {
    const { client: noRetry } = await client({ retryReads: false });
    const coll = noRetry.db(fx.db.databaseName).collection(c.collectionName);
    await arm({ times: 1 }, { failCommands: ['find'], closeConnection: true });
    await expect(coll.findOne({})).rejects.toMatchObject({ name: 'MongoNetworkError' });
    await expect(coll.findOne({})).resolves.toBeNull();
  });

  it('fails only the connections of the given appName', async () => {
    const { client: named } = await client({ appName: 'fail-me' });
    await arm('alwaysOn', { failCommands: ['count', 'aggregate'], errorCode: 8, appName: 'fail-me' });
    expect(await c.countDocuments()).toBe(0);
    await expect(named.db(fx.db.databaseName).collection(c.collectionName).countDocuments()).rejects.toMatchObject({
      code: 8,
      codeName: 'UnknownError',
    });
  });

  it('delays the reply with blockConnection, without holding up other connections', async () => {
    const { client: blocked } = await client({ appName: 'slow' });
    await arm({ times: 1 }, { failCommands: ['find'], blockConnection: true, blockTimeMS: 300, appName: 'slow' });
    const start = Date.now();
    const slow = blocked
      .db(fx.db.databaseName)
      .collection(c.collectionName)
      .findOne({})
      .then(() => Date.now() - start);
    await c.insertOne({ _id: 'meanwhile' } as never);
    const other = Date.now() - start;
    const elapsed = await slow;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(other).toBeLessThan(250);
  });

  it('labels a transient error TransientTransactionError inside a transaction, so withTransaction retries', async () => {
    await c.insertOne({ _id: 'seed' } as never);
    const session = fx.client.startSession();
    let runs = 0;
    try {
      await arm({ times: 1 }, { failCommands: ['update'], errorCode: 112 });
      await session.withTransaction(async () => {
        runs++;
        await c.updateOne({ _id: 'seed' } as never, { $inc: { n: 1 } }, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(runs).toBe(2);
    expect(await c.findOne({ _id: 'seed' as never })).toEqual({ _id: 'seed', n: 1 });
  });

  // The drivers' transaction spec (backpressure-retryable-reads and -writes): mongod evaluates the fail point
  // before it checks out the session, so the failed command neither aborts nor starts the transaction.
  it('leaves the transaction open when it fails a command in it, which may run again there', async () => {
    const session = fx.client.startSession();
    try {
      session.startTransaction();
      await c.insertOne({ _id: 'kept' } as never, { session });
      await arm({ times: 1 }, { failCommands: ['find'], errorCode: 112 });
      await expect(c.find({}, { session }).toArray()).rejects.toMatchObject({ code: 112 });
      expect(await c.find({}, { session }).toArray()).toEqual([{ _id: 'kept' }]);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await c.find().toArray()).toEqual([{ _id: 'kept' }]);
  });

  it('starts no transaction when it fails the first command of one, which the driver sends again to start it', async () => {
    const session = fx.client.startSession();
    try {
      session.startTransaction();
      // Labels the driver retries with a backoff: the retry carries startTransaction again, with the same txnNumber.
      await arm(
        { times: 1 },
        { failCommands: ['insert'], errorCode: 112, errorLabels: ['RetryableError', 'SystemOverloadedError'] },
      );
      await c.insertOne({ _id: 'first' } as never, { session });
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await c.find().toArray()).toEqual([{ _id: 'first' }]);
  });

  // The drivers' transaction specs (error-labels, convenient API commit-transienttransactionerror): mongod's
  // isTransientTransactionError for a commit, which withTransaction retries the whole transaction on.
  it.each<[string, number, boolean]>([
    ['NoSuchTransaction (251)', 251, true],
    ['LockTimeout (24)', 24, true],
    ['WriteConflict (112)', 112, true],
    ['SnapshotUnavailable (246)', 246, true],
    ['Interrupted (11601)', 11601, false],
    ['BadValue (2)', 2, false],
  ])('labels a commitTransaction failing with %s as mongod does', async (_label, errorCode, transient) => {
    const session = fx.client.startSession();
    try {
      session.startTransaction();
      await c.insertOne({ _id: `commit-${errorCode}` } as never, { session });
      await arm({ times: 1 }, { failCommands: ['commitTransaction'], errorCode });
      const error = (await session.commitTransaction().catch((e: unknown) => e)) as {
        code: number;
        errorLabels: string[];
      };
      expect(error.code).toBe(errorCode);
      expect(error.errorLabels.includes('TransientTransactionError')).toBe(transient);
    } finally {
      await admin().command({ configureFailPoint: 'failCommand', mode: 'off' });
      await session.endSession();
    }
  });

  it('has withTransaction run the transaction again after a commit fails with LockTimeout', async () => {
    const session = fx.client.startSession();
    let runs = 0;
    try {
      await arm({ times: 2 }, { failCommands: ['commitTransaction'], errorCode: 24 });
      await session.withTransaction(async () => {
        runs++;
        await c.insertOne({ _id: `retried-${runs}` } as never, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(runs).toBe(3);
    expect(await c.countDocuments({ _id: { $in: ['retried-1', 'retried-2', 'retried-3'] } } as never)).toBe(1);
  });

  it("gives a retried write its writeConcernError again (the drivers' retryable-writes spec, insertOne-errorLabels)", async () => {
    await arm(
      { times: 2 },
      {
        failCommands: ['insert'],
        errorLabels: ['RetryableWriteError'],
        writeConcernError: { code: 91, errmsg: 'Replication is being shut down' },
      },
    );
    // ShutdownInProgress marks the server Unknown twice (the write and its retry): see POLLING_MONITOR.
    const { client: retrying } = await client(POLLING_MONITOR);
    const twice = retrying.db(fx.db.databaseName).collection(c.collectionName);
    const error = (await twice.insertOne({ _id: 'twice' } as never).catch((e: unknown) => e)) as {
      code: number;
      errorLabels: string[];
    };
    expect(error.code).toBe(91);
    expect(error.errorLabels).toContain('RetryableWriteError');
    expect(await twice.countDocuments({ _id: 'twice' } as never)).toBe(1);
  });

  it('is refused outside the admin database', async () => {
    await expect(fx.db.command({ configureFailPoint: 'failCommand', mode: 'off' })).rejects.toMatchObject({
      errmsg: expect.stringMatching(/admin/) as unknown,
    });
  });
});

// The drivers' change-streams spec (change-streams-resume-errorLabels) and mongod's own test of the fail point:
// a getMore that checked out its cursor fails with `errorCode`, labelled ResumableChangeStreamError on a change
// stream for the codes mongod resumes after.
(failPoints ? describe : describe.skip)('failGetMoreAfterCursorCheckout fail point', () => {
  let c: Collection;
  const armGetMore = (mode: unknown, data?: object) =>
    admin().command({
      configureFailPoint: 'failGetMoreAfterCursorCheckout',
      mode,
      ...(data === undefined ? {} : { data }),
    });
  beforeEach(async () => {
    c = await fx.fresh('get_more_fail_point');
  });
  afterEach(async () => {
    await armGetMore('off');
  });

  /** The error of a getMore on the cursor `aggregate` opens. */
  async function getMoreError(pipeline: object[]): Promise<MongoServerError> {
    const opened = await fx.db.command({ aggregate: c.collectionName, pipeline, cursor: { batchSize: 0 } });
    return rejection(fx.db.command({ getMore: opened.cursor.id, collection: c.collectionName }));
  }

  it.each<[string, number, string, boolean]>([
    ['HostUnreachable', 6, 'HostUnreachable', true],
    // Not a state-change code such as NotWritablePrimary, after which the driver waits for its monitor.
    ['ExceededTimeLimit', 262, 'ExceededTimeLimit', true],
    ['RetryChangeStream', 234, 'Location234', true],
    ['BadValue', 2, 'BadValue', false],
  ])(
    'fails a change stream getMore with %s, labelled resumable as mongod labels it',
    async (_l, code, name, resumable) => {
      await armGetMore({ times: 1 }, { errorCode: code });
      const error = await getMoreError([{ $changeStream: {} }]);
      expect(error.code).toBe(code);
      if (code !== 234) expect(error.codeName).toBe(name);
      expect(error.errorLabels.includes('ResumableChangeStreamError')).toBe(resumable);
    },
  );

  it('fails the getMore of another cursor without that label', async () => {
    await c.insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
    await armGetMore({ times: 1 }, { errorCode: 6 });
    const error = await getMoreError([]);
    expect(error.code).toBe(6);
    expect(error.errorLabels).not.toContain('ResumableChangeStreamError');
  });

  it("has the driver's change stream resume after it (a second aggregate) and deliver the event", async () => {
    const { client: watcher, started } = await client();
    const stream = watcher.db(fx.db.databaseName).collection(c.collectionName).watch();
    try {
      await armGetMore({ times: 1 }, { errorCode: 6 });
      const next = stream.next();
      await c.insertOne({ _id: 'after' } as never);
      expect(await next).toMatchObject({ operationType: 'insert', documentKey: { _id: 'after' } });
      expect(started.filter((name) => name === 'aggregate')).toHaveLength(2);
    } finally {
      await stream.close();
      await Promise.all(extraClients.splice(0).map((extra) => extra.close()));
    }
  });
});
