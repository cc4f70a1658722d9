/** Why a sort or a cursor was refused. */
export type KeysetPaginationErrorReason =
  | 'sort' // not one of the sorts the list offers
  | 'malformed' // not a cursor at all: wrong type, not base64url, not the JSON of a cursor, a value of the wrong type
  | 'too-long' // longer than `maxLength`, refused before decoding
  | 'signature' // signed with another secret, altered, or unsigned where a secret is set
  | 'sort-mismatch' // a cursor of another sort (`price` passed to a `-price` list)
  | 'conflict'; // `after` and `before` together

/**
 * Thrown by `parseKeysetSort()`, `decodeKeysetCursor()` and `keysetQuery()`
 * when a client's sort or cursor cannot be used. Always the client's mistake:
 * map it to a 400 with `message`, which says what was wrong and what to send
 * instead and never echoes the cursor itself.
 */
export class KeysetPaginationError extends TypeError {
  override readonly name = 'KeysetPaginationError';

  constructor(
    /** What kind of problem it is, for programmatic handling. */
    readonly reason: KeysetPaginationErrorReason,
    message: string,
  ) {
    super(message);
  }
}
