import type { Document } from 'bson';

import type { DocumentChange } from '../changes/change-log.js';
import { duplicateKeyError } from '../store/collection-index.js';
import { CollectionStore } from '../store/collection-store.js';
import type { CollectionView } from '../store/collection-view.js';
import { LockTable } from './lock-table.js';

/**
 * Takes (or, for a look-ahead, only checks) the lock of a document or a
 * unique key; throws when another transaction holds it.
 */
export type LockStep = (lock: string) => void;

/**
 * A transaction's view of one collection: committed documents overlaid with
 * the transaction's buffered writes. Writes lock the document and its unique
 * keys, so a concurrent transaction gets WriteConflict (and a plain write
 * waits). A write outside transactions also runs once on a scratch overlay
 * whose {@link LockStep} only checks, to learn whether it would have to wait.
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
    private readonly lock: LockStep,
    /** Records each write, in order, for the change events of the commit (a look-ahead records nothing). */
    private readonly recordChange?: (change: DocumentChange) => void,
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

  /**
   * Locks the document and each unique key it has, before any duplicate
   * check: the same order as {@link CollectionStore}, so a look-ahead meets
   * a lock exactly where the real write would.
   */
  private lockKeys(idKey: string, doc: Document | undefined): void {
    this.lock(LockTable.documentLock(this.ns, idKey));
    if (!doc) return;
    for (const index of this.collection.uniqueIndexes()) {
      for (const key of index.keysOf(doc)) this.lock(LockTable.keyLock(this.ns, index.name, key.encoded));
    }
  }

  /** Passes a write on for change events, only while some change stream has started the log. */
  private record(change: DocumentChange): void {
    if (this.recordChange && this.collection.changes?.active) this.recordChange(change);
  }

  /** Throws DuplicateKey when `doc` takes a unique key that a committed or own document keeps. */
  private checkUnique(idKey: string, doc: Document): void {
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
    this.lockKeys(idKey, doc);
    if (this.get(idKey)) throw duplicateKeyError(this.ns, '_id_', { _id: 1 }, { _id: doc._id });
    this.checkUnique(idKey, doc);
    this.collection.checkIndexable(doc);
    this.remember(idKey, doc);
    this.record({ db: this.db, coll: this.name, operationType: 'insert', after: doc });
  }

  replace(idKey: string, doc: Document, kind: 'update' | 'replace' = 'update'): void {
    this.lockKeys(idKey, doc);
    this.checkUnique(idKey, doc);
    this.collection.checkIndexable(doc);
    const before = this.get(idKey);
    this.remember(idKey, doc);
    this.record({ db: this.db, coll: this.name, operationType: kind, before, after: doc });
  }

  remove(idKey: string): void {
    this.lockKeys(idKey, undefined);
    const before = this.get(idKey);
    this.remember(idKey, null);
    if (before) this.record({ db: this.db, coll: this.name, operationType: 'delete', before });
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
