import { BSON, type Document } from 'bson';

import { WireProtocolError } from './wire-protocol-error.js';

/**
 * Int64 decodes to `bigint` so values beyond 2^53 stay exact and re-encode
 * as Int64; int32/double decode to `number`; Binary stays Binary.
 */
const DESERIALIZE_OPTIONS = { useBigInt64: true, promoteBuffers: false } as const;

/** Decodes one BSON document occupying exactly `bytes`; WireProtocolError when malformed. */
export function decodeDocument(bytes: Uint8Array, requestId?: number): Document {
  try {
    return BSON.deserialize(bytes, DESERIALIZE_OPTIONS);
  } catch (error) {
    throw new WireProtocolError(`invalid BSON: ${error instanceof Error ? error.message : String(error)}`, requestId);
  }
}

/** Encodes a reply document. */
export function encodeDocument(doc: Document): Uint8Array {
  return BSON.serialize(doc);
}
