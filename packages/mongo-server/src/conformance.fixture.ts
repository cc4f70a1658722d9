import {
  type ClientSession,
  type Collection,
  type Db,
  MongoClient,
  type MongoClientOptions,
  MongoServerError,
} from 'mongodb';
import { startTestMongo, type StartTestMongoOptions, type TestMongo } from './start-test-mongo.js';

/** What a conformance suite works with; valid from its `beforeAll` on. */
export interface DriverFixture {
  readonly mongo: TestMongo;
  readonly client: MongoClient;
  readonly db: Db;
  /** The named collection, dropped first so each test starts empty. */
  fresh(name: string): Promise<Collection>;
}

/**
 * Client options for suites whose commands fail with an error that marks the
 * server Unknown in the driver (ShutdownInProgress, PrimarySteppedDown): the
 * retry waits for the monitor's next hello, which a streaming monitor gives
 * only when its awaited hello ends (heartbeatFrequencyMS, 10 s), so a retry
 * took 0.5 or 10 s depending on the timing. A polling monitor with a short
 * minimum interval checks at once, on a real MongoDB as well.
 */
export const POLLING_MONITOR: MongoClientOptions = { serverMonitoringMode: 'poll', minHeartbeatFrequencyMS: 10 };

/** Options of {@link useDriverFixture}. */
export interface DriverFixtureOptions extends StartTestMongoOptions {
  /** Options for the suite's client, e.g. `useBigInt64`. */
  client?: MongoClientOptions;
}

/**
 * Starts a test MongoDB (embedded, or `MONGO_URL`) and an official driver
 * client for the enclosing suite, and tears both down after it.
 */
export function useDriverFixture(options: DriverFixtureOptions = {}): DriverFixture {
  const { client: clientOptions, ...mongoOptions } = options;
  let mongo: TestMongo | undefined;
  let client: MongoClient | undefined;
  beforeAll(async () => {
    mongo = await startTestMongo(mongoOptions);
    client = await new MongoClient(mongo.uri, clientOptions).connect();
  });
  afterAll(async () => {
    await client?.close();
    await mongo?.stop();
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is used before the suite's beforeAll ran`);
    return value;
  };
  return {
    get mongo() {
      return ready(mongo, 'mongo');
    },
    get client() {
      return ready(client, 'client');
    },
    get db() {
      return ready(client, 'client').db();
    },
    async fresh(name: string) {
      const db = ready(client, 'client').db();
      await db
        .collection(name)
        .drop()
        .catch(() => undefined);
      return db.collection(name);
    },
  };
}

/** The server error `promise` is rejected with; fails the test when it resolves or fails otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof MongoServerError)) throw new Error(`expected a MongoServerError, got ${String(error)}`);
  return error;
}

/**
 * Explicit sessions for a suite's cursors (a getMore must come from the
 * cursor's session): `start()` gives one, and each is ended after its test.
 */
export function useSessions(fx: DriverFixture): { start(): ClientSession } {
  let sessions: ClientSession[] = [];
  afterEach(async () => {
    await Promise.all(sessions.map((session) => session.endSession()));
    sessions = [];
  });
  return {
    start() {
      const session = fx.client.startSession();
      sessions.push(session);
      return session;
    },
  };
}
