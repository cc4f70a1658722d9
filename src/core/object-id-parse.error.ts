/** Why a value was refused as an ObjectId. */
export type ObjectIdParseErrorReason =
  | 'missing' // undefined, null or ''
  | 'type' // not a string (nor an ObjectId instance where those are allowed)
  | 'length' // a string that is not 24 characters long
  | 'character' // 24 characters, one of which is not a hex digit
  | 'nil' // the nil ObjectId (all zeros) where `allowNil` is false
  | 'too-many' // a list longer than its pipe's maxItems
  | 'duplicate'; // a list that names the same id twice where ids must be unique

/**
 * Thrown by `parseObjectId()` (and turned into an HTTP error by the pipes) when
 * a value is not a 24-character hex ObjectId. `message` says what was wrong in
 * words a client can act on; the offending value is echoed only escaped and
 * truncated, so a 10 KB string or control characters never reach a log line.
 */
export class ObjectIdParseError extends TypeError {
  override readonly name = 'ObjectIdParseError';

  constructor(
    /** What kind of problem it is, for programmatic handling. */
    readonly reason: ObjectIdParseErrorReason,
    message: string,
    /** Index (0-based, in characters) of the first offending character, for `reason: 'character'`. */
    readonly position?: number,
  ) {
    super(message);
  }
}
