import type { Document } from 'bson';

import type { CursorRegistry } from '../cursor/cursor-registry.js';
import type { SessionRegistry } from '../session/session-registry.js';
import type { Transaction } from '../session/transaction.js';
import type { CollectionView } from '../store/collection-view.js';
import type { MemoryStore } from '../store/memory-store.js';
import { ADMIN_COMMANDS } from './admin-commands.js';
import type { CommandContext, CommandHandler, ServerInfo } from './command-context.js';
import { CommandError } from './command-error.js';
import type { FailCommandFailPoint } from './fail-command-fail-point.js';
import { INDEX_COMMANDS } from './index-commands.js';
import { READ_COMMANDS } from './read-commands.js';
import { TEST_COMMANDS } from './test-commands.js';
import { TRANSACTION_COMMANDS } from './transaction-commands.js';
import { WRITE_COMMANDS } from './write-commands.js';

const HANDLERS = new Map<string, CommandHandler>(
  Object.entries({
    ...ADMIN_COMMANDS,
    ...READ_COMMANDS,
    ...WRITE_COMMANDS,
    ...INDEX_COMMANDS,
    ...TRANSACTION_COMMANDS,
    ...TEST_COMMANDS,
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
 * Dispatches one command document to its handler and always returns a
 * reply: MongoDB's `{ ok: 0, code, codeName, errmsg }` on failure, never a
 * thrown error. Runs synchronously from parse to reply, which is what makes
 * findAndModify and upserts atomic (a `blockConnection` fail point only
 * delays sending the reply).
 */
export class CommandRouter {
  constructor(
    private readonly store: MemoryStore,
    private readonly cursors: CursorRegistry,
    private readonly sessions: SessionRegistry,
    private readonly failPoint: FailCommandFailPoint,
  ) {}

  /** Names of every supported command. */
  static commandNames(): string[] {
    return [...HANDLERS.keys()];
  }

  /**
   * Runs `cmd` (an OP_MSG body with `$db`) and says how to answer it: normally a reply, or what the
   * `failCommand` fail point asks for (an error reply without running the
   * command, a closed connection, a delayed reply).
   */
  execute(cmd: Document, server: ServerInfo): CommandOutcome {
    const name = Object.keys(cmd)[0] ?? '';
    const handler = HANDLERS.get(name);
    if (!handler) return { reply: new CommandError('CommandNotFound', `no such command: '${name}'`).toReply() };
    let transaction: Transaction | undefined;
    try {
      const db = cmd.$db;
      if (typeof db !== 'string' || db.length === 0) {
        throw new CommandError('InvalidNamespace', "the command needs a '$db' field naming the database");
      }
      if (HANDSHAKE_COMMANDS.has(name)) this.recordAppName(cmd, server);
      if (!OUTSIDE_TRANSACTION.has(name)) transaction = this.sessions.transactionFor(cmd);
      const fail = this.failPoint.evaluate({
        name,
        cmd,
        db,
        appName: server.appName,
        sameCommand: (listed) => HANDLERS.get(listed) === handler,
      });
      const delayMS = fail && fail.blockTimeMS > 0 ? fail.blockTimeMS : undefined;
      if (fail?.closeConnection || fail?.errorReply) {
        // The command fails before it runs; inside a transaction that aborts it, as any error does.
        transaction?.abort();
        return fail.closeConnection ? { closeConnection: true, delayMS } : { reply: fail.errorReply, delayMS };
      }
      const retried = this.sessions.retriedWrite(name, cmd);
      if (retried !== undefined) return { reply: retried, delayMS };
      const reply = handler(cmd, this.context(db, server, transaction));
      // Any failed statement aborts the transaction, as in MongoDB.
      if (transaction && Array.isArray(reply.writeErrors)) transaction.abort();
      this.sessions.recordWrite(name, cmd, reply);
      if (fail?.writeConcernError) {
        reply.writeConcernError = fail.writeConcernError;
        if (fail.writeConcernLabels?.length) reply.errorLabels = fail.writeConcernLabels;
      }
      return { reply, delayMS };
    } catch (error) {
      transaction?.abort();
      if (error instanceof CommandError) return { reply: error.toReply() };
      const message = error instanceof Error ? error.message : String(error);
      return {
        reply: new CommandError('InternalError', `embedded server failed on '${name}': ${message}`).toReply(),
      };
    }
  }

  /** Remembers the client's `appName` (the driver's `appName` option) for the connection. */
  private recordAppName(cmd: Document, server: ServerInfo): void {
    const appName: unknown = (cmd.client as { application?: { name?: unknown } } | undefined)?.application?.name;
    if (typeof appName === 'string') server.appName = appName;
  }

  private context(db: string, server: ServerInfo, transaction: Transaction | undefined): CommandContext {
    const { store } = this;
    return {
      db,
      store,
      cursors: this.cursors,
      sessions: this.sessions,
      failPoint: this.failPoint,
      transaction,
      server,
      view(name: string, create = false): CollectionView | undefined {
        const collection = create ? store.ensureCollection(db, name).collection : store.collection(db, name);
        if (!collection) return undefined;
        return transaction ? transaction.view(collection) : collection;
      },
    };
  }
}
