import type { Document } from 'bson';

import { decodeDocument, encodeDocument } from './bson-codec.js';
import { HEADER_SIZE, OpCode } from './wire-constants.js';
import { WireProtocolError } from './wire-protocol-error.js';

/** A legacy OP_QUERY request; only the `admin.$cmd` handshake is served. */
export interface OpQueryRequest {
  readonly requestId: number;
  readonly collection: string;
  readonly query: Document;
}

/** Parses an OP_QUERY frame (opcode 2004). */
export function parseOpQuery(frame: Buffer): OpQueryRequest {
  const requestId = frame.readInt32LE(4);
  const start = HEADER_SIZE + 4;
  const nul = frame.indexOf(0, start);
  if (nul < 0 || nul + 9 + 5 > frame.length) throw new WireProtocolError('OP_QUERY is truncated', requestId);
  const collection = frame.toString('utf8', start, nul);
  const docStart = nul + 1 + 8;
  const size = frame.readInt32LE(docStart);
  if (size < 5 || docStart + size > frame.length)
    throw new WireProtocolError(`OP_QUERY document length ${size} is invalid`, requestId);
  return { requestId, collection, query: decodeDocument(frame.subarray(docStart, docStart + size), requestId) };
}

let nextRequestId = 1;

/** Encodes an OP_REPLY (opcode 1) carrying one document. */
export function encodeOpReply(responseTo: number, doc: Document): Buffer {
  const bytes = encodeDocument(doc);
  const length = HEADER_SIZE + 20 + bytes.length;
  const out = Buffer.alloc(length);
  out.writeInt32LE(length, 0);
  out.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OpCode.OP_REPLY, 12);
  out.writeInt32LE(0, 16); // responseFlags
  out.writeBigInt64LE(0n, 20); // cursorID
  out.writeInt32LE(0, 28); // startingFrom
  out.writeInt32LE(1, 32); // numberReturned
  out.set(bytes, 36);
  return out;
}
