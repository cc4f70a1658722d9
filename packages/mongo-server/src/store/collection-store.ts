import type { Document } from 'bson';

import { UUID } from '../bson/bson-library.cjs';
import { Collation } from '../bson/collation.js';
import { encodeIndexValue } from '../bson/index-key-encoder.js';
import type { ChangeLog } from '../changes/change-log.js';
import { LockTable } from '../session/lock-table.js';
import { CollectionIndex, duplicateKeyError, type IndexSpec } from './collection-index.js';
import type { CollectionView } from './collection-view.js';
import { OrderedIndex } from './ordered-index.js';

/** The implicit `_id_` index as listIndexes reports it. */
export const ID_INDEX_SPEC: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/**
 * One collection's committed documents (a Map keyed by the canonical `_id`
 * encoding, which is also the implicit unique `_id_` index) and its indexes.
 * Writes through this class are writes outside any transaction.
 */
export class CollectionStore implements CollectionView {
  readonly ns: string;
  /**
   * The collection's UUID, as listCollections reports it (`info.uuid`) and
   * index build errors name it; a rename within its database keeps it.
   */
  readonly uuid: UUID;
  readonly docs = new Map<string, Document>();
  readonly indexes = new Map<string, CollectionIndex>();
  /** The `_id_` index in key order, for ranges and sorts on `_id`. */
  readonly idIndex = new OrderedIndex(ID_INDEX_SPEC.name, ID_INDEX_SPEC.key);
  /**
   * Each document's natural-order number: given on insert, kept by a
   * replace, so that ordering by it is ordering as {@link docs} iterates.
   * Index entries end with it, which keeps equal keys in natural order.
   */
  private readonly seqs = new Map<string, number>();
  private nextSeq = 0;
  /**
   * With a default collation, the `_id_` index has it too (as on mongod): two
   * string `_id`s equal under it are duplicates. The documents stay keyed by
   * the binary encoding; this unique index holds the collated keys.
   */
  private readonly collatedId?: CollectionIndex;

  constructor(
    readonly db: string,
    readonly name: string,
    private readonly locks: LockTable,
    /** Options given to `create` (reported by listCollections). */
    readonly options: Document = {},
    /** Where writes outside transactions are recorded for change streams. */
    readonly changes?: ChangeLog,
    uuid?: UUID,
  ) {
    this.ns = `${db}.${name}`;
    this.uuid = uuid ?? new UUID();
    const collation = options.collation === undefined ? undefined : Collation.parse(options.collation);
    if (collation) {
      // Only its uniqueness is used: look-ups by _id go through the documents' map or a scan.
      this.collatedId = new CollectionIndex(
        { ...ID_INDEX_SPEC, unique: true, collation: { ...collation.spec } },
        { ordered: false },
      );
    }
  }

  /** Canonical `_id` key of a document. */
  static idKey(doc: Document): string {
    return encodeIndexValue(doc._id);
  }

  /** Unique indexes only. */
  uniqueIndexes(): CollectionIndex[] {
    const unique = [...this.indexes.values()].filter((index) => index.unique);
    return this.collatedId ? [this.collatedId, ...unique] : unique;
  }

  /**
   * Throws what mongod throws generating `doc`'s keys: 17261/17262 when a
   * text index cannot use its language override field, 16766 when a hashed
   * index's field holds an array.
   */
  checkIndexable(doc: Document): void {
    for (const index of this.indexes.values()) index.checkIndexable(doc);
  }

  documents(): Iterable<Document> {
    return this.docs.values();
  }

  /** The natural-order number of the stored document `idKey`. */
  seqOf(idKey: string): number | undefined {
    return this.seqs.get(idKey);
  }

  /** Above every natural-order number given so far (documents a transaction adds come after it). */
  get seqEnd(): number {
    return this.nextSeq;
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
    this.checkIndexable(doc);
    this.rawSet(idKey, doc);
    if (this.changes?.noteWrite())
      this.changes.documentWritten({ db: this.db, coll: this.name, operationType: 'insert', after: doc });
  }

  replace(idKey: string, doc: Document, kind: 'update' | 'replace' = 'update'): void {
    this.assertUnlocked(idKey, doc);
    this.checkUnique(doc, idKey);
    this.checkIndexable(doc);
    const before = this.docs.get(idKey);
    this.rawSet(idKey, doc);
    if (this.changes?.noteWrite())
      this.changes.documentWritten({ db: this.db, coll: this.name, operationType: kind, before, after: doc });
  }

  remove(idKey: string): void {
    this.assertUnlocked(idKey, undefined);
    const before = this.docs.get(idKey);
    this.rawDelete(idKey);
    if (before && this.changes?.noteWrite())
      this.changes.documentWritten({ db: this.db, coll: this.name, operationType: 'delete', before });
  }

  /** Stores `doc` under `idKey` and updates the indexes, without checks. */
  rawSet(idKey: string, doc: Document): void {
    const old = this.docs.get(idKey);
    let seq = this.seqs.get(idKey);
    if (old && seq !== undefined) {
      this.idIndex.replace(idKey, seq, old, doc);
      this.collatedId?.replace(idKey, seq, old, doc);
      for (const index of this.indexes.values()) index.replace(idKey, seq, old, doc);
    } else {
      if (seq === undefined) {
        seq = this.nextSeq++;
        this.seqs.set(idKey, seq);
      }
      this.idIndex.add(idKey, seq, doc);
      this.collatedId?.add(idKey, seq, doc);
      for (const index of this.indexes.values()) index.add(idKey, seq, doc);
    }
    this.docs.set(idKey, doc);
  }

  /** Deletes `idKey` and its index entries, without checks. */
  rawDelete(idKey: string): void {
    const old = this.docs.get(idKey);
    const seq = this.seqs.get(idKey);
    if (!old || seq === undefined) return;
    this.idIndex.remove(seq, old);
    this.collatedId?.remove(idKey, seq, old);
    for (const index of this.indexes.values()) index.remove(idKey, seq, old);
    this.docs.delete(idKey);
    this.seqs.delete(idKey);
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
    for (const doc of this.docs.values()) index.checkIndexable(doc);
    for (const [idKey, doc] of this.docs) index.add(idKey, this.seqs.get(idKey)!, doc);
    this.indexes.set(spec.name, index);
  }

  /** Every index spec, `_id_` first (with the collection's default collation, if it has one). */
  indexSpecs(): IndexSpec[] {
    const id = this.collatedId ? { ...ID_INDEX_SPEC, collation: this.collatedId.spec.collation } : ID_INDEX_SPEC;
    return [id, ...[...this.indexes.values()].map((index) => index.spec)];
  }
}
