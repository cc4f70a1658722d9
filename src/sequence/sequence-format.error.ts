import { SequenceConfigError } from './sequence-config.error.js';

/** A `format` pattern could not be parsed; `token` and `index` (0-based) locate the problem. */
export class SequenceFormatError extends SequenceConfigError {
  override name = 'SequenceFormatError';

  constructor(
    message: string,
    /** The pattern that failed to parse. */
    readonly pattern: string,
    /** The offending token or character, e.g. `{YYY}`. */
    readonly token: string,
    /** 0-based index of `token` in `pattern`. */
    readonly index: number,
  ) {
    super(message);
  }
}
