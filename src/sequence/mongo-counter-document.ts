import type { SequenceCounterSnapshot } from './sequence-counter-store.interface.js';

/**
 * A counter document. The value is `base + seq`: `seq` is what `$inc` adds to,
 * `base` (= start − step) is written once by `$setOnInsert` when the counter is
 * created. Both are int64. A document without `base` (imported by hand) counts
 * as `base: 0`, so `{ _id: 'orders', seq: 41 }` continues at 42.
 */
export interface CounterDocument {
  _id: string;
  seq: bigint | number;
  base?: bigint | number;
}

/** What the MongoDB store's `get()` read: the value and the exact fields its `compareAndSet()` matches on. */
export interface CounterDocumentSnapshot extends SequenceCounterSnapshot {
  readonly base: bigint;
  readonly seq: bigint;
  readonly hasBase: boolean;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Reads a counter document (int64 fields as `bigint`, or safe numbers). */
export function counterSnapshot(key: string, doc: CounterDocument): CounterDocumentSnapshot {
  const base = toBigInt(key, 'base', doc.base ?? 0);
  const seq = toBigInt(key, 'seq', doc.seq);
  return { value: base + seq, base, seq, hasBase: doc.base !== undefined };
}

/** The document fields behind a snapshot that `counterSnapshot()` made. */
export function ownCounterSnapshot(key: string, snapshot: SequenceCounterSnapshot): CounterDocumentSnapshot {
  const own = snapshot as Partial<CounterDocumentSnapshot>;
  if (typeof own.base !== 'bigint' || typeof own.seq !== 'bigint' || typeof own.hasBase !== 'boolean') {
    throw new TypeError(`Sequence "${key}": compareAndSet() takes a snapshot that this store's get() returned.`);
  }
  return own as CounterDocumentSnapshot;
}

/**
 * An int64 for a filter: a plain number when it is safe. MongoDB compares
 * numbers by value across int32, double and int64, so it matches the stored
 * int64 all the same.
 */
export function int64FilterValue(value: bigint): number | bigint {
  return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value;
}

function toBigInt(key: string, field: string, value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new Error(
    `Counter document "${key}" in the counters collection has ${field} = ${String(value)}, not an integer; fix or delete it.`,
  );
}
