/**
 * A counter passed the largest value its mode can return exactly:
 * `Number.MAX_SAFE_INTEGER` (2^53 − 1) in number mode. The number was consumed
 * in the database but not returned, because an imprecise number could collide
 * with another one. Define the sequence with `bigint: true` to go on.
 */
export class SequenceOverflowError extends RangeError {
  override name = 'SequenceOverflowError';

  constructor(
    /** Counter key, e.g. `orders:2026`. */
    readonly key: string,
    /** The exact value the database returned. */
    readonly value: bigint,
  ) {
    super(
      `Sequence "${key}" reached ${value}, beyond Number.MAX_SAFE_INTEGER (2^53 - 1): a number would lose precision. ` +
        `Define the sequence with { bigint: true } to receive exact bigint values.`,
    );
  }
}
