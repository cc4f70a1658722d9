import { ServiceUnavailableException } from '@nestjs/common';

/**
 * The counters collection could not be reached (network error, no server
 * selectable, connection closed or never opened). It is a Nest
 * `ServiceUnavailableException`, so an HTTP app answers 503 without a filter;
 * `cause` holds the driver's error.
 *
 * Whether the failed write was applied is unknown, so it is not retried here:
 * a retry could only waste a number (a gap), but the caller may have a
 * transaction or request to abandon. The driver's own retryable-writes retry
 * (one retry with the same transaction number, deduplicated by the server) has
 * already happened when this is thrown.
 */
export class SequenceUnavailableError extends ServiceUnavailableException {
  override name = 'SequenceUnavailableError';

  constructor(
    /** Counter key the operation was for, e.g. `orders:2026`. */
    readonly key: string,
    cause: unknown,
  ) {
    super(`Sequence "${key}" is unavailable: the counters collection cannot be reached. Try again later.`, {
      cause,
      description: 'Service Unavailable',
    });
  }
}
