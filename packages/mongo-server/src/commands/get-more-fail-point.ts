import type { Document } from 'bson';

import { CommandError } from './command-error.js';
import { codeNameOf } from './fail-command-fail-point.js';
import { FailPointState } from './fail-point-state.js';

/**
 * The codes of a change stream's getMore error that mongod labels
 * ResumableChangeStreamError (its ErrorLabelBuilder: the retriable and
 * network errors, those that need retargeting, RetryChangeStream and
 * FailedToSatisfyReadPreference), so that a driver resumes the stream.
 */
const RESUMABLE_CHANGE_STREAM_CODES: ReadonlySet<number> = new Set([
  6, 7, 89, 91, 133, 134, 150, 189, 202, 234, 249, 262, 9001, 10107, 11600, 11602, 13388, 13435, 13436, 63,
]);

/**
 * mongod's `failGetMoreAfterCursorCheckout` test fail point, which the
 * drivers' change-streams spec arms: a getMore that has checked out its
 * cursor fails with `errorCode` (InternalError without one), labelled as
 * mongod labels a change stream's getMore error.
 */
export class GetMoreFailPoint {
  private readonly state = new FailPointState();

  /** Applies a `configureFailPoint: 'failGetMoreAfterCursorCheckout'` command; returns the reply. */
  configure(cmd: Document): Document {
    return this.state.configure(cmd);
  }

  /** Turns the fail point off, as a restart does. */
  reset(): void {
    this.state.reset();
  }

  /** Throws the fail point's error when it fires on this getMore, of a change stream's cursor or another. */
  check(changeStream: boolean): void {
    if (!this.state.fire()) return;
    const raw: unknown = this.state.data.errorCode;
    const code = raw === undefined ? 1 : Number(raw as number | bigint);
    const labels =
      changeStream && RESUMABLE_CHANGE_STREAM_CODES.has(code) ? { errorLabels: ['ResumableChangeStreamError'] } : {};
    // The code's own name, which CommandError knows for the codes this server raises only.
    throw new CommandError(`Location${code}`, "Failing command due to 'failGetMoreAfterCursorCheckout' failpoint", {
      codeName: codeNameOf(code),
      ...labels,
    });
  }
}
