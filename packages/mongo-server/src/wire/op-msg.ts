import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { MAX_REPLY_DOCUMENT_BYTES, replySizeInvalid } from '../store/document-limits.js';
import { decodeDocument, encodeDocument, encodedSize } from './bson-codec.js';
import { noteDuplicateId, noteDuplicateIdsInBody } from './duplicate-ids.js';
import { HEADER_SIZE, OpCode, OpMsgFlags } from './wire-constants.js';
import { WireProtocolError } from './wire-protocol-error.js';

/** A parsed OP_MSG request: the command body with kind-1 sequences merged in. */
export interface OpMsgRequest {
  readonly requestId: number;
  readonly flags: number;
  /** True when the client expects no reply (`moreToCome`). */
  readonly moreToCome: boolean;
  readonly body: Document;
}

/** Flag bits 0-15 are "required": an unknown one must be rejected. */
const KNOWN_REQUIRED_FLAGS = OpMsgFlags.checksumPresent | OpMsgFlags.moreToCome;

function readCString(frame: Buffer, start: number, end: number, requestId: number): [string, number] {
  const nul = frame.indexOf(0, start);
  if (nul < 0 || nul >= end)
    throw new WireProtocolError('OP_MSG document sequence identifier is not terminated', requestId);
  return [frame.toString('utf8', start, nul), nul + 1];
}

function readDocument(frame: Buffer, pos: number, end: number, requestId: number): [Document, number] {
  if (pos + 5 > end) throw new WireProtocolError('OP_MSG section is truncated', requestId);
  const size = frame.readInt32LE(pos);
  if (size < 5 || pos + size > end)
    throw new WireProtocolError(`OP_MSG document length ${size} overruns the message`, requestId);
  return [decodeDocument(frame.subarray(pos, pos + size), requestId), pos + size];
}

/** Parses an OP_MSG frame (opcode 2013) whose header has been validated. */
export function parseOpMsg(frame: Buffer): OpMsgRequest {
  const requestId = frame.readInt32LE(4);
  if (frame.length < HEADER_SIZE + 5) throw new WireProtocolError('OP_MSG is too short', requestId);
  const flags = frame.readUInt32LE(HEADER_SIZE);
  if ((flags & 0xffff & ~KNOWN_REQUIRED_FLAGS) !== 0) {
    throw new WireProtocolError(`OP_MSG has unknown required flag bits 0x${flags.toString(16)}`, requestId);
  }
  const end = frame.length - (flags & OpMsgFlags.checksumPresent ? 4 : 0);
  let pos = HEADER_SIZE + 4;
  let body: Document | undefined;
  const sequences: [string, Document[]][] = [];
  while (pos < end) {
    const kind = frame[pos++];
    if (kind === 0) {
      if (body) throw new WireProtocolError('OP_MSG has more than one body section', requestId);
      const start = pos;
      [body, pos] = readDocument(frame, pos, end, requestId);
      noteDuplicateIdsInBody(frame.subarray(start, pos), body);
    } else if (kind === 1) {
      if (pos + 4 > end) throw new WireProtocolError('OP_MSG document sequence is truncated', requestId);
      const size = frame.readInt32LE(pos);
      const sectionEnd = pos + size;
      if (size < 5 || sectionEnd > end)
        throw new WireProtocolError(`OP_MSG document sequence length ${size} is invalid`, requestId);
      let identifier: string;
      [identifier, pos] = readCString(frame, pos + 4, sectionEnd, requestId);
      const docs: Document[] = [];
      while (pos < sectionEnd) {
        const start = pos;
        let doc: Document;
        [doc, pos] = readDocument(frame, pos, sectionEnd, requestId);
        // The documents of an insert, where mongod refuses one naming `_id` twice.
        if (identifier === 'documents') noteDuplicateId(frame.subarray(start, pos), doc);
        docs.push(doc);
      }
      sequences.push([identifier, docs]);
    } else {
      throw new WireProtocolError(`OP_MSG section kind ${String(kind)} is invalid`, requestId);
    }
  }
  if (!body) throw new WireProtocolError('OP_MSG has no body section', requestId);
  for (const [identifier, docs] of sequences) {
    // Defined, not assigned: an identifier named "__proto__" must not replace the command's prototype.
    Object.defineProperty(body, identifier, { value: docs, enumerable: true, writable: true, configurable: true });
  }
  return { requestId, flags, moreToCome: (flags & OpMsgFlags.moreToCome) !== 0, body };
}

let nextRequestId = 1;

/** `{ ok: 1 }`, the whole reply of ping, endSessions and most admin commands, encoded once. */
const OK_REPLY = encodeDocument({ ok: 1 });

/**
 * The error a reply of `bytes` gets instead of itself, as mongod fails to
 * build a document past its limit. bson refuses to serialize past 17 MB, and
 * that error closed the connection: such a reply (2,500 duplicate-key errors
 * echoing a 10 KB `_id`, 34 MB) cost the client its connection and the
 * command's answer.
 */
function replyTooLarge(bytes: number): Document {
  return new CommandError('BSONObjectTooLarge', `${replySizeInvalid(bytes)}: the reply is too large to send`).toReply();
}

/**
 * The error a reply gets that bson cannot encode at all: a document an
 * expression built with a field name holding a NUL byte (`$setField`), which
 * BSON cannot carry. The encoder's error closed the connection instead.
 */
function unencodable(error: unknown): Document {
  const reason = error instanceof Error ? error.message : String(error);
  return new CommandError(
    'BadValue',
    `the reply cannot be encoded as BSON (${reason.replaceAll('\0', '\\0')}): building such a value is not supported by the embedded test server; use a real MongoDB (MONGO_URL) for it`,
  ).toReply();
}

/** Encodes an OP_MSG reply with a single body section (`flags`: `moreToCome` for a reply of an exhaust stream). */
export function encodeOpMsg(responseTo: number, body: Document, flags = 0): Buffer {
  let doc: Uint8Array;
  if (body.ok === 1 && Object.keys(body).length === 1) doc = OK_REPLY;
  else {
    try {
      doc = encodeDocument(body);
    } catch (error) {
      // bson refuses to serialize past its 17 MB buffer: the size is then counted without serializing.
      const bytes = encodedSize(body);
      doc = encodeDocument(bytes > MAX_REPLY_DOCUMENT_BYTES ? replyTooLarge(bytes) : unencodable(error));
    }
    if (doc.length > MAX_REPLY_DOCUMENT_BYTES) doc = encodeDocument(replyTooLarge(doc.length));
  }
  const length = HEADER_SIZE + 4 + 1 + doc.length;
  const out = Buffer.allocUnsafe(length);
  out.writeInt32LE(length, 0);
  out.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OpCode.OP_MSG, 12);
  out.writeUInt32LE(flags, 16);
  out.writeUInt8(0, 20);
  out.set(doc, 21);
  return out;
}

/** Encodes an OP_MSG request (used by tests and tools that speak to the server directly). */
export function encodeOpMsgRequest(requestId: number, body: Document, flags = 0): Buffer {
  const reply = encodeOpMsg(0, body);
  reply.writeInt32LE(requestId, 4);
  reply.writeUInt32LE(flags, 16);
  return reply;
}
