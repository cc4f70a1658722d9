import type { Document } from 'bson';

import { decodeDocument, encodeDocument } from './bson-codec.js';
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
      [body, pos] = readDocument(frame, pos, end, requestId);
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
        let doc: Document;
        [doc, pos] = readDocument(frame, pos, sectionEnd, requestId);
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

/** Where an OP_MSG reply's single body section starts: header, flags, section kind. */
const BODY_OFFSET = HEADER_SIZE + 4 + 1;

/** An OP_MSG frame of `bodyLength` body bytes, its header, flags and section kind written. */
function replyFrame(responseTo: number, flags: number, bodyLength: number): Buffer {
  const length = BODY_OFFSET + bodyLength;
  const out = Buffer.allocUnsafe(length);
  out.writeInt32LE(length, 0);
  out.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OpCode.OP_MSG, 12);
  out.writeUInt32LE(flags, 16);
  out.writeUInt8(0, 20);
  return out;
}

/** Writes a BSON element's type byte and its (ASCII) name at `pos`; returns where its value starts. */
function writeElementName(out: Buffer, pos: number, type: number, name: string): number {
  out[pos++] = type;
  // A loop: for names this short, a call into Buffer's native writer costs more.
  for (let i = 0; i < name.length; i++) out[pos++] = name.charCodeAt(i);
  out[pos] = 0;
  return pos + 1;
}

/** Whether `text` is ASCII, so that its UTF-8 bytes are its char codes. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * The frame of a cursor's reply, `{ cursor: { firstBatch | nextBatch: [...], id, ns }, ok: 1 }`
 * exactly (the reply of every find, aggregate and getMore), with the same bytes
 * `BSON.serialize` gives, or undefined for any other body. Only the batch goes
 * through bson: the envelope around it cost bson more than a small batch itself.
 */
function encodeCursorReply(responseTo: number, body: Document, flags: number): Buffer | undefined {
  if (body.ok !== 1) return undefined;
  const keys = Object.keys(body);
  if (keys.length !== 2 || keys[0] !== 'cursor' || keys[1] !== 'ok') return undefined;
  const cursor: unknown = body.cursor;
  if (cursor === null || typeof cursor !== 'object' || Object.getPrototypeOf(cursor) !== Object.prototype) {
    return undefined;
  }
  const fields = Object.keys(cursor);
  const batchName = fields[0];
  if (fields.length !== 3 || (batchName !== 'firstBatch' && batchName !== 'nextBatch')) return undefined;
  if (fields[1] !== 'id' || fields[2] !== 'ns') return undefined;
  const { id, ns } = cursor as { id: unknown; ns: unknown };
  const batch: unknown = (cursor as Document)[batchName];
  if (!Array.isArray(batch) || typeof id !== 'bigint' || typeof ns !== 'string') return undefined;
  // bson encodes no array as a whole document: `{ firstBatch: [...] }` holds the batch's element, between its
  // length and its terminator.
  const holder = encodeDocument(batchName === 'firstBatch' ? { firstBatch: batch } : { nextBatch: batch });
  const batchElement = holder.subarray(4, holder.length - 1);
  const asciiNs = isAscii(ns);
  const nsLength = asciiNs ? ns.length : Buffer.byteLength(ns, 'utf8');
  // The cursor document: length, the batch, `id` (int64), `ns` (string), terminator.
  const cursorLength = 4 + batchElement.length + (4 + 8) + (4 + 4 + nsLength + 1) + 1;
  // The body: length, `cursor`, `ok` (int32 1, as bson writes the number 1), terminator.
  const bodyLength = 4 + (8 + cursorLength) + (4 + 4) + 1;
  const out = replyFrame(responseTo, flags, bodyLength);
  let pos = BODY_OFFSET;
  out.writeInt32LE(bodyLength, pos);
  pos = writeElementName(out, pos + 4, 0x03, 'cursor');
  out.writeInt32LE(cursorLength, pos);
  out.set(batchElement, pos + 4);
  pos = writeElementName(out, pos + 4 + batchElement.length, 0x12, 'id');
  // Two's complement of the low 64 bits, as bson writes a bigint (an exhausted cursor's 0 needs no BigInt arithmetic).
  if (id === 0n) for (let i = 0; i < 8; i++) out[pos + i] = 0;
  else out.writeBigUInt64LE(BigInt.asUintN(64, id), pos);
  pos = writeElementName(out, pos + 8, 0x02, 'ns');
  out.writeInt32LE(nsLength + 1, pos);
  pos += 4;
  if (asciiNs) for (let i = 0; i < nsLength; i++) out[pos++] = ns.charCodeAt(i);
  else pos += out.write(ns, pos, 'utf8');
  out[pos++] = 0;
  out[pos++] = 0;
  pos = writeElementName(out, pos, 0x10, 'ok');
  out.writeInt32LE(1, pos);
  out[pos + 4] = 0;
  return out;
}

/** Encodes an OP_MSG reply with a single body section (`flags`: `moreToCome` for a reply of an exhaust stream). */
export function encodeOpMsg(responseTo: number, body: Document, flags = 0): Buffer {
  const cursorReply = encodeCursorReply(responseTo, body, flags);
  if (cursorReply) return cursorReply;
  const doc = body.ok === 1 && Object.keys(body).length === 1 ? OK_REPLY : encodeDocument(body);
  const out = replyFrame(responseTo, flags, doc.length);
  out.set(doc, BODY_OFFSET);
  return out;
}

/** Encodes an OP_MSG request (used by tests and tools that speak to the server directly). */
export function encodeOpMsgRequest(requestId: number, body: Document, flags = 0): Buffer {
  const reply = encodeOpMsg(0, body);
  reply.writeInt32LE(requestId, 4);
  reply.writeUInt32LE(flags, 16);
  return reply;
}
