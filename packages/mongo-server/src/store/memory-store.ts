import type { Document, UUID } from 'bson';

import { ChangeLog } from '../changes/change-log.js';
import { LockTable } from '../session/lock-table.js';
import { CollectionStore } from './collection-store.js';

/**
 * All databases of one embedded server, in memory. It outlives the TCP
 * listener so a server can be closed and reopened with the same data.
 */
export class MemoryStore {
  readonly locks = new LockTable();
  /** Recent changes, for change streams. */
  readonly changes = new ChangeLog();
  private readonly databases = new Map<string, Map<string, CollectionStore>>();

  /** The collection, or undefined when it does not exist. */
  collection(db: string, name: string): CollectionStore | undefined {
    return this.databases.get(db)?.get(name);
  }

  /**
   * The collection, created (implicitly, as MongoDB does on first write) if
   * missing, with `uuid` if given (a rename within a database keeps it).
   */
  ensureCollection(
    db: string,
    name: string,
    options: Document = {},
    uuid?: UUID,
  ): { collection: CollectionStore; created: boolean } {
    const existing = this.collection(db, name);
    if (existing) return { collection: existing, created: false };
    const collection = this.newCollection(db, name, options, uuid);
    this.adopt(collection);
    return { collection, created: true };
  }

  /**
   * A collection outside the catalog, which no command finds until
   * {@link adopt} puts it there: a transaction's, until it commits.
   */
  newCollection(db: string, name: string, options: Document = {}, uuid?: UUID): CollectionStore {
    return new CollectionStore(db, name, this.locks, options, this.changes, uuid);
  }

  /** Puts `collection`, made by {@link newCollection}, in the catalog; its name must be free. */
  adopt(collection: CollectionStore): void {
    let collections = this.databases.get(collection.db);
    if (!collections) {
      collections = new Map();
      this.databases.set(collection.db, collections);
    }
    if (collections.has(collection.name)) throw new Error(`collection ${collection.ns} already exists`);
    collections.set(collection.name, collection);
  }

  /** Drops a collection; returns the dropped one. */
  dropCollection(db: string, name: string): CollectionStore | undefined {
    const collections = this.databases.get(db);
    const existing = collections?.get(name);
    if (existing) collections!.delete(name);
    if (collections && collections.size === 0) this.databases.delete(db);
    return existing;
  }

  /** Drops a database and all its collections. */
  dropDatabase(db: string): void {
    this.databases.delete(db);
  }

  /** Collections of a database, in creation order. */
  collections(db: string): CollectionStore[] {
    return [...(this.databases.get(db)?.values() ?? [])];
  }

  /** Whether database `db` holds a collection. */
  hasDatabase(db: string): boolean {
    return this.databases.has(db);
  }

  /** Names of databases that hold at least one collection. */
  databaseNames(): string[] {
    return [...this.databases.keys()];
  }

  /** Forgets all data. */
  clear(): void {
    this.databases.clear();
    this.locks.clear();
    this.changes.clear();
  }
}
