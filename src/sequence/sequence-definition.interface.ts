import type { SequenceResetPeriod } from './sequence-key.js';

/**
 * Options of one sequence, registered in `SequenceModule.forRoot({ definitions })`
 * or with `SequenceService.define()`. Names that were never defined use the defaults.
 */
export interface SequenceDefinition {
  /**
   * First value of a new counter (and after `reset()`). Changing it later does
   * not move counters that already exist: each counter stores its own offset.
   * @default 1
   */
  start?: number | bigint;
  /**
   * Increment, a positive integer. May be changed later; existing counters
   * go on from their current value with the new step.
   * @default 1
   */
  step?: number | bigint;
  /**
   * Pattern of `nextFormatted()`, e.g. `ORD-{YYYY}-{seq:6}`. See `SequenceFormat`.
   * @default '{seq}'
   */
  format?: string;
  /**
   * Starts a fresh counter every year, month or day (in `timeZone`); the
   * period becomes part of the counter key (`orders:2026`).
   * @default 'never'
   */
  resetEvery?: SequenceResetPeriod;
  /**
   * IANA time zone of `resetEvery` and of the date tokens of `format`.
   * @default the module's `timeZone`, itself 'UTC' by default
   */
  timeZone?: string;
  /**
   * Cached allocator: reserve blocks of this many numbers in one round trip
   * and hand them out from memory (like PostgreSQL's `CACHE` or Hibernate's
   * pooled optimizer). Numbers stay unique and increase within one process,
   * but are not gap-free (a restart loses the rest of a block) nor ordered
   * across processes. Cannot be combined with `session`. `0` disables it.
   * @default 0
   */
  cache?: number;
  /**
   * Return values as `bigint` instead of `number`, for counters that may pass
   * 2^53 − 1. Counters are always stored as int64, so switching later is safe.
   * In number mode a value beyond 2^53 − 1 throws `SequenceOverflowError`.
   * @default false
   */
  bigint?: boolean;
}
