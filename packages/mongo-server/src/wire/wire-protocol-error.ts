/**
 * A frame the server cannot accept (bad length, unknown opcode, malformed
 * BSON). The connection that sent it is closed; nothing else is affected.
 */
export class WireProtocolError extends Error {
  constructor(
    message: string,
    /** Request id of the offending frame, when the header could be read. */
    readonly requestId?: number,
  ) {
    super(message);
    this.name = 'WireProtocolError';
  }
}
