/**
 * Thrown when a response cannot be turned into JSON, e.g. a value that
 * contains itself. `path` locates the offending value (`$` is the root).
 */
export class ObjectIdSerializationError extends TypeError {
  override readonly name = 'ObjectIdSerializationError';

  constructor(
    message: string,
    /** JSONPath-like location of the value, e.g. `$.items[3].parent`. */
    readonly path: string,
  ) {
    super(message);
  }
}
