import type { Document } from 'bson';

import { CommandError, ErrorCode } from './command-error.js';
import { dataDocument, FailPointState } from './fail-point-state.js';

/** What the `failCommand` fail point does to one command that it fires on. */
export interface FailCommandAction {
  /** Reply with this error instead of running the command. */
  readonly errorReply?: Document;
  /** Close the connection instead of replying. */
  readonly closeConnection: boolean;
  /** Hold the reply back this long (`blockConnection`). */
  readonly blockTimeMS: number;
  /** Appended to the reply of the (executed) command. */
  readonly writeConcernError?: Document;
  /** Labels of the reply that carries `writeConcernError` (`RetryableWriteError` for a retryable code, as mongod adds). */
  readonly writeConcernLabels?: string[];
}

/** The command being dispatched, as the fail point needs to see it. */
export interface FailCommandTarget {
  readonly name: string;
  readonly cmd: Document;
  readonly db: string;
  /** The client's `appName` from its handshake, if any. */
  readonly appName?: string;
  /** True when `listed` names the same command as `name` (aliases such as `findandmodify`). */
  readonly sameCommand: (listed: string) => boolean;
}

/** Error codes whose names mongod reports, beyond the ones the embedded server raises itself. */
const CODE_NAMES: Record<number, string> = {
  ...Object.fromEntries(Object.entries(ErrorCode).map(([name, code]) => [code, name])),
  6: 'HostUnreachable',
  7: 'HostNotFound',
  8: 'UnknownError',
  11: 'UserNotFound',
  18: 'AuthenticationFailed',
  20: 'IllegalOperation',
  24: 'LockTimeout',
  50: 'MaxTimeMSExpired',
  64: 'WriteConcernFailed',
  89: 'NetworkTimeout',
  91: 'ShutdownInProgress',
  100: 'UnsatisfiableWriteConcern',
  133: 'FailedToSatisfyReadPreference',
  134: 'ReadConcernMajorityNotAvailableYet',
  175: 'QueryPlanKilled',
  189: 'PrimarySteppedDown',
  237: 'CursorKilled',
  262: 'ExceededTimeLimit',
  267: 'PreparedTransactionInProgress',
  9001: 'SocketException',
  10107: 'NotWritablePrimary',
  11600: 'InterruptedAtShutdown',
  11601: 'Interrupted',
  11602: 'InterruptedDueToReplStateChange',
  13435: 'NotPrimaryNoSecondaryOk',
  13436: 'NotPrimaryOrSecondary',
};

/** The name mongod gives error code `code` (`Location<code>` for one it names after its assertion). */
export function codeNameOf(code: number): string {
  return CODE_NAMES[code] ?? `Location${code}`;
}

/** Codes mongod labels RetryableWriteError on a retryable write (network, not-primary, shutdown). */
const RETRYABLE_WRITE_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);
/**
 * Codes mongod labels TransientTransactionError in any command of a transaction
 * (isTransientTransactionError): LockTimeout, WriteConflict, PreparedTransactionInProgress
 * and the snapshot errors (SnapshotTooOld, SnapshotUnavailable, StaleChunkHistory, MigrationConflict).
 */
const TRANSIENT_TRANSACTION_CODES = new Set([24, 112, 267, 239, 246, 285, 324]);
const NO_SUCH_TRANSACTION = 251;
const RETRYABLE_WRITE_COMMANDS = new Set([
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'commitTransaction',
  'abortTransaction',
]);

const MESSAGE = "Failing command via 'failCommand' failpoint";

function parseData(raw: unknown): Document {
  const data = dataDocument(raw);
  if (data.failCommands !== undefined) {
    if (!Array.isArray(data.failCommands) || data.failCommands.some((name) => typeof name !== 'string')) {
      throw new CommandError('TypeMismatch', "'failCommands' must be an array of command names");
    }
  }
  if (data.errorLabels !== undefined && !Array.isArray(data.errorLabels)) {
    throw new CommandError('TypeMismatch', "'errorLabels' must be an array of strings");
  }
  return data;
}

/**
 * MongoDB's `failCommand` test fail point
 * (https://github.com/mongodb/mongo/wiki/The-%22failCommand%22-fail-point):
 * `configureFailPoint` arms it, and every command dispatch asks
 * {@link evaluate} whether to fail, close or delay that command. State is
 * per server, like mongod's.
 */
export class FailCommandFailPoint {
  private readonly state = new FailPointState(parseData);

  /** Applies a `configureFailPoint: 'failCommand'` command; returns the reply. */
  configure(cmd: Document): Document {
    return this.state.configure(cmd);
  }

  /** Turns the fail point off, as a restart does. */
  reset(): void {
    this.state.reset();
  }

  /** Whether the fail point fires on `target` (counting it down if so), and what it then does. */
  evaluate(target: FailCommandTarget): FailCommandAction | undefined {
    if (!this.state.armed || !this.applies(target) || !this.state.fire()) return undefined;
    const data = this.state.data;
    const blockTimeMS =
      data.blockConnection === true ? Math.max(0, Number((data.blockTimeMS as number | bigint | undefined) ?? 0)) : 0;
    const errorCode = data.errorCode === undefined ? undefined : Number(data.errorCode as number | bigint);
    return {
      closeConnection: data.closeConnection === true,
      blockTimeMS,
      errorReply: errorCode === undefined ? undefined : this.errorReply(errorCode, target),
      writeConcernError: data.writeConcernError as Document | undefined,
      writeConcernLabels: data.writeConcernError === undefined ? undefined : this.writeConcernLabels(target),
    };
  }

  /** mongod's `shouldActivateFailCommandFailPoint`. */
  private applies(target: FailCommandTarget): boolean {
    // Banned even when listed, so that a test can always turn the fail point off again.
    if (target.name === 'configureFailPoint') return false;
    const data = this.state.data;
    const actionable =
      data.errorCode !== undefined ||
      data.closeConnection === true ||
      data.blockConnection === true ||
      data.writeConcernError !== undefined;
    if (!actionable) return false;
    if (typeof data.appName === 'string' && data.appName !== target.appName) return false;
    if (typeof data.namespace === 'string') {
      const collection: unknown = target.cmd[target.name];
      if (typeof collection !== 'string' || `${target.db}.${collection}` !== data.namespace) return false;
    }
    const listed = (data.failCommands as string[] | undefined) ?? [];
    return listed.some((name) => target.sameCommand(name));
  }

  private writeConcernLabels(target: FailCommandTarget): string[] {
    if (Array.isArray(this.state.data.errorLabels)) return this.state.data.errorLabels as string[];
    const code = Number((this.state.data.writeConcernError as { code?: number | bigint }).code ?? 0);
    return naturalLabels(code, target).filter((label) => label === 'RetryableWriteError');
  }

  private errorReply(code: number, target: FailCommandTarget): Document {
    const reply: Document = { ok: 0, errmsg: MESSAGE, code, codeName: codeNameOf(code) };
    const labels = Array.isArray(this.state.data.errorLabels)
      ? (this.state.data.errorLabels as string[])
      : naturalLabels(code, target, this.state.data.writeConcernError !== undefined);
    if (labels.length > 0) reply.errorLabels = labels;
    return reply;
  }
}

/** The labels mongod would attach to `code` itself when `errorLabels` is not given. */
function naturalLabels(code: number, { name, cmd }: FailCommandTarget, hasWriteConcernError = false): string[] {
  const inTransaction = cmd.autocommit === false;
  const labels: string[] = [];
  const retryableWrite =
    cmd.txnNumber !== undefined &&
    RETRYABLE_WRITE_COMMANDS.has(name) &&
    (!inTransaction || name === 'commitTransaction' || name === 'abortTransaction');
  if (retryableWrite && RETRYABLE_WRITE_CODES.has(code)) labels.push('RetryableWriteError');
  // A commit or abort is transient for NoSuchTransaction only without a write concern error (the data could
  // have been committed, then rolled back); any other command also for NoSuchTransaction and the retryable codes.
  const commitOrAbort = name === 'commitTransaction' || name === 'abortTransaction';
  const transient =
    TRANSIENT_TRANSACTION_CODES.has(code) ||
    (code === NO_SUCH_TRANSACTION && !(commitOrAbort && hasWriteConcernError)) ||
    (!commitOrAbort && RETRYABLE_WRITE_CODES.has(code));
  if (inTransaction && transient) labels.push('TransientTransactionError');
  return labels;
}
