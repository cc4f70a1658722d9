import type { SequenceValue } from './sequence-value.js';

/**
 * Consecutive numbers reserved by `SequenceService.nextBlock()` in one round
 * trip: `first`, `first + step`, …, `last`. They are yours alone; numbers you
 * do not use are a gap, never handed to anyone else.
 */
export class SequenceBlock<T extends SequenceValue = number> {
  constructor(
    /** First reserved number. */
    readonly first: T,
    /** Last reserved number. */
    readonly last: T,
    /** Distance between two numbers of the block. */
    readonly step: T,
    /** How many numbers the block holds. */
    readonly size: number,
  ) {}

  /** Every number of the block, in increasing order. */
  values(): T[] {
    const out: T[] = new Array<T>(this.size);
    if (typeof this.first === 'bigint') {
      const step = this.step as bigint;
      for (let i = 0, v: bigint = this.first; i < this.size; i++, v += step) out[i] = v as T;
    } else {
      const step = this.step as number;
      for (let i = 0, v = this.first as number; i < this.size; i++, v += step) out[i] = v as T;
    }
    return out;
  }
}
