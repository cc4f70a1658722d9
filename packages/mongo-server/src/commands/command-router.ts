import type { Document } from 'bson';

import { runChangeStream, runChangeStreamCursorCommand } from '../changes/change-stream-commands.js';
import type { CursorRegistry } from '../cursor/cursor-registry.js';
import { LockBusyError } from '../session/lock-busy-error.js';
import { LockTable } from '../session/lock-table.js';
import { isRetryableWrite, type RecordedWrite, type SessionRegistry } from '../session/session-registry.js';
import type { Transaction } from '../session/transaction.js';
import type { CollectionView } from '../store/collection-view.js';
import type { MemoryStore } from '../store/memory-store.js';
import { notSupported } from '../query/expression-check.js';
import { DEFAULT_MAX_DENSIFY_DOCUMENTS, OperationBudget } from '../query/operation-budget.js';
import { setCommandClusterTime } from '../query/query-context.js';
import { ADMIN_COMMANDS } from './admin-commands.js';
import { checkDatabaseName, checkSessionFields, optionalMaxTimeMS } from './command-arguments.js';
import type { CommandContext, CommandHandler, QueryKnobs, ServerInfo } from './command-context.js';
import { CommandError } from './command-error.js';
import { EXPLAIN_COMMANDS } from './explain-command.js';
import type { FailCommandAction } from './fail-command-fail-point.js';
import type { FailPoints } from './fail-points.js';
import { INDEX_COMMANDS } from './index-commands.js';
import { meetsLock } from './lock-probe.js';
import { READ_COMMANDS } from './read-commands.js';
import { REPLICA_SET_COMMANDS } from './replica-set-commands.js';
import { TEST_COMMANDS } from './test-commands.js';
import { UNSUPPORTED_COMMANDS } from './unsupported-commands.js';
import { TRANSACTION_COMMANDS } from './transaction-commands.js';
import { bindLetVariables } from './let-variables.js';
import { runOutputStage } from './output-stages.js';
import { runSourceStage } from './source-stages.js';
import { lookupDocuments, runOnView } from './view-commands.js';
import { WRITE_COMMANDS } from './write-commands.js';
import { unsatisfiableWriteConcern } from './write-concern.js';
import { checkReadConcern, checkSnapshotReadConcern, checkTransactionReadConcern } from './read-concern.js';
import { gossipedTime, withClusterTime } from './cluster-time.js';
import { hasStatementArray, joinedWriteReply, statementCount, statementSlice } from './write-statements.js';

const HANDLERS = new Map<string, CommandHandler>(
  Object.entries({
    ...ADMIN_COMMANDS,
    ...READ_COMMANDS,
    ...EXPLAIN_COMMANDS,
    ...WRITE_COMMANDS,
    ...INDEX_COMMANDS,
    ...TRANSACTION_COMMANDS,
    ...TEST_COMMANDS,
    ...REPLICA_SET_COMMANDS,
  }),
);

const HANDSHAKE_COMMANDS = new Set(['hello', 'isMaster', 'ismaster']);

/** What the connection does with a command's result. */
export interface CommandOutcome {
  /** The reply body; absent when the connection is to be closed instead. */
  readonly reply?: Document;
  /** Close the connection without replying (`failCommand` with `closeConnection`). */
  readonly closeConnection?: boolean;
  /** Hold the reply (or the close) back this long; the command itself has already run. */
  readonly delayMS?: number;
  /**
   * The command waits (a write outside transactions that meets a lock an
   * open transaction holds); its outcome comes with this promise, and the
   * connection runs nothing else meanwhile.
   */
  readonly later?: Promise<CommandOutcome>;
}

/** A command on its way: what {@link CommandRouter} needs to run it now or again after a wait. */
interface PendingCommand {
  readonly name: string;
  readonly handler: CommandHandler;
  readonly cmd: Document;
  readonly db: string;
  readonly server: ServerInfo;
  readonly transaction?: Transaction;
  readonly fail?: FailCommandAction;
  readonly delayMS?: number;
  /** When it arrived (`Date.now()`), from which its `maxTimeMS` counts. */
  readonly since: number;
}

/** Writes that, outside transactions, wait for a transaction's lock instead of failing. */
const WAITING_WRITES = new Set(Object.keys(WRITE_COMMANDS));

/** Commands that, outside transactions, wait while a transaction creates the collection they name. */
const WAITING_CREATES = new Set(['create', 'createIndexes']);

/**
 * How often a waiting write checks whether the transaction it waits for ran
 * past its lifetime (nothing else would notice while no command touches it).
 */
const EXPIRY_POLL_MS = 50;

/** MongoDB's error reply for what a handler threw. */
function errorReply(name: string, error: unknown): Document {
  if (error instanceof CommandError) return error.toReply();
  if (error instanceof LockBusyError) {
    // Only if the look-ahead (meetsLock) missed a lock that the write then met: part of it
    // may be applied, so running it again after a wait could apply that part twice.
    return new CommandError(
      'WriteConflict',
      'Write conflict: the document is being modified by an open transaction. Retry once it commits or aborts.',
    ).toReply();
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CommandError('InternalError', `embedded server failed on '${name}': ${message}`).toReply();
}

/** The server's limits on every command. */
export interface CommandLimits {
  /** The server's clock in milliseconds. */
  readonly clock: () => number;
  /** Longest any command may run, maxTimeMS or not (0: no limit). */
  readonly maxCommandTimeMS: number;
}

const OUTSIDE_TRANSACTION = new Set([
  'commitTransaction',
  'abortTransaction',
  'endSessions',
  'hello',
  'isMaster',
  'ismaster',
  'ping',
  'configureFailPoint',
]);

/**
 * `reply` with the outcome of waiting for the command's write concern: the
 * fail point's `writeConcernError` (and its labels), else mongod's error for
 * a `w` this one member cannot meet.
 */
function withWriteConcern(reply: Document, cmd: Document, fail: FailCommandAction | undefined): Document {
  if (fail?.writeConcernError) {
    reply.writeConcernError = fail.writeConcernError;
    if (fail.writeConcernLabels?.length) reply.errorLabels = fail.writeConcernLabels;
    return reply;
  }
  const unsatisfiable = reply.writeConcernError === undefined ? unsatisfiableWriteConcern(cmd) : undefined;
  if (unsatisfiable) reply.writeConcernError = unsatisfiable;
  return reply;
}

/**
 * The commands mongod runs inside a multi-document transaction (those whose
 * `allowedInTransactions()` holds); any other is refused there with
 * OperationNotSupportedInTransaction (263), as `count` is.
 */
const ALLOWED_IN_TRANSACTION = new Set([
  'find',
  'getMore',
  'killCursors',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'aggregate',
  'distinct',
  'create',
  'createIndexes',
  'bulkWrite',
]);

/**
 * Dispatches one command document to its handler and always returns a
 * reply: MongoDB's `{ ok: 0, code, codeName, errmsg }` on failure, never a
 * thrown error. Runs synchronously from parse to reply, which is what makes
 * findAndModify and upserts atomic (a `blockConnection` fail point only
 * delays sending the reply). The one exception, a write outside transactions
 * that meets a transaction's lock, waits having changed nothing and later
 * runs, again synchronously, in one piece.
 */
export class CommandRouter {
  constructor(
    private readonly store: MemoryStore,
    private readonly cursors: CursorRegistry,
    private readonly sessions: SessionRegistry,
    private readonly failPoints: FailPoints,
    private readonly limits: CommandLimits = { clock: Date.now, maxCommandTimeMS: 0 },
  ) {}

  /** The server's query parameters, as setParameter leaves them. */
  private readonly knobs: QueryKnobs = { internalQueryMaxAllowedDensifyDocs: DEFAULT_MAX_DENSIFY_DOCUMENTS };

  /** Names of every supported command. */
  static commandNames(): string[] {
    return [...HANDLERS.keys()];
  }

  /**
   * Runs `cmd` (an OP_MSG body with `$db`) and says how to answer it: normally a reply, or what the
   * `failCommand` fail point asks for (an error reply without running the
   * command, a closed connection, a delayed reply), or — for a write outside
   * transactions that meets a transaction's lock — an outcome that comes later.
   */
  execute(cmd: Document, server: ServerInfo): CommandOutcome {
    return this.stamped(this.dispatch(cmd, server));
  }

  /** The outcome with the cluster time in its reply, now or when it comes. */
  private stamped(outcome: CommandOutcome): CommandOutcome {
    // A reply comes alone or with a delay (a closed connection or a later outcome has none).
    if (outcome.reply)
      return { reply: withClusterTime(outcome.reply, this.store.changes.now), delayMS: outcome.delayMS };
    if (outcome.later) return { ...outcome, later: outcome.later.then((later) => this.stamped(later)) };
    return outcome;
  }

  private dispatch(cmd: Document, server: ServerInfo): CommandOutcome {
    const name = Object.keys(cmd)[0] ?? '';
    const handler = HANDLERS.get(name);
    if (!handler) {
      const error = UNSUPPORTED_COMMANDS.has(name)
        ? notSupported(`The '${name}' command`)
        : new CommandError('CommandNotFound', `no such command: '${name}'`);
      return { reply: error.toReply() };
    }
    let transaction: Transaction | undefined;
    try {
      const db = cmd.$db;
      if (typeof db !== 'string' || db.length === 0) {
        throw new CommandError('InvalidNamespace', "the command needs a '$db' field naming the database");
      }
      checkDatabaseName(db);
      checkSessionFields(cmd);
      const gossiped = gossipedTime(cmd, Date.now());
      if (gossiped !== undefined) this.store.changes.advance(gossiped);
      setCommandClusterTime(this.store.changes.now);
      this.sessions.localSessions.touch(cmd.lsid);
      if (HANDSHAKE_COMMANDS.has(name)) this.handshake(cmd, server);
      const fail = this.failPoints.failCommand.evaluate({
        name,
        cmd,
        db,
        appName: server.appName,
        sameCommand: (listed) => HANDLERS.get(listed) === handler,
      });
      const delayMS = fail && fail.blockTimeMS > 0 ? fail.blockTimeMS : undefined;
      if (fail?.closeConnection || fail?.errorReply) {
        // As in mongod, the fail point fires before the session is checked out: a transaction
        // neither starts nor aborts, so the driver may retry the command in it.
        return fail.closeConnection ? { closeConnection: true, delayMS } : { reply: fail.errorReply, delayMS };
      }
      if (!OUTSIDE_TRANSACTION.has(name)) transaction = this.sessions.transactionFor(cmd);
      if (cmd.readConcern !== undefined) {
        checkReadConcern(cmd, () => this.store.changes.now);
        if (transaction) checkTransactionReadConcern(cmd);
        else checkSnapshotReadConcern(name, cmd);
      }
      if (transaction && !ALLOWED_IN_TRANSACTION.has(name)) {
        throw new CommandError(
          'OperationNotSupportedInTransaction',
          `Cannot run '${name}' in a multi-document transaction.`,
        );
      }
      const run: PendingCommand = { name, handler, cmd, db, server, transaction, fail, delayMS, since: Date.now() };
      return (
        runChangeStreamCursorCommand(name, cmd, this.context(cmd, db, server, transaction), this.limits) ??
        this.attempt(run) ?? { later: this.waitThenRun(run) }
      );
    } catch (error) {
      transaction?.abort();
      return { reply: errorReply(name, error) };
    }
  }

  /**
   * Runs the command, unless it is a write outside transactions that would
   * meet a lock an open transaction holds: then undefined, having changed nothing.
   */
  private attempt(run: PendingCommand): CommandOutcome | undefined {
    const { name, handler, cmd, db, server, transaction, fail, delayMS } = run;
    try {
      const retried = this.sessions.retriedWrite(name, cmd);
      // A retried write waits for its write concern again, as mongod's does: a fail point's or an unmet one applies.
      if (retried !== undefined && retried.done === undefined) {
        return { reply: withWriteConcern(retried.reply, cmd, fail), delayMS };
      }
      // A retry of a write whose first statements ran runs the others only, as mongod skips executed statements.
      const from = retried?.done ?? 0;
      const statements = from > 0 ? statementSlice(name, cmd, from, statementCount(name, cmd)) : cmd;
      const ctx = this.context(statements, db, server, transaction);
      if (
        !transaction &&
        WAITING_WRITES.has(name) &&
        this.store.locks.held &&
        OperationBudget.run(this.budget(run), () => meetsLock(handler, statements, ctx, this.store))
      )
        return undefined;
      if (!transaction && WAITING_CREATES.has(name) && this.creating(db, cmd[name])) return undefined;
      if (!this.failPoints.onPrimaryTransactionalWrite.armed || !isRetryableWrite(name, cmd)) {
        const reply = OperationBudget.run(this.budget(run), () => this.run(name, handler, statements, ctx));
        // Any failed statement aborts the transaction, as in MongoDB.
        if (transaction && Array.isArray(reply.writeErrors)) transaction.abort();
        const whole = retried === undefined ? reply : joinedWriteReply(retried.reply, reply, from);
        this.sessions.recordWrite(name, cmd, whole);
        return { reply: withWriteConcern(whole, cmd, fail), delayMS };
      }
      return this.failingWrite(run, statements, ctx, retried);
    } catch (error) {
      transaction?.abort();
      return { reply: errorReply(name, error) };
    }
  }

  /** Whether an open transaction is creating collection `name` of database `db`. */
  private creating(db: string, name: unknown): boolean {
    return (
      typeof name === 'string' &&
      this.store.locks.isHeld(LockTable.collectionLock(`${db}.${name}`)) &&
      !this.store.collection(db, name)
    );
  }

  /** Runs the command's handler, or the stage or view that takes the command over. */
  private run(name: string, handler: CommandHandler, cmd: Document, ctx: CommandContext): Document {
    const bound = bindLetVariables(name, cmd);
    return (
      runChangeStream(name, bound, ctx) ??
      runOnView(name, bound, ctx) ??
      // An output stage first: its pipeline may start with a source stage, which it runs.
      runOutputStage(name, bound, ctx) ??
      runSourceStage(name, bound, ctx) ??
      handler(bound, ctx)
    );
  }

  /**
   * A retryable write under the `onPrimaryTransactionalWrite` fail point
   * (`statements`: those of `run`'s command not yet applied): the statements
   * up to the one the fail point fires on run (that one too, unless it fails
   * it before its commit) and are recorded for the retry; then the
   * connection closes, or, with `closeConnection: false`, the reply carries
   * the failed statement's error.
   */
  private failingWrite(
    run: PendingCommand,
    statements: Document,
    ctx: CommandContext,
    retried: RecordedWrite | undefined,
  ): CommandOutcome {
    const { name, handler, cmd, fail, delayMS } = run;
    const from = retried?.done ?? 0;
    const left = statementCount(name, statements);
    const failure = this.failPoints.onPrimaryTransactionalWrite.firing(left);
    const ran = failure === undefined ? left : failure.statement + (failure.failBeforeCommitCode === undefined ? 1 : 0);
    let reply: Document = { n: 0, ok: 1 };
    if (failure === undefined || ran > 0) {
      const part = failure === undefined ? statements : statementSlice(name, statements, 0, ran);
      reply = OperationBudget.run(this.budget(run), () => this.run(name, handler, part, ctx));
      if (retried !== undefined) reply = joinedWriteReply(retried.reply, reply, from);
      this.sessions.recordWrite(name, cmd, reply, ran < left ? from + ran : undefined);
    } else if (retried !== undefined) {
      reply = retried.reply;
    }
    if (failure?.closeConnection) return { closeConnection: true, delayMS };
    if (failure?.failBeforeCommitCode === undefined) return { reply: withWriteConcern(reply, cmd, fail), delayMS };
    const error = {
      code: failure.failBeforeCommitCode,
      errmsg: "Failing write due to the 'onPrimaryTransactionalWrite' fail point",
    };
    // A statement's error is a write error of insert, update and delete, the command's error of findAndModify.
    if (!hasStatementArray(name)) return { reply: { ok: 0, ...error }, delayMS };
    const writeErrors = [...((reply.writeErrors as Document[] | undefined) ?? []), { index: from + ran, ...error }];
    return { reply: { ...reply, writeErrors }, delayMS };
  }

  /**
   * Waits for transactions to release their locks and runs the write again,
   * as MongoDB's write-conflict retry loop does, until it runs, its
   * `maxTimeMS` (counted from its arrival) runs out (MaxTimeMSExpired), or
   * its connection is gone.
   */
  private async waitThenRun(run: PendingCommand): Promise<CommandOutcome> {
    // Valid: the first attempt, which checks it, has run.
    const limit = optionalMaxTimeMS(run.cmd);
    const deadline = limit === undefined ? Number.POSITIVE_INFINITY : run.since + limit;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) {
        return {
          reply: new CommandError('MaxTimeMSExpired', 'operation exceeded time limit').toReply(),
          delayMS: run.delayMS,
        };
      }
      const released = await this.store.locks.waitForRelease(Math.min(left, EXPIRY_POLL_MS));
      if (run.server.closed) return { closeConnection: true };
      if (!released) continue;
      setCommandClusterTime(this.store.changes.now); // another command may have run meanwhile
      const outcome = this.attempt(run);
      if (outcome) return outcome;
    }
  }

  /**
   * The time and memory the command may use: its `maxTimeMS` (less what it
   * spent waiting for a lock) and the server's `maxCommandTimeMS`.
   */
  private budget(run: PendingCommand): OperationBudget {
    const maxTimeMS = optionalMaxTimeMS(run.cmd);
    return new OperationBudget({
      clock: this.limits.clock,
      maxTimeMS: maxTimeMS === undefined ? undefined : Math.max(1, maxTimeMS - (Date.now() - run.since)),
      serverLimitMS: this.limits.maxCommandTimeMS,
      allowDiskUse: typeof run.cmd.allowDiskUse === 'boolean' ? run.cmd.allowDiskUse : undefined,
      maxDensifyDocuments: this.knobs.internalQueryMaxAllowedDensifyDocs,
    });
  }

  /** Remembers the client's `appName` (the driver's `appName` option) for the connection. */
  /**
   * A hello's client metadata: the connection's first hello may carry it (its
   * application name is kept for `failCommand`), a later one may not (mongod's
   * ClientMetadataCannotBeMutated).
   */
  private handshake(cmd: Document, server: ServerInfo): void {
    const seen = server.helloSeen === true;
    server.helloSeen = true;
    if (cmd.client === undefined) return;
    if (seen) {
      throw new CommandError(
        'ClientMetadataCannotBeMutated',
        'The client metadata document may only be sent in the first hello',
      );
    }
    const appName: unknown = (cmd.client as { application?: { name?: unknown } } | undefined)?.application?.name;
    if (typeof appName === 'string') server.appName = appName;
  }

  private context(cmd: Document, db: string, server: ServerInfo, transaction: Transaction | undefined): CommandContext {
    const { store } = this;
    const ctx: CommandContext = {
      db,
      store,
      cursors: this.cursors,
      sessions: this.sessions,
      failPoints: this.failPoints,
      transaction,
      owner: { lsid: cmd.lsid as Document | undefined, txnNumber: cmd.txnNumber },
      server,
      knobs: this.knobs,
      view(name: string, create = false): CollectionView | undefined {
        const collection = create ? ctx.ensureCollection(name).collection : ctx.collection(name);
        if (!collection) return undefined;
        return transaction ? transaction.view(collection) : collection;
      },
      collection: (name) => store.collection(db, name) ?? transaction?.createdCollection(`${db}.${name}`),
      ensureCollection(name, options) {
        const existing = ctx.collection(name);
        if (existing) return { collection: existing, created: false };
        // A write, create or createIndexes of a name a transaction is creating waits for it to end (see attempt).
        if (!transaction) {
          store.locks.assertFree(LockTable.collectionLock(`${db}.${name}`));
          return store.ensureCollection(db, name, options);
        }
        const collection = store.newCollection(db, name, options);
        transaction.addCreated(collection, store);
        return { collection, created: true };
      },
      lookupDocuments: (name, collation) => lookupDocuments(ctx, name, collation),
    };
    return ctx;
  }
}
