import type { Document } from 'bson';

import type { DocumentChange } from '../changes/change-log.js';
import { CommandError } from '../commands/command-error.js';
import type { CollectionStore } from '../store/collection-store.js';
import type { MemoryStore } from '../store/memory-store.js';
import { type LockOwner, LockTable } from './lock-table.js';
import { TransactionOverlay } from './transaction-overlay.js';

/** Lifecycle of a {@link Transaction}. */
export type TransactionState = 'in-progress' | 'committed' | 'aborted';

/**
 * One multi-document transaction (`lsid` + `txnNumber`): writes are buffered
 * per collection, visible to the session's own reads, applied on commit and
 * discarded on abort.
 */
export class Transaction implements LockOwner {
  state: TransactionState = 'in-progress';
  private readonly overlays = new Map<string, TransactionOverlay>();
  /** Its writes in the order they ran, which change streams see after the commit. */
  private changes: DocumentChange[] = [];
  /**
   * The collections it created (by `create`, `createIndexes` or a first
   * write), by namespace, and the catalog they join at the commit: as in
   * mongod, no other client sees them, or their indexes, before that.
   */
  private created = new Map<string, CollectionStore>();
  private catalog?: MemoryStore;

  constructor(
    readonly txnNumber: bigint,
    private readonly locks: LockTable,
    /** When it is aborted if still open, in the clock's milliseconds. */
    private readonly deadline = Number.POSITIVE_INFINITY,
    private readonly clock: () => number = Date.now,
    /** The session id, which its change events carry. */
    private readonly lsid?: Document,
  ) {}

  /** Whether it is still open past its deadline. */
  expired(): boolean {
    return this.state === 'in-progress' && this.clock() >= this.deadline;
  }

  /** This transaction's view of `collection`. */
  view(collection: CollectionStore): TransactionOverlay {
    let overlay = this.overlays.get(collection.ns);
    if (!overlay || overlay.collection !== collection) {
      overlay = new TransactionOverlay(
        collection,
        (lock) => this.locks.acquire(lock, this),
        (change) => this.changes.push(change),
      );
      this.overlays.set(collection.ns, overlay);
    }
    return overlay;
  }

  /** The collection `ns` if this transaction created it. */
  createdCollection(ns: string): CollectionStore | undefined {
    return this.created.get(ns);
  }

  /**
   * Keeps `collection` (from `catalog.newCollection`) for this transaction
   * until it commits, holding its name: another transaction that creates it
   * gets WriteConflict, a write outside transactions waits.
   */
  addCreated(collection: CollectionStore, catalog: MemoryStore): void {
    this.locks.acquire(LockTable.collectionLock(collection.ns), this);
    this.created.set(collection.ns, collection);
    this.catalog = catalog;
  }

  /**
   * Validates unique indexes again and that no one else created a
   * collection of the same name meanwhile (WriteConflict, which
   * `withTransaction` retries), then publishes the collections it created and
   * applies every buffered write atomically.
   */
  commit(): void {
    try {
      for (const collection of this.created.values()) {
        if (this.catalog?.collection(collection.db, collection.name)) throw CommandError.writeConflict();
      }
      for (const overlay of this.overlays.values()) overlay.validateCommit();
    } catch (error) {
      this.abort();
      throw error;
    }
    for (const collection of this.created.values()) this.catalog?.adopt(collection);
    // As on mongod, a commit moves the cluster time only when the transaction wrote (its oplog entry).
    const overlays = [...this.overlays.values()];
    const wrote = this.created.size > 0 || overlays.some((overlay) => overlay.changes.size > 0);
    const log = this.catalog?.changes ?? overlays[0]?.collection.changes;
    this.created = new Map();
    for (const overlay of overlays) overlay.apply();
    if (wrote) log?.transactionCommitted(this.changes, this.lsid, this.txnNumber);
    this.changes = [];
    this.state = 'committed';
    this.locks.releaseAll(this);
    this.overlays.clear();
  }

  /** Discards the buffered writes. */
  abort(): void {
    if (this.state === 'in-progress') this.state = 'aborted';
    this.locks.releaseAll(this);
    this.overlays.clear();
    this.changes = [];
    this.created = new Map();
  }
}
