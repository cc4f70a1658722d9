import { setImmediate as nextTurn } from 'node:timers/promises';

import { type Document, MongoClient, MongoServerSelectionError } from 'mongodb';

import { EmbeddedMongoServer, supportsFailPoints } from './index.js';
import { isFailPointRefusal } from './supports-fail-points.js';

// One embedded server (and a client of it) for both groups: it always has the fail point.
let server: EmbeddedMongoServer;
let client: MongoClient;
beforeAll(async () => {
  server = await EmbeddedMongoServer.start();
  client = await new MongoClient(server.uri).connect();
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe('supportsFailPoints', () => {
  it('should be true for the embedded server, which always has test commands', async () => {
    await expect(supportsFailPoints(server.uri)).resolves.toBe(true);
  });

  it('should ask the test MongoDB (MONGO_URL, else an embedded server) when given no uri', async () => {
    const before = process.env.MONGO_URL;
    // MONGO_URL points the probe at this suite's server, so that its connections can be counted.
    process.env.MONGO_URL = server.uri;
    try {
      const started = server.connectionCount;
      await expect(supportsFailPoints()).resolves.toBe(true);
      for (let turn = 0; turn < 100 && server.connectionCount > started; turn++) await nextTurn();
      expect(server.connectionCount).toBe(started);
    } finally {
      if (before === undefined) delete process.env.MONGO_URL;
      else process.env.MONGO_URL = before;
    }
  });

  it('should close the client it opens, also when it answers', async () => {
    const own = await EmbeddedMongoServer.start();
    try {
      await expect(supportsFailPoints(own.uri)).resolves.toBe(true);
      // The server sees the sockets close a few turns of the event loop later: counted in turns, not ms.
      for (let turn = 0; turn < 100 && own.connectionCount > 0; turn++) await nextTurn();
      expect(own.connectionCount).toBe(0);
    } finally {
      await own.stop();
    }
  });

  it('should reject, not answer false, when the server cannot be reached', async () => {
    const gone = await EmbeddedMongoServer.start();
    const uri = `${gone.uri}&serverSelectionTimeoutMS=300`;
    await gone.stop();
    await expect(supportsFailPoints(uri)).rejects.toBeInstanceOf(MongoServerSelectionError);
  });
});

describe('isFailPointRefusal', () => {
  /** The error the server answers `command` on `db` with, as the driver throws it. */
  const failure = (db: string, command: Document) =>
    client
      .db(db)
      .command(command)
      .then(
        () => {
          throw new Error(`expected ${JSON.stringify(command)} to fail`);
        },
        (error: unknown) => error,
      );

  // A mongod without enableTestCommands answers configureFailPoint as any unknown command.
  it.each<[string, string, Document, number]>([
    ['an unknown command (CommandNotFound)', 'admin', { configureFailPointX: 'failCommand', mode: 'off' }, 59],
    ['configureFailPoint without the privilege (Unauthorized)', 'test', { configureFailPoint: 'failCommand' }, 13],
    ['a command the server withholds (CommandNotSupported)', 'test', { create: 'c', capped: true, size: 1 }, 115],
  ])('should be true for %s', async (_what, db, command, code) => {
    const error = await failure(db, command);
    expect(error).toMatchObject({ code });
    expect(isFailPointRefusal(error)).toBe(true);
  });

  it('should be false for any other server error', async () => {
    const error = await failure('admin', { configureFailPoint: 'noSuchFailPoint', mode: 'off' });
    expect(error).toMatchObject({ code: 2, codeName: 'BadValue' });
    expect(isFailPointRefusal(error)).toBe(false);
  });

  it.each<[string, unknown]>([
    ['a network error', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })],
    ['an error without a code', new Error('boom')],
    ['null', null],
    ['undefined', undefined],
  ])('should be false for %s', (_what, error) => {
    expect(isFailPointRefusal(error)).toBe(false);
  });
});
