import type { Document } from 'bson';

import { DBRef } from '../bson/bson-library.cjs';
import { defineField } from '../bson/define-field.js';
import { fieldName, int32At, valueEnd } from './integral-doubles.js';

/** `"$ref"` and its NUL: every document bson's decoder makes a DBRef of has this field name. */
const REF_NAME = new Uint8Array([0x24, 0x72, 0x65, 0x66, 0x00]);

/**
 * `doc`, decoded from `bytes` by bson, with every `DBRef` bson's decoder made
 * of a sub-document holding `$ref` and `$id` turned back into that plain
 * document, its fields in the order the bytes hold them.
 *
 * To mongod a DBRef is no type, only a document whose fields happen to be
 * named `$ref`, `$id` and `$db`: `{ 'owner.$id': id }` reads its field,
 * `distinct('owner.$ref')` lists them, an index on `owner.$id` keys them, and
 * it goes back to the client byte for byte as it came. A bson `DBRef` class
 * instance is no document to the server's paths, so such queries found
 * nothing; bson's decoder has no option to keep the plain document, hence
 * this pass. A message without a `$ref` field name (nearly every one) costs
 * one native byte search.
 */
export function plainDbRefs(bytes: Uint8Array, doc: Document): Document {
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(REF_NAME) < 0) return doc;
  // An inserted document may itself be one (a document sequence's element is decoded as a root).
  const root = doc instanceof DBRef ? plainDocument(bytes, 0, doc) : doc;
  restore(bytes, 0, root);
  return root;
}

/** Each element of the document or array at `start`: its type, name and where its value starts. */
function* elementsOf(bytes: Uint8Array, start: number): Generator<{ type: number; name: string; valueStart: number }> {
  const end = start + int32At(bytes, start) - 1;
  let pos = start + 4;
  while (pos < end) {
    const type = bytes[pos++]!;
    const nameEnd = bytes.indexOf(0, pos);
    if (nameEnd < 0) return;
    const valueStart = nameEnd + 1;
    yield { type, name: fieldName(bytes, pos, nameEnd), valueStart };
    // A document or an array is skipped whole (its length first), any other value by its type.
    pos = type === 0x03 || type === 0x04 ? valueStart + int32At(bytes, valueStart) : valueEnd(bytes, type, valueStart);
    if (pos < 0) return;
  }
}

/** Replaces the DBRefs inside `container` (decoded from the document or array at `start`), at any depth. */
function restore(bytes: Uint8Array, start: number, container: Document | unknown[]): void {
  for (const { type, name, valueStart } of elementsOf(bytes, start)) {
    if (type !== 0x03 && type !== 0x04) continue;
    const value: unknown = (container as Document)[name];
    if (value instanceof DBRef) {
      const plain = plainDocument(bytes, valueStart, value);
      defineField(container, name, plain);
      restore(bytes, valueStart, plain);
    } else if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
      restore(bytes, valueStart, value as Document);
    }
  }
}

/** The document a DBRef was decoded from, its fields in the order of its bytes at `start`. */
function plainDocument(bytes: Uint8Array, start: number, ref: DBRef): Document {
  const plain: Document = {};
  for (const { name } of elementsOf(bytes, start)) {
    const value =
      name === '$ref' ? ref.collection : name === '$id' ? ref.oid : name === '$db' ? ref.db : ref.fields[name];
    defineField(plain, name, value);
  }
  return plain;
}
