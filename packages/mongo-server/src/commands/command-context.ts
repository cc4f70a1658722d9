import type { Document, ObjectId } from 'bson';

import type { CursorOwner, CursorRegistry } from '../cursor/cursor-registry.js';
import type { SessionRegistry } from '../session/session-registry.js';
import type { Transaction } from '../session/transaction.js';
import type { CollectionStore } from '../store/collection-store.js';
import type { CollectionView } from '../store/collection-view.js';
import type { MemoryStore } from '../store/memory-store.js';
import type { FailPoints } from './fail-points.js';

/** Facts about the listening server and the connection that handshake replies report. */
export interface ServerInfo {
  readonly host: string;
  readonly port: number;
  readonly connectionId: number;
  /** hello's `topologyVersion.processId`: new each time the server starts listening, as a restarted mongod's. */
  readonly processId: ObjectId;
  /** `client.application.name` from the connection's handshake (what `failCommand`'s `appName` matches). */
  appName?: string;
  /** Set by the connection's first hello: only that one may carry client metadata. */
  helloSeen?: boolean;
  /**
   * Set once the connection is gone: a write still waiting for a lock then
   * gives up instead of applying what nobody will hear about (mongod kills
   * the operations of a client that disconnected).
   */
  closed?: boolean;
  /** Called once when the connection closes (a change stream's getMore waiting on it stops waiting). */
  onClose?: () => void;
}

/** The server's query parameters that setParameter changes while it runs. */
export interface QueryKnobs {
  /** Documents one `$densify` may generate (mongod's default 500,000). */
  internalQueryMaxAllowedDensifyDocs: number;
}

/** Everything a command handler may touch while it runs (synchronously). */
export interface CommandContext {
  /** The command's `$db`. */
  readonly db: string;
  readonly store: MemoryStore;
  readonly cursors: CursorRegistry;
  readonly sessions: SessionRegistry;
  /** The server's test fail points. */
  readonly failPoints: FailPoints;
  /** The transaction the command runs in, if any. */
  readonly transaction?: Transaction;
  /** The command's session and txnNumber, which a cursor it opens keeps for its getMores. */
  readonly owner: CursorOwner;
  readonly server: ServerInfo;
  /** The server's settable query parameters. */
  readonly knobs: QueryKnobs;
  /** The collection as this command sees it (transaction-aware); created on demand when `create`. */
  view(name: string, create?: boolean): CollectionView | undefined;
  /** The collection `name` of the command's database, one its transaction created included (its committed data). */
  collection(name: string): CollectionStore | undefined;
  /**
   * The collection `name`, created if missing with `options`: inside a
   * transaction, created for it alone until it commits.
   */
  ensureCollection(name: string, options?: Document): { collection: CollectionStore; created: boolean };
  /**
   * What `$lookup`, `$graphLookup` and `$unionWith` read from `name`: a
   * collection's documents, compared under `collation`, or a view's.
   */
  lookupDocuments(name: string, collation?: Document): Document[];
}

/** A command handler: runs to completion without yielding, returns the reply body. */
export type CommandHandler = (cmd: Document, ctx: CommandContext) => Document;
