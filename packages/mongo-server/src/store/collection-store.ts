import type { Document } from 'bson';

import { encodeIndexValue } from '../bson/index-key-encoder.js';
import { LockTable } from '../session/lock-table.js';
import { CollectionIndex, duplicateKeyError, type IndexSpec } from './collection-index.js';
import type { CollectionView } from './collection-view.js';

/** The implicit `_id_` index as listIndexes reports it. */
export const ID_INDEX_SPEC: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/**
 * One collection's committed documents (a Map keyed by the canonical `_id`
 * encoding, which is also the implicit unique `_id_` index) and its indexes.
 * Writes through this class are writes outside any transaction.
 */
export class CollectionStore implements CollectionView {
  readonly ns: string;
  readonly docs = new Map<string, Document>();
  readonly indexes = new Map<string, CollectionIndex>();

  constructor(
    readonly db: string,
    readonly name: string,
    private readonly locks: LockTable,
    /** Options given to `create` (reported by listCollections). */
    readonly options: Document = {},
  ) {
    this.ns = `${db}.${name}`;
  }

  /** Canonical `_id` key of a document. */
  static idKey(doc: Document): string {
    return encodeIndexValue(doc._id);
  }

  /** Unique indexes only. */
  uniqueIndexes(): CollectionIndex[] {
    return [...this.indexes.values()].filter((index) => index.unique);
  }

  documents(): Iterable<Document> {
    return this.docs.values();
  }

  get(idKey: string): Document | undefined {
    return this.docs.get(idKey);
  }

  /** Throws the E11000 error if `doc` would duplicate a committed key (ignoring `self`). */
  checkUnique(doc: Document, self: string | undefined, skip?: (owner: string) => boolean): void {
    for (const index of this.uniqueIndexes()) {
      for (const key of index.keysOf(doc)) {
        const owner = index.ownerOf(key.encoded);
        if (owner !== undefined && owner !== self && !skip?.(owner)) throw index.duplicateError(this.ns, key);
      }
    }
  }

  private assertUnlocked(idKey: string, doc: Document | undefined): void {
    this.locks.assertFree(LockTable.documentLock(this.ns, idKey));
    if (!doc) return;
    for (const index of this.uniqueIndexes()) {
      for (const key of index.keysOf(doc)) this.locks.assertFree(LockTable.keyLock(this.ns, index.name, key.encoded));
    }
  }

  insert(doc: Document): void {
    const idKey = CollectionStore.idKey(doc);
    this.assertUnlocked(idKey, doc);
    if (this.docs.has(idKey)) throw duplicateKeyError(this.ns, '_id_', { _id: 1 }, { _id: doc._id });
    this.checkUnique(doc, idKey);
    this.rawSet(idKey, doc);
  }

  replace(idKey: string, doc: Document): void {
    this.assertUnlocked(idKey, doc);
    this.checkUnique(doc, idKey);
    this.rawSet(idKey, doc);
  }

  remove(idKey: string): void {
    this.assertUnlocked(idKey, undefined);
    this.rawDelete(idKey);
  }

  /** Stores `doc` under `idKey` and updates the unique indexes, without checks. */
  rawSet(idKey: string, doc: Document): void {
    const old = this.docs.get(idKey);
    for (const index of this.indexes.values()) {
      if (old) index.remove(idKey, old);
      index.add(idKey, doc);
    }
    this.docs.set(idKey, doc);
  }

  /** Deletes `idKey` and its index entries, without checks. */
  rawDelete(idKey: string): void {
    const old = this.docs.get(idKey);
    if (!old) return;
    for (const index of this.indexes.values()) index.remove(idKey, old);
    this.docs.delete(idKey);
  }

  /**
   * Builds `spec` over the existing documents. Throws DuplicateKey (and adds
   * nothing) when the data already violates a unique index.
   */
  addIndex(spec: IndexSpec): void {
    const index = new CollectionIndex(spec);
    if (index.unique) {
      const seen = new Map<string, string>();
      for (const [idKey, doc] of this.docs) {
        for (const key of index.keysOf(doc)) {
          if (seen.has(key.encoded) && seen.get(key.encoded) !== idKey) throw index.duplicateError(this.ns, key);
          seen.set(key.encoded, idKey);
        }
      }
    }
    for (const [idKey, doc] of this.docs) index.add(idKey, doc);
    this.indexes.set(spec.name, index);
  }

  /** Every index spec, `_id_` first. */
  indexSpecs(): IndexSpec[] {
    return [ID_INDEX_SPEC, ...[...this.indexes.values()].map((index) => index.spec)];
  }
}
