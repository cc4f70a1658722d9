import { randomBytes } from 'node:crypto';

import { EmbeddedMongoServer } from './embedded-mongo-server.js';

/** A MongoDB to run tests against, whichever backend provides it. */
export interface TestMongo {
  /** Connection string pointing at {@link dbName}; usable with `mongoose.createConnection` / `new MongoClient`. */
  uri: string;
  dbName: string;
  backend: 'external' | 'memory-server' | 'embedded';
  /** Drops the test database (external) or shuts the server down. */
  stop(): Promise<void>;
}

/** Options of {@link startTestMongo}. */
export interface StartTestMongoOptions {
  /** Database name; default a unique `test_<random>`. */
  dbName?: string;
  /** Needs multi-document transactions (memory-server then starts a replica set). */
  transactions?: boolean;
}

/**
 * Puts `dbName` into the path of a MongoDB URI, keeping hosts, credentials
 * and the query string (`directConnection`, `replicaSet`, …). Works for
 * multi-host and `mongodb+srv` URIs, which `URL` cannot parse.
 */
export function withDatabase(uri: string, dbName: string): string {
  const schemeEnd = uri.indexOf('://');
  if (schemeEnd < 0) throw new Error(`MONGO_URL "${uri}" is not a mongodb:// or mongodb+srv:// URI`);
  const queryStart = uri.indexOf('?', schemeEnd);
  const query = queryStart >= 0 ? uri.slice(queryStart) : '';
  const base = queryStart >= 0 ? uri.slice(0, queryStart) : uri;
  const pathStart = base.indexOf('/', schemeEnd + 3);
  const authority = pathStart >= 0 ? base.slice(0, pathStart) : base;
  return `${authority}/${encodeURIComponent(dbName)}${query}`;
}

async function dropDatabase(uri: string): Promise<void> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db().dropDatabase();
  } finally {
    await client.close();
  }
}

async function startMemoryServer(dbName: string, transactions: boolean): Promise<TestMongo> {
  // Opt-in only: this may download a mongod binary on first use.
  const { MongoMemoryServer, MongoMemoryReplSet } = await import('mongodb-memory-server-core');
  const instance = transactions
    ? await MongoMemoryReplSet.create({ replSet: { count: 1, storageEngine: 'wiredTiger' } })
    : await MongoMemoryServer.create();
  return {
    uri: instance.getUri(dbName),
    dbName,
    backend: 'memory-server',
    stop: async () => {
      await instance.stop();
    },
  };
}

/**
 * The one place that picks the test backend:
 * - `MONGO_URL` set → that server, with a unique database dropped by `stop()`;
 * - `MONGO_BACKEND=memory-server` → mongodb-memory-server (a replica set when
 *   `transactions: true`);
 * - otherwise → an {@link EmbeddedMongoServer} (in-process, starts in ms).
 */
export async function startTestMongo(options: StartTestMongoOptions = {}): Promise<TestMongo> {
  const dbName = options.dbName ?? `test_${randomBytes(6).toString('hex')}`;
  const external = process.env.MONGO_URL;
  if (external) {
    const uri = withDatabase(external, dbName);
    return { uri, dbName, backend: 'external', stop: () => dropDatabase(uri) };
  }
  if (process.env.MONGO_BACKEND === 'memory-server') return startMemoryServer(dbName, options.transactions === true);
  const server = await EmbeddedMongoServer.start();
  return { uri: withDatabase(server.uri, dbName), dbName, backend: 'embedded', stop: () => server.stop() };
}
