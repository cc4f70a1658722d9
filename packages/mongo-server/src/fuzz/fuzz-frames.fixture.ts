/**
 * Wire frames for the server fuzzer: a command sent as OP_MSG (with odd flag
 * bits, a checksum, or an array field moved into a document sequence, as
 * drivers send `documents`) or as legacy OP_QUERY, and byte-level mutations
 * of such frames: bit flips, bytes and int32s overwritten with edge values,
 * insertions, deletions, truncation, with or without the messageLength fixed
 * up afterwards.
 */
import type { Document } from 'bson';
import fc from 'fast-check';

import { BSON } from '../bson/bson-library.cjs';
import { HEADER_SIZE, OpCode, OpMsgFlags } from '../wire/wire-constants.js';
import { anyCommand } from './command-arbitraries.fixture.js';

/** One request as the fuzzer sends it. */
export interface FuzzRequest {
  readonly body: Document;
  /** OP_MSG flag bits (`moreToCome` means no reply is expected). */
  readonly flags: number;
  /** Identifier of a kind-1 document sequence: the body's field of that name moves there. */
  readonly sequence?: string;
  /** Sent as OP_QUERY on `<$db>.$cmd`, as drivers' first handshake is. */
  readonly legacy: boolean;
}

const SEQUENCE_NAMES = ['documents', 'updates', 'deletes', 'indexes', 'pipeline', '__proto__', 'constructor', 'filter'];

/** Any command as OP_MSG (mostly without flags) or, rarely, OP_QUERY. */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  body: anyCommand,
  flags: fc.oneof(
    { weight: 20, arbitrary: fc.constant(0) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(OpMsgFlags.checksumPresent, OpMsgFlags.moreToCome, OpMsgFlags.exhaustAllowed),
    },
    { weight: 1, arbitrary: fc.constantFrom(1 << 2, 1 << 15, 0xffffffff) },
  ),
  sequence: fc.option(fc.constantFrom(...SEQUENCE_NAMES), { freq: 5, nil: undefined }),
  legacy: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

/** Whether the server owes a reply to `request`. */
export function expectsReply(request: FuzzRequest): boolean {
  return request.legacy || (request.flags & OpMsgFlags.moreToCome) === 0;
}

function header(length: number, requestId: number, opCode: number): Buffer {
  const head = Buffer.alloc(HEADER_SIZE);
  head.writeInt32LE(length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(0, 8);
  head.writeInt32LE(opCode, 12);
  return head;
}

const isDocument = (value: unknown): value is Document =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The frame of `request`; throws when the body cannot be encoded (e.g. over bson's 17 MB buffer). */
export function encodeRequest(request: FuzzRequest, requestId: number): Buffer {
  if (request.legacy) {
    const { $db, ...query } = request.body;
    const db = typeof $db === 'string' ? $db.replaceAll('\0', '') : 'admin';
    const ns = Buffer.from(`${db}.$cmd\0`, 'utf8');
    const doc = Buffer.from(BSON.serialize(query));
    const length = HEADER_SIZE + 4 + ns.length + 8 + doc.length;
    const tail = Buffer.alloc(8);
    tail.writeInt32LE(-1, 4); // numberToReturn
    return Buffer.concat([header(length, requestId, OpCode.OP_QUERY), Buffer.alloc(4), ns, tail, doc]);
  }
  let body = request.body;
  const sections: Buffer[] = [];
  if (request.sequence !== undefined) {
    const moved: unknown = Object.getOwnPropertyDescriptor(body, request.sequence)?.value;
    const docs = Array.isArray(moved) && moved.every(isDocument) ? moved : [{ a: 1 }];
    body = Object.fromEntries(Object.entries(body).filter(([key]) => key !== request.sequence));
    const name = Buffer.from(`${request.sequence}\0`, 'utf8');
    const payload = docs.map((doc) => Buffer.from(BSON.serialize(doc)));
    const size = Buffer.alloc(5);
    size.writeUInt8(1, 0);
    size.writeInt32LE(4 + name.length + payload.reduce((n, d) => n + d.length, 0), 1);
    sections.push(size, name, ...payload);
  }
  const flags = Buffer.alloc(4);
  flags.writeUInt32LE(request.flags >>> 0, 0);
  const parts = [flags, Buffer.from([0]), Buffer.from(BSON.serialize(body)), ...sections];
  if (request.flags & OpMsgFlags.checksumPresent) parts.push(Buffer.alloc(4)); // never verified by the server
  const rest = Buffer.concat(parts);
  return Buffer.concat([header(HEADER_SIZE + rest.length, requestId, OpCode.OP_MSG), rest]);
}

/** One byte-level change; `at` is taken modulo the frame's length. */
export interface Mutation {
  readonly kind: 'flip' | 'byte' | 'bsonType' | 'int32' | 'insert' | 'delete' | 'truncate' | 'opCode';
  readonly at: number;
  readonly value: number;
}

const INT32_EDGES = [0, 1, -1, 4, 5, 15, 16, 21, 0x7fffffff, -0x80000000, 48_000_000, 48_000_001, 16 * 1024 * 1024 + 1];
const BSON_TYPES = [
  0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12,
  0x13, 0x14, 0x7f, 0xff,
];
const OP_CODES = [OpCode.OP_REPLY, 2001, 2002, 2004, 2005, 2006, 2007, OpCode.OP_COMPRESSED, OpCode.OP_MSG, 0, -1];

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('flip', 'byte', 'bsonType', 'int32', 'insert', 'delete', 'truncate', 'opCode'),
  at: fc.nat(),
  value: fc.nat(),
});

/** A few mutations, and whether to rewrite messageLength to the mutated size afterwards. */
export const mutations = fc.record({
  changes: fc.array(mutation, { minLength: 1, maxLength: 4 }),
  fixLength: fc.boolean(),
});

/** `frame` with `changes` applied in order (a new buffer). */
export function mutate(frame: Buffer, { changes, fixLength }: { changes: Mutation[]; fixLength: boolean }): Buffer {
  let bytes = Buffer.from(frame);
  for (const { kind, at, value } of changes) {
    const i = bytes.length === 0 ? 0 : at % bytes.length;
    switch (kind) {
      case 'flip':
        if (bytes.length > 0) bytes[i] = bytes[i]! ^ (1 << (value % 8));
        break;
      case 'byte':
        if (bytes.length > 0) bytes[i] = value % 256;
        break;
      case 'bsonType':
        if (bytes.length > 0) bytes[i] = BSON_TYPES[value % BSON_TYPES.length]!;
        break;
      case 'int32': {
        const edges = [...INT32_EDGES, bytes.length, bytes.length - i, bytes.length - i + 1, bytes.length - i - 1];
        if (bytes.length >= 4) bytes.writeInt32LE(edges[value % edges.length]!, Math.min(i, bytes.length - 4));
        break;
      }
      case 'insert':
        bytes = Buffer.concat([bytes.subarray(0, i), Buffer.alloc(1 + (value % 8), value % 256), bytes.subarray(i)]);
        break;
      case 'delete':
        bytes = Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1 + (value % 8))]);
        break;
      case 'truncate':
        bytes = bytes.subarray(0, i);
        break;
      case 'opCode':
        if (bytes.length >= HEADER_SIZE) bytes.writeInt32LE(OP_CODES[value % OP_CODES.length]!, 12);
        break;
    }
  }
  if (fixLength && bytes.length >= 4) bytes.writeInt32LE(bytes.length, 0);
  return bytes;
}
