/**
 * mongod's `BSONDepth::getMaxAllowableDepth()`: a request document may nest
 * 200 documents or arrays below its top level. mongod refuses a deeper one
 * while parsing the message (validateBSON), before any command sees it.
 */
export const MAX_BSON_DEPTH = 200;

/** Bytes of an element's value after its name, for the fixed-size BSON types. */
const FIXED_SIZE: Readonly<Record<number, number>> = {
  0x01: 8, // double
  0x06: 0, // undefined
  0x07: 12, // ObjectId
  0x08: 1, // bool
  0x09: 8, // date
  0x0a: 0, // null
  0x10: 4, // int32
  0x11: 8, // timestamp
  0x12: 8, // int64
  0x13: 16, // decimal128
  0x7f: 0, // maxKey
  0xff: 0, // minKey
};

/**
 * Whether the BSON document in `bytes` nests deeper than `limit` levels below
 * its top level (documents, arrays and code-with-scope scopes count), read
 * from the bytes with an explicit stack: decoding such a document first
 * would recurse once per level, and walking the decoded value would
 * overflow the call stack further on. A malformed document answers false,
 * leaving the error to the decoder.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit = MAX_BSON_DEPTH): boolean {
  // Each level below the top costs at least 7 bytes (type, empty name, length, terminator): most
  // commands are too short to nest too deep, and need no walk.
  if (bytes.length < 5 + 7 * (limit + 1)) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const int32 = (at: number): number => (at + 4 <= bytes.length ? view.getInt32(at, true) : -1);
  const afterCString = (at: number): number => {
    const nul = bytes.indexOf(0, at);
    return nul < 0 ? bytes.length + 1 : nul + 1;
  };
  let depth = 0;
  let pos = 4; // inside the top-level document, after its length
  while (pos < bytes.length) {
    const type = bytes[pos++]!;
    if (type === 0) {
      if (depth === 0) return false;
      depth--;
      continue;
    }
    pos = afterCString(pos);
    if (type === 0x03 || type === 0x04) {
      if (++depth > limit) return true;
      pos += 4;
    } else if (type === 0x0f) {
      // Code with scope: total length, the code string, then the scope document.
      const code = int32(pos + 4);
      if (code < 0) return false;
      if (++depth > limit) return true;
      pos += 8 + code + 4;
    } else if (type === 0x02 || type === 0x0d || type === 0x0e) {
      const size = int32(pos);
      if (size < 0) return false;
      pos += 4 + size;
    } else if (type === 0x05) {
      const size = int32(pos);
      if (size < 0) return false;
      pos += 5 + size;
    } else if (type === 0x0b) {
      pos = afterCString(afterCString(pos));
    } else if (type === 0x0c) {
      const size = int32(pos);
      if (size < 0) return false;
      pos += 4 + size + 12;
    } else if (type in FIXED_SIZE) {
      pos += FIXED_SIZE[type]!;
    } else {
      return false;
    }
  }
  return false;
}
