/**
 * A sequence was defined or called with invalid options or arguments: a bad
 * name or scope, step, start, block size, format, time zone, or a value that
 * does not fit. Nothing was written to the counters collection. The message
 * says what to change.
 */
export class SequenceConfigError extends TypeError {
  override name = 'SequenceConfigError';
}
