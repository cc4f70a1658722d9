/** Opcodes of the MongoDB wire protocol that the embedded server understands. */
export const OpCode = {
  OP_REPLY: 1,
  OP_QUERY: 2004,
  OP_COMPRESSED: 2012,
  OP_MSG: 2013,
} as const;

/** mongod's `maxMessageSizeBytes`; longer frames are rejected and the connection closed. */
export const MAX_MESSAGE_SIZE = 48_000_000;

/** Standard message header length (messageLength, requestID, responseTo, opCode). */
export const HEADER_SIZE = 16;

/** OP_MSG flag bits. */
export const OpMsgFlags = {
  checksumPresent: 1 << 0,
  moreToCome: 1 << 1,
  exhaustAllowed: 1 << 16,
} as const;
