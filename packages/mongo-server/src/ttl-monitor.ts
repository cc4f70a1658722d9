import type { Document } from 'bson';
import { resolve } from 'mingo/util';

import { CollectionStore } from './store/collection-store.js';
import type { MemoryStore } from './store/memory-store.js';

/** mongod's `ttlMonitorSleepSecs` default: one pass a minute. */
export const DEFAULT_TTL_MONITOR_SLEEP_SECS = 60;

/** The time a document expires under a TTL index on `field`: its earliest date there, plus the index's delay. */
function expiresAt(doc: Document, field: string, expireAfterSeconds: number): number | undefined {
  const value: unknown = resolve(doc, field);
  const dates = (Array.isArray(value) ? value : [value]).filter((v): v is Date => v instanceof Date);
  if (dates.length === 0) return undefined;
  // A loop, not Math.min(...dates): an array of a million dates would overflow the call stack.
  let earliest = Infinity;
  for (const date of dates) earliest = Math.min(earliest, date.getTime());
  return earliest + expireAfterSeconds * 1000;
}

/**
 * MongoDB's TTL monitor: every `sleepSecs` it removes the documents whose
 * date field (of a single-field index with `expireAfterSeconds`) lies that
 * many seconds in the past. Documents without a date there never expire. A
 * document an open transaction holds is left for the next pass. Its timer is
 * `unref()`ed: it never keeps the process alive.
 */
export class TtlMonitor {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: MemoryStore,
    private readonly clock: () => number,
    private readonly sleepSecs = DEFAULT_TTL_MONITOR_SLEEP_SECS,
  ) {}

  start(): void {
    if (this.timer || this.sleepSecs <= 0) return;
    this.timer = setInterval(() => this.sweep(), this.sleepSecs * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One pass over every TTL index; returns how many documents it removed. */
  sweep(): number {
    const now = this.clock();
    let removed = 0;
    for (const db of this.store.databaseNames()) {
      for (const collection of this.store.collections(db)) {
        for (const spec of collection.indexSpecs()) {
          const fields = Object.keys(spec.key);
          if (typeof spec.expireAfterSeconds !== 'number' || fields.length !== 1) continue;
          removed += this.expire(collection, fields[0]!, spec.expireAfterSeconds, now);
        }
      }
    }
    return removed;
  }

  private expire(collection: CollectionStore, field: string, seconds: number, now: number): number {
    const expired = [...collection.documents()].filter((doc) => (expiresAt(doc, field, seconds) ?? Infinity) <= now);
    let removed = 0;
    for (const doc of expired) {
      try {
        collection.remove(CollectionStore.idKey(doc));
        removed++;
      } catch {
        // Held by an open transaction: the next pass removes it.
      }
    }
    return removed;
  }
}
