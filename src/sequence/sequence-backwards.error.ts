/**
 * `set()` was asked to move a counter below its current value, which would
 * issue numbers again. Nothing was written. Pass `{ force: true }` if that is
 * really intended (for example after deleting the documents that used them).
 */
export class SequenceBackwardsError extends Error {
  override name = 'SequenceBackwardsError';

  constructor(
    /** Counter key, e.g. `orders:2026`. */
    readonly key: string,
    /** The counter's value at the time of the refused update. */
    readonly current: bigint,
    /** The value `set()` was called with. */
    readonly requested: bigint,
  ) {
    super(
      `Refusing to set sequence "${key}" back from ${current} to ${requested}: numbers up to ${current} were already issued. ` +
        `Pass { force: true } to set it anyway.`,
    );
  }
}
