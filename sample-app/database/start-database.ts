import mongoose from 'mongoose';
import { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import { redactMongoUrl } from './mongo-url.js';

/** How long `startDatabase()` waits for a MONGO_URL server to answer. */
const PROBE_TIMEOUT_MS = 3000;

/** The MongoDB the sample app runs on. */
export interface CatalogDatabase {
  uri: string;
  backend: 'external' | 'embedded';
  /** For the log: the URL without credentials, and where the data lives. */
  description: string;
  /** Stops the embedded server (its data is gone); nothing for an external MongoDB. */
  stop(): Promise<void>;
}

/**
 * `MONGO_URL` set → that MongoDB. Otherwise an {@link EmbeddedMongoServer} in
 * this process: a MongoDB wire-protocol server for tests and demos, not a
 * database — data lives in memory and is gone when the app stops.
 */
export async function startDatabase(mongoUrl = process.env.MONGO_URL): Promise<CatalogDatabase> {
  if (mongoUrl) {
    await probe(mongoUrl);
    return {
      uri: mongoUrl,
      backend: 'external',
      description: `MongoDB at ${redactMongoUrl(mongoUrl)} (from MONGO_URL)`,
      stop: async () => {},
    };
  }
  const server = await EmbeddedMongoServer.start();
  return {
    uri: server.uri,
    backend: 'embedded',
    description: `embedded in-memory MongoDB at ${server.uri} — data lives in memory and is lost on exit (set MONGO_URL to use a real MongoDB)`,
    stop: () => server.stop(),
  };
}

/**
 * Pings an external MongoDB once before Nest starts, so a wrong MONGO_URL ends
 * in one clear line instead of retries and a driver stack trace.
 */
async function probe(uri: string): Promise<void> {
  const client = new mongoose.mongo.MongoClient(uri, { serverSelectionTimeoutMS: PROBE_TIMEOUT_MS });
  try {
    await client.connect();
    await client.db().admin().command({ ping: 1 });
  } catch (error) {
    throw new Error(`MongoDB at ${redactMongoUrl(uri)} does not answer (${(error as Error).message})`, {
      cause: error,
    });
  } finally {
    await client.close();
  }
}
