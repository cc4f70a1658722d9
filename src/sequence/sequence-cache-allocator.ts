import { SEQUENCE_KEY_SEPARATOR, SEQUENCE_MAX_CACHED_KEYS } from './sequence.constants.js';

/** A reserved range, as the allocator hands it out. */
export interface ReservedRange {
  first: bigint;
  last: bigint;
  step: bigint;
}

interface CachedBlock {
  next: bigint;
  last: bigint;
  step: bigint;
}

/**
 * Hands out numbers from blocks reserved in the database, one block per
 * counter key (`cache` option). Concurrent callers in one process share a
 * block: while a refill is in flight every caller awaits the same promise
 * instead of reserving a block of its own, so a burst of N callers costs
 * ceil(N / cache) round trips, not N.
 */
export class SequenceCacheAllocator {
  private readonly blocks = new Map<string, CachedBlock>();
  private readonly refills = new Map<string, Promise<void>>();

  constructor(private readonly maxKeys = SEQUENCE_MAX_CACHED_KEYS) {}

  /** Next number for `key`, reserving a new block with `reserve` when the current one is used up. */
  async take(key: string, reserve: () => Promise<ReservedRange>): Promise<bigint> {
    for (;;) {
      const block = this.blocks.get(key);
      if (block !== undefined && block.next <= block.last) {
        const value = block.next;
        block.next += block.step;
        return value;
      }
      let refill = this.refills.get(key);
      if (refill === undefined) {
        refill = reserve()
          .then((range) => this.store(key, { next: range.first, last: range.last, step: range.step }))
          .finally(() => this.refills.delete(key));
        this.refills.set(key, refill);
      }
      // More waiters than numbers in the block loop round and share the next refill.
      await refill;
    }
  }

  /** The number `take()` would hand out next from memory, or `undefined` when it would have to reserve a block. */
  peek(key: string): bigint | undefined {
    const block = this.blocks.get(key);
    return block !== undefined && block.next <= block.last ? block.next : undefined;
  }

  /** Drops the cached block of one key (after `reset()` or `set()`); its unused numbers become a gap. */
  forgetKey(key: string): void {
    this.blocks.delete(key);
  }

  /** Drops the cached blocks of every key of a sequence (after `define()`). */
  forgetSequence(name: string): void {
    for (const key of this.blocks.keys()) {
      if (key === name || key.startsWith(name + SEQUENCE_KEY_SEPARATOR)) this.blocks.delete(key);
    }
  }

  private store(key: string, block: CachedBlock): void {
    // Date-scoped and tenant-scoped keys keep coming; bound the map and drop the oldest.
    this.blocks.delete(key);
    if (this.blocks.size >= this.maxKeys) {
      const oldest = this.blocks.keys().next();
      if (!oldest.done) this.blocks.delete(oldest.value);
    }
    this.blocks.set(key, block);
  }
}
