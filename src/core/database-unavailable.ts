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

// Driver classes that mean "could not talk to a server", matched by the names
// along the error's class chain rather than by `instanceof`: this file must not
// load mongoose or the driver (the main entry point needs neither), and a name
// also matches errors from another copy of the driver. MongoNetworkError covers
// its subclasses (MongoNetworkTimeoutError, PoolClearedError) through the chain.
const UNAVAILABLE_CLASSES = new Set([
  'MongoNetworkError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoClientClosedError',
  'MongoOperationTimeoutError',
]);

// Mongoose's own errors while it buffers commands for a connection that is not
// open: the collection is just as unreachable as with a driver error.
const MONGOOSE_UNAVAILABLE = /buffering timed out|before initial connection is complete|force closed/;

// Socket errors the driver can let through unwrapped: when a write to a socket
// the server just closed fails while waiting for 'drain' (mongodb 7.8
// `Connection.writeCommand`), the raw `EPIPE` error reaches the caller instead
// of a MongoNetworkError.
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'ENOTCONN']);

// Deeper class chains than this are not driver errors; the bound keeps a
// hostile prototype chain from costing more than a few steps.
const MAX_CHAIN = 16;

/** The `name`s of the constructors along `error`'s prototype chain, nearest first. */
function classNames(error: object): string[] {
  const names: string[] = [];
  let proto: unknown = Object.getPrototypeOf(error);
  for (let depth = 0; proto !== null && proto !== undefined && depth < MAX_CHAIN; depth += 1) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, 'constructor');
    const ctor: unknown = descriptor && 'value' in descriptor ? descriptor.value : undefined;
    if (typeof ctor === 'function') names.push(ctor.name);
    proto = Object.getPrototypeOf(proto);
  }
  return names;
}

/**
 * Whether `error` means the database could not be reached — network errors,
 * server selection timeouts, a closed client, a stepdown, mongoose's buffering
 * timeouts, raw socket errors — so the request may be retried later (HTTP 503).
 * The sequences' MongoDB store turns these into `SequenceUnavailableError`; an app's
 * exception filter or interceptor can use it for its own queries.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const names = classNames(error);
  if (names.some((name) => UNAVAILABLE_CLASSES.has(name))) return true;
  if ((error as { name?: unknown }).name === 'MongooseServerSelectionError') return true;
  const message = (error as { message?: unknown }).message;
  if (names.includes('MongooseError') && typeof message === 'string' && MONGOOSE_UNAVAILABLE.test(message)) return true;
  // Socket errors come from Node's own realm, where `instanceof Error` can fail
  // (in Jest's sandbox, for one), so they are recognised by their code alone.
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return SOCKET_CODES.has(code);
  return typeof code === 'number' && UNAVAILABLE_CODES.has(code);
}
