import { CommandError } from '../commands/command-error.js';
import { LockBusyError } from './lock-busy-error.js';

/** What holds locks: an open transaction, which may outlive its time limit. */
export interface LockOwner {
  /** Whether it has run past its lifetime limit (MongoDB's `transactionLifetimeLimitSeconds`). */
  expired(): boolean;
  /** Aborts it, releasing its locks. */
  abort(): void;
}

/**
 * Which open transaction owns a document (or a unique key) it has written.
 * A second transaction gets WriteConflict, which `withTransaction` retries;
 * a write outside transactions waits for the release ({@link waitForRelease}).
 */
export class LockTable {
  private readonly owners = new Map<string, LockOwner>();
  /** Settled by the next release; shared by every waiting write. */
  private release?: { promise: Promise<void>; resolve: () => void };

  /** Lock name of a document. */
  static documentLock(ns: string, idKey: string): string {
    return `${ns}\u0000${idKey}`;
  }

  /** Lock name of a unique index key. */
  static keyLock(ns: string, indexName: string, encoded: string): string {
    return `${ns}\u0001${indexName}\u0000${encoded}`;
  }

  /** Lock name of a collection's name, which a transaction that creates the collection holds until it ends. */
  static collectionLock(ns: string): string {
    return `${ns}\u0002`;
  }

  /** Whether any lock is held, i.e. whether a write outside transactions must look before it writes. */
  get held(): boolean {
    return this.owners.size > 0;
  }

  /** Takes `lock` for `owner`; throws WriteConflict if another owner holds it. */
  acquire(lock: string, owner: LockOwner): void {
    const holder = this.liveHolder(lock);
    if (holder !== undefined && holder !== owner) throw CommandError.writeConflict();
    this.owners.set(lock, owner);
  }

  /** Whether a transaction holds `lock`. */
  isHeld(lock: string): boolean {
    return this.owners.size > 0 && this.liveHolder(lock) !== undefined;
  }

  /** Throws {@link LockBusyError} when a transaction holds `lock` (for writes outside transactions). */
  assertFree(lock: string): void {
    if (this.owners.size > 0 && this.liveHolder(lock) !== undefined) throw new LockBusyError(lock);
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

  /** Drops every lock `owner` holds, and wakes the writes waiting for a release. */
  releaseAll(owner: LockOwner): void {
    let released = false;
    for (const [lock, holder] of this.owners) {
      if (holder !== owner) continue;
      this.owners.delete(lock);
      released = true;
    }
    if (released) this.wake();
  }

  /**
   * Resolves `true` once some transaction releases its locks (commit, abort,
   * lifetime expiry), or `false` after `timeoutMs`. On the timeout it first
   * aborts the transactions past their lifetime, since nothing else may come
   * to look at their locks (then it resolves `true`).
   */
  waitForRelease(timeoutMs: number): Promise<boolean> {
    this.release ??= withResolvers();
    const released = this.release.promise.then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(this.abortExpired()), Math.max(0, timeoutMs));
      timer.unref();
    });
    return Promise.race([released, timedOut]).finally(() => clearTimeout(timer));
  }

  /** Aborts every owner past its lifetime; whether any was. */
  private abortExpired(): boolean {
    let aborted = false;
    for (const owner of new Set(this.owners.values())) {
      if (!owner.expired()) continue;
      owner.abort();
      aborted = true;
    }
    return aborted;
  }

  private wake(): void {
    const release = this.release;
    this.release = undefined;
    release?.resolve();
  }

  /** Drops all locks (server stop) and wakes the waiting writes. */
  clear(): void {
    this.owners.clear();
    this.wake();
  }
}

/** `Promise.withResolvers()`, which Node 20 lacks. */
function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}
