import type { ClientSession } from 'mongoose';

/** A counter as a store read it: its value, plus whatever the store needs to recognise that exact state. */
export interface SequenceCounterSnapshot {
  /** The last number issued from the counter; the next one is `value + step`. */
  readonly value: bigint;
}

/**
 * Where `SequenceService` keeps its counters: one signed 64-bit integer per
 * key (`orders`, `invoices:tenant-42:2026`). The service owns names, scopes,
 * formats and the cache; a store only counts. `MongoSequenceCounterStore` is
 * the default; provide another under `SEQUENCE_COUNTER_STORE` to replace it.
 *
 * Every operation on one key must be atomic against every other, across all
 * processes sharing the store, or two callers may receive the same number.
 * `session` is passed through from the caller's options (MongoDB transactions);
 * a store that cannot take part in one should reject a call that has it.
 */
export interface SequenceCounterStore {
  /**
   * Adds `amount` to counter `key` and resolves to the new value. A missing
   * counter is first created at `initial`, in the same atomic step, so the
   * first call resolves to `initial + amount`.
   */
  increment(key: string, amount: bigint, initial: bigint, session?: ClientSession): Promise<bigint>;

  /** Reads counter `key`; `null` when it does not exist. */
  get(key: string, session?: ClientSession): Promise<SequenceCounterSnapshot | null>;

  /**
   * Sets counter `key` to `value` only if it is still in the state `expected`
   * that `get()` returned (`null`: only if it still does not exist). Resolves
   * to `false`, writing nothing, when it changed in between.
   */
  compareAndSet(
    key: string,
    expected: SequenceCounterSnapshot | null,
    value: bigint,
    session?: ClientSession,
  ): Promise<boolean>;

  /** Sets counter `key` to `value` whatever it was, creating it if missing. */
  set(key: string, value: bigint, session?: ClientSession): Promise<void>;

  /** Deletes counter `key`, so the next `increment()` starts from `initial` again. Missing is not an error. */
  delete(key: string, session?: ClientSession): Promise<void>;

  /**
   * Deletes counter `name` and every counter whose key starts with `name:`
   * (all scopes and periods of one sequence) and resolves to how many it
   * deleted. Optional: `SequenceService.resetAll()` needs it.
   */
  deleteAll?(name: string, session?: ClientSession): Promise<number>;
}
