import mongoose from 'mongoose';

export { isDatabaseUnavailableError } from '../core/index.js';

function code(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** E11000: two upserts raced to insert the same counter `_id`. */
export function isDuplicateKeyError(error: unknown): boolean {
  return code(error) === 11000;
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
