import type { Document } from 'bson';

import { duplicateKeyError } from '../store/collection-index.js';
import { CollectionStore } from '../store/collection-store.js';
import type { CollectionView } from '../store/collection-view.js';
import { type LockOwner, LockTable } from './lock-table.js';

/**
 * A transaction's view of one collection: committed documents overlaid with
 * the transaction's buffered writes. Writes lock the document and its unique
 * keys, so a concurrent transaction (or plain write) gets WriteConflict.
 */
export class TransactionOverlay implements CollectionView {
  readonly db: string;
  readonly name: string;
  readonly ns: string;
  /** `_id` key → new version, or null when deleted. */
  readonly changes = new Map<string, Document | null>();
  /** index name → encoded key → `_id` key, for this transaction's own versions. */
  private readonly ownKeys = new Map<string, Map<string, string>>();

  constructor(
    readonly collection: CollectionStore,
    private readonly locks: LockTable,
    private readonly owner: LockOwner,
  ) {
    this.db = collection.db;
    this.name = collection.name;
    this.ns = collection.ns;
  }

  *documents(): Iterable<Document> {
    for (const [idKey, doc] of this.collection.docs) {
      if (!this.changes.has(idKey)) yield doc;
      else {
        const changed = this.changes.get(idKey);
        if (changed) yield changed;
      }
    }
    for (const [idKey, doc] of this.changes) if (doc && !this.collection.docs.has(idKey)) yield doc;
  }

  get(idKey: string): Document | undefined {
    if (this.changes.has(idKey)) return this.changes.get(idKey) ?? undefined;
    return this.collection.docs.get(idKey);
  }

  private checkAndLock(idKey: string, doc: Document): void {
    this.locks.acquire(LockTable.documentLock(this.ns, idKey), this.owner);
    for (const index of this.collection.uniqueIndexes()) {
      const own = this.ownKeys.get(index.name);
      for (const key of index.keysOf(doc)) {
        const ownOwner = own?.get(key.encoded);
        const committedOwner = index.ownerOf(key.encoded);
        if (
          (ownOwner !== undefined && ownOwner !== idKey) ||
          (committedOwner !== undefined && committedOwner !== idKey && !this.changes.has(committedOwner))
        ) {
          throw index.duplicateError(this.ns, key);
        }
        this.locks.acquire(LockTable.keyLock(this.ns, index.name, key.encoded), this.owner);
      }
    }
  }

  private forgetKeys(idKey: string): void {
    const previous = this.changes.get(idKey);
    if (!previous) return;
    for (const index of this.collection.uniqueIndexes()) {
      const own = this.ownKeys.get(index.name);
      for (const key of index.keysOf(previous)) if (own?.get(key.encoded) === idKey) own.delete(key.encoded);
    }
  }

  private remember(idKey: string, doc: Document | null): void {
    this.forgetKeys(idKey);
    this.changes.set(idKey, doc);
    if (!doc) return;
    for (const index of this.collection.uniqueIndexes()) {
      let own = this.ownKeys.get(index.name);
      if (!own) this.ownKeys.set(index.name, (own = new Map()));
      for (const key of index.keysOf(doc)) own.set(key.encoded, idKey);
    }
  }

  insert(doc: Document): void {
    const idKey = CollectionStore.idKey(doc);
    this.locks.acquire(LockTable.documentLock(this.ns, idKey), this.owner);
    if (this.get(idKey)) throw duplicateKeyError(this.ns, '_id_', { _id: 1 }, { _id: doc._id });
    this.checkAndLock(idKey, doc);
    this.remember(idKey, doc);
  }

  replace(idKey: string, doc: Document): void {
    this.checkAndLock(idKey, doc);
    this.remember(idKey, doc);
  }

  remove(idKey: string): void {
    this.locks.acquire(LockTable.documentLock(this.ns, idKey), this.owner);
    this.remember(idKey, null);
  }

  /** Re-checks unique indexes against committed data; throws DuplicateKey on a violation. */
  validateCommit(): void {
    for (const [idKey, doc] of this.changes) {
      if (!doc) continue;
      this.collection.checkUnique(doc, idKey, (owner) => this.changes.has(owner));
    }
  }

  /** Applies the buffered writes to the committed collection (after {@link validateCommit}). */
  apply(): void {
    // Remove every old version first so keys moving between documents never collide.
    for (const idKey of this.changes.keys()) this.collection.rawDelete(idKey);
    for (const [idKey, doc] of this.changes) if (doc) this.collection.rawSet(idKey, doc);
  }
}
