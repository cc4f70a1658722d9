import type { Document } from 'bson';

import { CommandError } from './command-error.js';
import { FailPointMode } from './fail-point-mode.js';

/** What the fail point does to the statement it fires on. */
export interface TransactionalWriteFailure {
  /** The statement of the command (its index) it fired on. */
  readonly statement: number;
  /** Close the connection instead of replying (the default). */
  readonly closeConnection: boolean;
  /** Fail that statement with this code before it is applied; unset, the statement is applied. */
  readonly failBeforeCommitCode?: number;
}

/**
 * mongod's `onPrimaryTransactionalWrite` test fail point, which the drivers'
 * retryable-writes spec arms: it is evaluated after each statement of a
 * retryable write (a write with a `txnNumber`, outside transactions) and,
 * when it fires, closes the connection (`closeConnection`, true unless
 * false) and, with `failBeforeCommitExceptionCode`, fails the statement
 * with that code so that it is not applied. The driver then retries the
 * write, and the statements already applied are answered from the
 * session's record instead of running again.
 */
export class TransactionalWriteFailPoint {
  private mode = FailPointMode.off();
  private data: Document = {};
  private timesEntered = 0;

  /** Applies a `configureFailPoint: 'onPrimaryTransactionalWrite'` command; returns the reply. */
  configure(cmd: Document): Document {
    const mode = FailPointMode.parse(cmd.mode);
    const data: unknown = cmd.data ?? {};
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new CommandError('TypeMismatch', "'data' must be an object");
    }
    const count = this.timesEntered;
    this.mode = mode;
    this.data = mode.off ? {} : (data as Document);
    this.timesEntered = 0;
    return { count, ok: 1 };
  }

  /** Whether it may fire (it is not off). */
  get armed(): boolean {
    return !this.mode.off;
  }

  /** Turns the fail point off, as a restart does. */
  reset(): void {
    this.mode = FailPointMode.off();
    this.data = {};
    this.timesEntered = 0;
  }

  /**
   * Evaluates the fail point for `statements` statements in order, as mongod
   * does after each, until it fires; what it does then, or undefined.
   */
  firing(statements: number): TransactionalWriteFailure | undefined {
    if (this.mode.off) return undefined;
    for (let statement = 0; statement < statements; statement++) {
      if (!this.mode.fire()) continue;
      this.timesEntered++;
      const code: unknown = this.data.failBeforeCommitExceptionCode;
      return {
        statement,
        closeConnection: this.data.closeConnection !== false,
        failBeforeCommitCode: code === undefined ? undefined : Number(code as number | bigint),
      };
    }
    return undefined;
  }
}
