import type { Document } from 'bson';

import { FailPointState } from './fail-point-state.js';

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
  private readonly state = new FailPointState();

  /** Applies a `configureFailPoint: 'onPrimaryTransactionalWrite'` command; returns the reply. */
  configure(cmd: Document): Document {
    return this.state.configure(cmd);
  }

  /** Whether it may fire (it is not off). */
  get armed(): boolean {
    return this.state.armed;
  }

  /** Turns the fail point off, as a restart does. */
  reset(): void {
    this.state.reset();
  }

  /**
   * Evaluates the fail point for `statements` statements in order, as mongod
   * does after each, until it fires; what it does then, or undefined.
   */
  firing(statements: number): TransactionalWriteFailure | undefined {
    if (!this.state.armed) return undefined;
    for (let statement = 0; statement < statements; statement++) {
      if (!this.state.fire()) continue;
      const code: unknown = this.state.data.failBeforeCommitExceptionCode;
      return {
        statement,
        closeConnection: this.state.data.closeConnection !== false,
        failBeforeCommitCode: code === undefined ? undefined : Number(code as number | bigint),
      };
    }
    return undefined;
  }
}
