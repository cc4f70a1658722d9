import type { Document } from 'bson';

/** MongoDB error codes the embedded server returns, with their code names. */
export const ErrorCode = {
  InternalError: 1,
  BadValue: 2,
  NoSuchKey: 4,
  GraphContainsCycle: 5,
  IncompatibleCollationVersion: 174,
  FailedToParse: 9,
  TypeMismatch: 14,
  ProtocolError: 17,
  InvalidNamespace: 73,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  UnsupportedFormat: 51,
  NoQueryExecutionPlans: 291,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  IndexAlreadyExists: 68,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  InvalidIndexSpecificationOption: 197,
  WriteConflict: 112,
  NoSuchTransaction: 251,
  TransactionCommitted: 256,
  Location40352: 40352,
  DuplicateKey: 11000,
  UnsupportedOpQueryCommand: 352,
  InvalidIdField: 53,
  DollarPrefixedFieldName: 52,
  Overflow: 15,
  PathNotViable: 28,
  ConflictingUpdateOperators: 40,
  Unauthorized: 13,
  ExceededMemoryLimit: 146,
  BSONObjectTooLarge: 10334,
  MaxTimeMSExpired: 50,
  QueryExceededMemoryLimitNoDiskUseAllowed: 292,
  EmptyFieldName: 56,
  IllegalOperation: 20,
  CannotCreateIndex: 67,
  ViewDepthLimitExceeded: 149,
  CommandNotSupported: 115,
  ClientMetadataCannotBeMutated: 186,
  InvalidUUID: 207,
  QueryPlanKilled: 175,
  DocumentValidationFailure: 121,
  InvalidPipelineOperator: 168,
  CommandNotSupportedOnView: 166,
  OptionNotSupportedOnView: 167,
  CursorInUse: 143,
  CursorKilled: 237,
  InvalidResumeToken: 260,
  OperationNotSupportedInTransaction: 263,
  ChangeStreamFatalError: 280,
  ChangeStreamHistoryLost: 286,
  ConversionFailure: 241,
  DurationOverflow: 159,
  ClusterTimeFailsRateLimiter: 209,
} as const;

/**
 * Name of a code in {@link ErrorCode}, or `Location<n>`: mongod names an
 * error raised by a numbered assertion (`uassert(51104, …)`) that way.
 */
export type ErrorCodeName = keyof typeof ErrorCode | `Location${number}`;

/** ChangeStreamFatalError and ChangeStreamHistoryLost, labelled NonResumableChangeStreamError by mongod. */
const NON_RESUMABLE_CODES: ReadonlySet<number> = new Set([
  ErrorCode.ChangeStreamFatalError,
  ErrorCode.ChangeStreamHistoryLost,
]);

function codeOf(name: ErrorCodeName): number {
  return name in ErrorCode ? ErrorCode[name as keyof typeof ErrorCode] : Number(name.slice('Location'.length));
}

/**
 * A command failure carrying MongoDB's `code`/`codeName`. The router turns
 * it into `{ ok: 0, errmsg, code, codeName, ...extra }`.
 */
export class CommandError extends Error {
  readonly code: number;

  constructor(
    readonly codeName: ErrorCodeName,
    message: string,
    /** Extra reply fields such as `keyPattern`, `keyValue` or `errorLabels`. */
    readonly extra: Document = {},
  ) {
    super(message);
    this.name = 'CommandError';
    this.code = codeOf(codeName);
  }

  /** The top-level error reply (`ok: 0`). */
  toReply(): Document {
    const reply: Document = { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
    // mongod's NonResumableChangeStreamError category: a driver must not resume a stream after these.
    if (NON_RESUMABLE_CODES.has(this.code) && reply.errorLabels === undefined) {
      reply.errorLabels = ['NonResumableChangeStreamError'];
    }
    return reply;
  }

  /** The per-statement entry of a `writeErrors` array. */
  toWriteError(index: number): Document {
    const { errorLabels: _labels, ...rest } = this.extra;
    return { index, code: this.code, errmsg: this.message, ...rest };
  }

  /** A write conflict, labelled so that `withTransaction` retries. */
  static writeConflict(): CommandError {
    return new CommandError(
      'WriteConflict',
      'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
      { errorLabels: ['TransientTransactionError'] },
    );
  }
}
