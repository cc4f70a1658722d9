import { CommandError } from '../commands/command-error.js';

/** What holds locks: an open transaction, which may outlive its time limit. */
export interface LockOwner {
  /** Whether it has run past its lifetime limit (MongoDB's `transactionLifetimeLimitSeconds`). */
  expired(): boolean;
  /** Aborts it, releasing its locks. */
  abort(): void;
}

/**
 * Which open transaction owns a document (or a unique key) it has written.
 * A second writer gets WriteConflict, which `withTransaction` retries.
 */
export class LockTable {
  private readonly owners = new Map<string, LockOwner>();

  /** Lock name of a document. */
  static documentLock(ns: string, idKey: string): string {
    return `${ns}\u0000${idKey}`;
  }

  /** Lock name of a unique index key. */
  static keyLock(ns: string, indexName: string, encoded: string): string {
    return `${ns}\u0001${indexName}\u0000${encoded}`;
  }

  /** Takes `lock` for `owner`; throws WriteConflict if another owner holds it. */
  acquire(lock: string, owner: LockOwner): void {
    const holder = this.liveHolder(lock);
    if (holder !== undefined && holder !== owner) throw CommandError.writeConflict();
    this.owners.set(lock, owner);
  }

  /** Throws WriteConflict when a transaction holds `lock` (for writes outside transactions). */
  assertFree(lock: string): void {
    if (this.owners.size > 0 && this.liveHolder(lock) !== undefined) {
      throw new CommandError(
        'WriteConflict',
        'Write conflict: the document is being modified by an open transaction. Retry once it commits or aborts.',
      );
    }
  }

  /**
   * The holder of `lock`, after aborting it if it ran past its lifetime: a
   * client that died inside a transaction must not keep its documents locked
   * for ever (MongoDB aborts such transactions after 60 s by default).
   */
  private liveHolder(lock: string): LockOwner | undefined {
    const holder = this.owners.get(lock);
    if (holder !== undefined && holder.expired()) {
      holder.abort();
      return undefined;
    }
    return holder;
  }

  /** Drops every lock `owner` holds. */
  releaseAll(owner: LockOwner): void {
    for (const [lock, holder] of this.owners) if (holder === owner) this.owners.delete(lock);
  }

  /** Drops all locks (server stop). */
  clear(): void {
    this.owners.clear();
  }
}
