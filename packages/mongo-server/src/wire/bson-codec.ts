import type { Document } from 'bson';

import { BSON, BSONRegExp, Double } from '../bson/bson-library.cjs';
import { defineField } from '../bson/define-field.js';
import { stampedElements } from '../commands/cluster-time.js';
import { CommandError } from '../commands/command-error.js';
import { MAX_BSON_DEPTH, nestsDeeperThan } from './bson-depth.js';
import { plainDbRefs } from './db-ref-documents.js';
import { markIntegralDoubles } from './integral-doubles.js';
import { WireProtocolError } from './wire-protocol-error.js';

/**
 * Int64 decodes to `bigint` so values beyond 2^53 stay exact and re-encode
 * as Int64; int32/double decode to `number` (an integral double is then
 * marked as a `Double`, see {@link markIntegralDoubles}); Binary stays Binary.
 */
const DESERIALIZE_OPTIONS = { useBigInt64: true, promoteBuffers: false } as const;

/** The JavaScript flags bson's decoder gives a BSON regex's options (it maps `s` to `g`, drops the rest). */
function jsFlags(options: string): string {
  return [...options].map((o) => ({ i: 'i', m: 'm', s: 'g' })[o] ?? '').join('');
}

/** `value` with each BSONRegExp that JavaScript can compile turned into a RegExp, as the normal decoding gives. */
function compilableAsRegExp(value: unknown): unknown {
  if (value instanceof BSONRegExp) {
    try {
      return new RegExp(value.pattern, jsFlags(value.options));
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map(compilableAsRegExp);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const doc = value as Document;
    for (const key of Object.keys(doc)) {
      defineField(doc, key, compilableAsRegExp(doc[key]));
    }
  }
  return value;
}

/**
 * Decodes one BSON document occupying exactly `bytes`; WireProtocolError when
 * malformed, and mongod's Overflow error (a CommandError: the request is
 * answered, the connection stays open) when nested deeper than mongod parses.
 *
 * A regex whose pattern JavaScript cannot compile (`/[/`, PCRE's `(?i)a`) is
 * still valid BSON — mongod stores it and only a query that matches with it
 * fails — but bson's decoder throws on it. Such a document is decoded again
 * keeping that regex a BSONRegExp, instead of refusing the whole message
 * (which closed the connection).
 */
export function decodeDocument(bytes: Uint8Array, requestId?: number): Document {
  if (nestsDeeperThan(bytes)) {
    throw new CommandError('Overflow', `BSONObj exceeded maximum nested object depth: ${MAX_BSON_DEPTH}`);
  }
  try {
    return markIntegralDoubles(bytes, plainDbRefs(bytes, BSON.deserialize(bytes, DESERIALIZE_OPTIONS)));
  } catch (error) {
    let doc: Document | undefined;
    try {
      doc = BSON.deserialize(bytes, { ...DESERIALIZE_OPTIONS, bsonRegExp: true });
    } catch {
      // Malformed otherwise too: report the first error.
    }
    if (doc) return markIntegralDoubles(bytes, plainDbRefs(bytes, compilableAsRegExp(doc) as Document));
    throw new WireProtocolError(`invalid BSON: ${error instanceof Error ? error.message : String(error)}`, requestId);
  }
}

/**
 * Encodes a reply document. Its `ok` goes out as the double mongod sends
 * (`ok: 1.0`): a JavaScript 1 would be encoded as an int32, which a client
 * reading raw BSON types (`promoteValues: false`) tells apart.
 */
export function encodeDocument(doc: Document): Uint8Array {
  const stamp = stampedElements(doc);
  if (stamp === undefined) return BSON.serialize(withDoubleOk(doc));
  const keys = Object.keys(doc);
  const last = keys.length - 1;
  if (keys[last] !== 'operationTime' || keys[last - 1] !== '$clusterTime') return BSON.serialize(withDoubleOk(doc));
  // The reply's own fields are encoded; the cluster time's elements, the same for every reply until the time moves, are copied in.
  const fields: Document = {};
  for (let i = 0; i < last - 1; i++) {
    const key = keys[i]!;
    if (key === '__proto__') defineField(fields, key, doc[key]);
    else fields[key] = doc[key];
  }
  // As withDoubleOk does, in place: the copy is this function's own.
  if (typeof fields.ok === 'number') fields.ok = new Double(fields.ok);
  const head = BSON.serialize(fields);
  // From Node's pool: a Uint8Array of its own would allocate a backing store per reply.
  const out = Buffer.allocUnsafe(head.length + stamp.length);
  out.set(head.subarray(0, head.length - 1), 0);
  out.set(stamp, head.length - 1);
  out[out.length - 1] = 0;
  out.writeInt32LE(out.length, 0);
  return out;
}

/** The size {@link encodeDocument} would give `doc`, counted without serializing it. */
export function encodedSize(doc: Document): number {
  return BSON.calculateObjectSize(withDoubleOk(doc));
}

function withDoubleOk(doc: Document): Document {
  return typeof doc.ok === 'number' ? { ...doc, ok: new Double(doc.ok) } : doc;
}
