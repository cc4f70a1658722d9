import mongoose from 'mongoose';

/** Server codes meaning "no primary reachable now", after which the write's outcome is unknown. */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

// Driver classes that mean "could not talk to a server". Looked up by name, since
// not every driver version exports all of them, and `instanceof undefined` throws.
const UNAVAILABLE_CLASSES = [
  'MongoNetworkError', // includes MongoNetworkTimeoutError and PoolClearedError
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoClientClosedError',
  'MongoOperationTimeoutError',
]
  .map((name) => (mongoose.mongo as unknown as Record<string, unknown>)[name])
  .filter((value): value is abstract new (...args: never[]) => Error => typeof value === 'function');

// Mongoose's own errors while it buffers commands for a connection that is not
// open: the counter collection is just as unreachable as with a driver error.
const MONGOOSE_UNAVAILABLE = /buffering timed out|before initial connection is complete|force closed/;

// Socket errors the driver can let through unwrapped: when a write to a socket
// the server just closed fails while waiting for 'drain' (mongodb 7.8
// `Connection.writeCommand`), the raw `EPIPE` error reaches the caller instead
// of a MongoNetworkError. Found by the sample app's fault test.
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'ENOTCONN']);

function code(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** E11000: two upserts raced to insert the same counter `_id`. */
export function isDuplicateKeyError(error: unknown): boolean {
  return code(error) === 11000;
}

/**
 * Whether `error` means the database could not be reached — network errors,
 * server selection timeouts, a closed client, a stepdown, mongoose's buffering
 * timeouts, raw socket errors — so the request may be retried later (HTTP 503).
 * `SequenceService` turns these into `SequenceUnavailableError`; an app's
 * exception filter or interceptor can use it for its own queries.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (UNAVAILABLE_CLASSES.some((cls) => error instanceof cls)) return true;
  if ((error as { name?: unknown }).name === 'MongooseServerSelectionError') return true;
  if (error instanceof mongoose.Error && MONGOOSE_UNAVAILABLE.test(error.message)) return true;
  // Socket errors come from Node's own realm, where `instanceof Error` can fail
  // (in Jest's sandbox, for one), so they are recognised by their code alone.
  const c = code(error);
  if (typeof c === 'string') return SOCKET_CODES.has(c);
  return typeof c === 'number' && UNAVAILABLE_CODES.has(c);
}

/** Whether a driver error carries a label that `session.withTransaction()` acts on. */
export function hasTransactionRetryLabel(error: unknown): boolean {
  return (
    error instanceof mongoose.mongo.MongoError &&
    (error.hasErrorLabel('TransientTransactionError') || error.hasErrorLabel('UnknownTransactionCommitResult'))
  );
}

/**
 * Marks a duplicate-key error raised inside a transaction as transient, so
 * `withTransaction()` aborts and runs the whole callback again. Retrying the
 * upsert inside the same transaction would be wrong: the server has already
 * aborted the transaction when a statement fails, and it does not retry the
 * upsert itself inside transactions as it does outside them.
 */
export function markTransient(error: unknown): void {
  if (error instanceof mongoose.mongo.MongoError) error.addErrorLabel('TransientTransactionError');
}
