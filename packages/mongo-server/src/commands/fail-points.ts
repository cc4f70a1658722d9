import type { Document } from 'bson';

import { CommandError } from './command-error.js';
import { FailCommandFailPoint } from './fail-command-fail-point.js';
import { GetMoreFailPoint } from './get-more-fail-point.js';
import { TransactionalWriteFailPoint } from './transactional-write-fail-point.js';

/**
 * The test fail points of one server, which `configureFailPoint` arms:
 * `failCommand`, `onPrimaryTransactionalWrite` and
 * `failGetMoreAfterCursorCheckout`, the ones the drivers' spec suites use.
 */
export class FailPoints {
  readonly failCommand = new FailCommandFailPoint();
  readonly onPrimaryTransactionalWrite = new TransactionalWriteFailPoint();
  readonly failGetMoreAfterCursorCheckout = new GetMoreFailPoint();

  /** Applies a `configureFailPoint` command to the fail point it names; returns the reply. */
  configure(cmd: Document): Document {
    const name: unknown = cmd.configureFailPoint;
    if (name === 'failCommand') return this.failCommand.configure(cmd);
    if (name === 'onPrimaryTransactionalWrite') return this.onPrimaryTransactionalWrite.configure(cmd);
    if (name === 'failGetMoreAfterCursorCheckout') return this.failGetMoreAfterCursorCheckout.configure(cmd);
    throw new CommandError(
      'BadValue',
      `Cannot find fail point ${String(name)}: the embedded test server implements 'failCommand', 'onPrimaryTransactionalWrite' and 'failGetMoreAfterCursorCheckout'; use a real MongoDB (MONGO_URL) for others`,
    );
  }

  /** Turns every fail point off, as a restart does. */
  reset(): void {
    this.failCommand.reset();
    this.onPrimaryTransactionalWrite.reset();
    this.failGetMoreAfterCursorCheckout.reset();
  }
}
