import { startTestMongo } from './start-test-mongo.js';

/**
 * Server error codes with which a MongoDB refuses `configureFailPoint`, as
 * opposed to failing to answer: CommandNotFound (a mongod started without
 * `--setParameter enableTestCommands=1`), Unauthorized (a user without the
 * privilege) and CommandNotSupported (a managed service that withholds it).
 */
const REFUSALS = new Set([59, 13, 115]);

/**
 * Whether `error` is a server's refusal of `configureFailPoint` (see
 * {@link supportsFailPoints}), rather than a failure to reach or ask it.
 */
export function isFailPointRefusal(error: unknown): boolean {
  // Server errors carry a numeric code; network and driver errors none, or a string one (ECONNREFUSED).
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && REFUSALS.has(code);
}

/**
 * Whether the MongoDB at `uri` has MongoDB's `failCommand` fail point
 * (`configureFailPoint` on the admin database): the embedded server always
 * has it, a mongod only with `--setParameter enableTestCommands=1`. Use it to
 * choose `describe` or `describe.skip` for tests that inject failures, so
 * that they are reported skipped rather than failed where it is missing.
 *
 * Probes by turning the fail point off, which changes nothing else; the
 * client it opens is closed before it returns. Rejects when the server cannot
 * be reached or answers with anything but a refusal, rather than reporting
 * `false`. Server selection waits 5 s unless `uri` sets `serverSelectionTimeoutMS`.
 * Without `uri`, asks the MongoDB {@link startTestMongo} gives (MONGO_URL, or
 * the embedded server), started for the question and stopped after it: what a
 * suite needs to decide before its own server is up.
 * @see https://github.com/mongodb/mongo/wiki/The-failCommand-fail-point
 */
export async function supportsFailPoints(uri?: string): Promise<boolean> {
  if (uri === undefined) {
    const probe = await startTestMongo();
    return supportsFailPoints(probe.uri).finally(() => probe.stop());
  }
  const { MongoClient } = await import('mongodb');
  const options = /[?&]serverSelectionTimeoutMS=/i.test(uri) ? {} : { serverSelectionTimeoutMS: 5000 };
  const client = new MongoClient(uri, options);
  try {
    await client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    return true;
  } catch (error) {
    if (isFailPointRefusal(error)) return false;
    throw error;
  } finally {
    await client.close();
  }
}
