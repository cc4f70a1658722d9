import type { Document } from 'bson';

import { int32At, valueEnd } from './integral-doubles.js';

/**
 * Inserted documents whose bytes named `_id` more than once. bson's decoder
 * keeps the last such field, so the object alone no longer shows it; mongod
 * refuses such a document (fixDocumentForInsert), and so does insert here.
 */
const withDuplicateId = new WeakSet<Document>();

/**
 * Where the embedded document or array whose length is at `pos` ends; -1 for
 * a length below the smallest document's 5 bytes (the decoder refused such
 * bytes before these walks, which are never to move backwards all the same).
 */
function skipContainer(bytes: Uint8Array, pos: number): number {
  const size = int32At(bytes, pos);
  return size < 5 ? -1 : pos + size;
}

/** Whether the BSON document in `bytes` has two top-level fields named `_id` (one pass, no allocation). */
function namesIdTwice(bytes: Uint8Array): boolean {
  let seen = false;
  let pos = 4;
  while (pos < bytes.length) {
    const type = bytes[pos++]!;
    if (type === 0) return false;
    const isId = bytes[pos] === 0x5f && bytes[pos + 1] === 0x69 && bytes[pos + 2] === 0x64 && bytes[pos + 3] === 0;
    if (isId) {
      if (seen) return true;
      seen = true;
    }
    while (pos < bytes.length && bytes[pos] !== 0) pos++;
    pos++;
    // An embedded document or array is skipped whole: only the top level's names count.
    pos = type === 0x03 || type === 0x04 ? skipContainer(bytes, pos) : valueEnd(bytes, type, pos);
    if (pos < 0 || pos > bytes.length) return false;
  }
  return false;
}

/** Remembers `doc`, decoded from `bytes`, as naming `_id` twice when it does. */
export function noteDuplicateId(bytes: Uint8Array, doc: Document): void {
  if (namesIdTwice(bytes)) withDuplicateId.add(doc);
}

/**
 * The same for the documents of an insert sent inside its command body
 * (`documents: [...]`, as `db.command()` and some drivers send them) rather
 * than as a document sequence: each element of the body's top-level
 * `documents` array is checked against its decoded document.
 */
export function noteDuplicateIdsInBody(bytes: Uint8Array, body: Document): void {
  const docs: unknown = body.documents;
  if (!Array.isArray(docs) || Object.keys(body)[0] !== 'insert') return;
  let pos = 4;
  while (pos < bytes.length) {
    const type = bytes[pos++]!;
    if (type === 0) return;
    const nameStart = pos;
    while (pos < bytes.length && bytes[pos] !== 0) pos++;
    const isDocuments =
      type === 0x04 &&
      Buffer.from(bytes.buffer, bytes.byteOffset + nameStart, pos - nameStart).toString('latin1') === 'documents';
    pos++;
    if (!isDocuments) {
      pos = type === 0x03 || type === 0x04 ? skipContainer(bytes, pos) : valueEnd(bytes, type, pos);
      if (pos < 0 || pos > bytes.length) return;
      continue;
    }
    // The array's elements: a type byte, the index as a name, then (for a document) its bytes.
    const end = skipContainer(bytes, pos);
    if (end < 0 || end > bytes.length) return;
    let at = pos + 4;
    let index = 0;
    while (at < end && bytes[at] !== 0) {
      const elementType = bytes[at++]!;
      while (at < end && bytes[at] !== 0) at++;
      at++;
      const next =
        elementType === 0x03 || elementType === 0x04 ? skipContainer(bytes, at) : valueEnd(bytes, elementType, at);
      if (next < 0 || next > end) return;
      if (elementType === 0x03 && namesIdTwice(bytes.subarray(at, next))) withDuplicateId.add(docs[index] as Document);
      at = next;
      index++;
    }
    return;
  }
}

/** Whether `doc` came from bytes that named `_id` more than once. */
export function namedIdTwice(doc: Document): boolean {
  return withDuplicateId.has(doc);
}
