import type { Document } from 'bson';

import type { CursorRegistry } from '../cursor/cursor-registry.js';
import type { SessionRegistry } from '../session/session-registry.js';
import type { Transaction } from '../session/transaction.js';
import type { CollectionView } from '../store/collection-view.js';
import type { MemoryStore } from '../store/memory-store.js';
import { ADMIN_COMMANDS } from './admin-commands.js';
import type { CommandContext, CommandHandler, ServerInfo } from './command-context.js';
import { CommandError } from './command-error.js';
import { INDEX_COMMANDS } from './index-commands.js';
import { READ_COMMANDS } from './read-commands.js';
import { TRANSACTION_COMMANDS } from './transaction-commands.js';
import { WRITE_COMMANDS } from './write-commands.js';

const HANDLERS = new Map<string, CommandHandler>(
  Object.entries({
    ...ADMIN_COMMANDS,
    ...READ_COMMANDS,
    ...WRITE_COMMANDS,
    ...INDEX_COMMANDS,
    ...TRANSACTION_COMMANDS,
  }),
);

const OUTSIDE_TRANSACTION = new Set([
  'commitTransaction',
  'abortTransaction',
  'endSessions',
  'hello',
  'isMaster',
  'ismaster',
  'ping',
]);

/**
 * Dispatches one command document to its handler and always returns a
 * reply: MongoDB's `{ ok: 0, code, codeName, errmsg }` on failure, never a
 * thrown error. Runs synchronously from parse to reply, which is what makes
 * findAndModify and upserts atomic.
 */
export class CommandRouter {
  constructor(
    private readonly store: MemoryStore,
    private readonly cursors: CursorRegistry,
    private readonly sessions: SessionRegistry,
  ) {}

  /** Names of every supported command. */
  static commandNames(): string[] {
    return [...HANDLERS.keys()];
  }

  /** Runs `cmd` (an OP_MSG body with `$db`) and returns the reply body. */
  run(cmd: Document, server: ServerInfo): Document {
    const name = Object.keys(cmd)[0] ?? '';
    const handler = HANDLERS.get(name);
    if (!handler) return new CommandError('CommandNotFound', `no such command: '${name}'`).toReply();
    let transaction: Transaction | undefined;
    try {
      const db = cmd.$db;
      if (typeof db !== 'string' || db.length === 0) {
        throw new CommandError('InvalidNamespace', "the command needs a '$db' field naming the database");
      }
      if (!OUTSIDE_TRANSACTION.has(name)) transaction = this.sessions.transactionFor(cmd);
      const reply = handler(cmd, this.context(db, server, transaction));
      // Any failed statement aborts the transaction, as in MongoDB.
      if (transaction && Array.isArray(reply.writeErrors)) transaction.abort();
      return reply;
    } catch (error) {
      transaction?.abort();
      if (error instanceof CommandError) return error.toReply();
      const message = error instanceof Error ? error.message : String(error);
      return new CommandError('InternalError', `embedded server failed on '${name}': ${message}`).toReply();
    }
  }

  private context(db: string, server: ServerInfo, transaction: Transaction | undefined): CommandContext {
    const { store } = this;
    return {
      db,
      store,
      cursors: this.cursors,
      sessions: this.sessions,
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
