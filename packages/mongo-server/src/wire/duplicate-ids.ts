import type { Document } from 'bson';

import { valueEnd } from './integral-doubles.js';

/**
 * Inserted documents whose bytes named `_id` more than once. bson's decoder
 * keeps the last such field, so the object alone no longer shows it; mongod
 * refuses such a document (fixDocumentForInsert), and so does insert here.
 */
const withDuplicateId = new WeakSet<Document>();

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
    pos =
      type === 0x03 || type === 0x04
        ? pos + (bytes[pos]! | (bytes[pos + 1]! << 8) | (bytes[pos + 2]! << 16) | (bytes[pos + 3]! << 24))
        : valueEnd(bytes, type, pos);
    if (pos < 0 || pos > bytes.length) return false;
  }
  return false;
}

/** Remembers `doc`, decoded from `bytes`, as naming `_id` twice when it does. */
export function noteDuplicateId(bytes: Uint8Array, doc: Document): void {
  if (namesIdTwice(bytes)) withDuplicateId.add(doc);
}

/** Whether `doc` came from bytes that named `_id` more than once. */
export function namedIdTwice(doc: Document): boolean {
  return withDuplicateId.has(doc);
}
