import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientSession, Connection } from 'mongoose';

/**
 * Backoff before a transaction's next attempt: random, up to 5 ms × 1.5^attempt
 * as in the driver's withTransaction, but at most 100 ms instead of 500: on a
 * counter that other processes keep busy, a transaction that sleeps half a
 * second between attempts loses to fresh ones again and again.
 */
const backoffMS = (attempt: number): number => Math.random() * Math.min(5 * 1.5 ** attempt, 100);

/** Whether `error` is a driver error carrying `label` (TransientTransactionError, UnknownTransactionCommitResult). */
export function hasErrorLabel(error: unknown, label: string): boolean {
  const check = (error as { hasErrorLabel?: unknown } | null)?.hasErrorLabel;
  return typeof check === 'function' && (check as (label: string) => boolean).call(error, label) === true;
}

/**
 * Runs `fn` in a transaction and commits it, retrying as the driver's
 * `withTransaction` does — a TransientTransactionError (a write conflict, the
 * server unreachable) runs the whole transaction again after a short random
 * backoff, an UnknownTransactionCommitResult repeats the commit — but only
 * for `budgetMS` (the first attempt always runs). `withTransaction` (and so mongoose's
 * `Connection#transaction`) retries for 120 s and, in mongodb 7.8, ignores
 * `timeoutMS`: an order on a busy counter, or during an outage, could wait
 * two minutes. Past the budget the last error is thrown.
 */
export async function runBoundedTransaction<T>(
  connection: Connection,
  fn: (session: ClientSession) => Promise<T>,
  budgetMS: number,
): Promise<T> {
  const deadline = performance.now() + budgetMS;
  const session = await connection.startSession();
  try {
    for (let attempt = 0; ; attempt += 1) {
      if (attempt > 0) await sleep(backoffMS(attempt));
      session.startTransaction();
      let result: T;
      try {
        result = await fn(session);
      } catch (error) {
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
        if (hasErrorLabel(error, 'TransientTransactionError') && performance.now() < deadline) continue;
        throw error;
      }
      for (;;) {
        try {
          await session.commitTransaction();
          return result;
        } catch (error) {
          if (performance.now() >= deadline) throw error;
          if (hasErrorLabel(error, 'UnknownTransactionCommitResult')) continue;
          if (hasErrorLabel(error, 'TransientTransactionError')) break;
          throw error;
        }
      }
    }
  } finally {
    await session.endSession().catch(() => undefined);
  }
}
