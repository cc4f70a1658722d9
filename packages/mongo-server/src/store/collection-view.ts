import type { Document } from 'bson';

/**
 * What command handlers read and write through: either the committed
 * collection or a transaction's view of it (committed data plus its own
 * buffered writes). Every write enforces unique indexes and write conflicts.
 */
export interface CollectionView {
  readonly db: string;
  readonly name: string;
  /** `<db>.<collection>`. */
  readonly ns: string;
  /** Visible documents in natural (insertion) order. Documents are never mutated in place. */
  documents(): Iterable<Document>;
  /** The visible document whose `_id` encodes to `idKey`. */
  get(idKey: string): Document | undefined;
  /** Inserts `doc` (which has an `_id`); throws DuplicateKey/WriteConflict. */
  insert(doc: Document): void;
  /**
   * Replaces the document stored under `idKey`; throws DuplicateKey/WriteConflict.
   * `kind` is what change streams report: an `update` (operators, pipeline) or a `replace`.
   */
  replace(idKey: string, doc: Document, kind?: 'update' | 'replace'): void;
  /** Removes the document stored under `idKey`. */
  remove(idKey: string): void;
}
