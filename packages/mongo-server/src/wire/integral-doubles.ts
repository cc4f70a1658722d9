import type { Document } from 'bson';

import { Double } from '../bson/bson-library.cjs';
import { writesAsInt32 } from '../bson/int32.js';

/** Bytes of an element's value after its name by type byte, for the fixed-size BSON types; -1 otherwise. */
const FIXED_SIZE = new Int8Array(256).fill(-1);
for (const [type, size] of [
  [0x01, 8], // double
  [0x06, 0], // undefined
  [0x07, 12], // ObjectId
  [0x08, 1], // bool
  [0x09, 8], // date
  [0x0a, 0], // null
  [0x10, 4], // int32
  [0x11, 8], // timestamp
  [0x12, 8], // int64
  [0x13, 16], // decimal128
  [0x7f, 0], // maxKey
  [0xff, 0], // minKey
]) {
  FIXED_SIZE[type!] = size!;
}

/**
 * Whether a double with this value needs a `Double` marker to keep its type:
 * `BSON.serialize` writes an integral JS number in int32 range (but not -0)
 * as int32, any other number as a double already.
 */
export function needsDoubleMarker(value: number): boolean {
  return writesAsInt32(value);
}

const SCRATCH = new Uint8Array(8);
const SCRATCH_DOUBLE = new Float64Array(SCRATCH.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The little-endian double at `pos` (a DataView per message would cost more than the scan of a small one). */
function readDouble(bytes: Uint8Array, pos: number): number {
  for (let i = 0; i < 8; i++) SCRATCH[LITTLE_ENDIAN ? i : 7 - i] = bytes[pos + i]!;
  return SCRATCH_DOUBLE[0]!;
}

/** Called for each element of a document: its type byte, where its name starts and where its value starts. */
type Visit = (type: number, nameStart: number, valueStart: number) => void;

/** The little-endian int32 at `pos` (a length), read from the bytes without a DataView. */
export function int32At(bytes: Uint8Array, pos: number): number {
  return bytes[pos]! | (bytes[pos + 1]! << 8) | (bytes[pos + 2]! << 16) | (bytes[pos + 3]! << 24);
}

/**
 * Where the value of an element of `type` starting at `pos` ends, entering
 * documents and arrays (their value ends after their length) and skipping a
 * code-with-scope whole; -1 for an unknown type or a length past the end.
 */
export function valueEnd(bytes: Uint8Array, type: number, pos: number): number {
  const fixed = FIXED_SIZE[type]!;
  if (fixed >= 0) return pos + fixed;
  if (type === 0x03 || type === 0x04) return pos + 4;
  if (type === 0x02 || type === 0x0d || type === 0x0e || type === 0x05 || type === 0x0f || type === 0x0c) {
    if (pos + 4 > bytes.length) return -1;
    const size = int32At(bytes, pos);
    if (size < 0) return -1;
    // string-like: length + bytes; binary: length + subtype + bytes; code with scope: its total length; dbPointer: a string + 12-byte id.
    return pos + (type === 0x0f ? size : type === 0x05 ? 5 + size : type === 0x0c ? 16 + size : 4 + size);
  }
  if (type === 0x0b) {
    const pattern = bytes.indexOf(0, pos);
    const options = pattern < 0 ? -1 : bytes.indexOf(0, pattern + 1);
    return options < 0 ? -1 : options + 1;
  }
  return -1;
}

/**
 * Whether the BSON document in `bytes` holds a double that needs a marker
 * (see {@link needsDoubleMarker}): one pass over the bytes that allocates
 * nothing, so a message without one (the common case) costs little.
 */
function hasIntegralDouble(bytes: Uint8Array): boolean {
  let pos = 4;
  while (pos < bytes.length) {
    const type = bytes[pos++]!;
    if (type === 0) continue;
    // A field name is short: a loop beats a native indexOf call here.
    while (pos < bytes.length && bytes[pos] !== 0) pos++;
    if (pos++ >= bytes.length) return false;
    if (type === 0x01 && pos + 8 <= bytes.length && needsDoubleMarker(readDouble(bytes, pos))) return true;
    pos = valueEnd(bytes, type, pos);
    if (pos < 0) return false;
  }
  return false;
}

/**
 * Walks the elements of the BSON document in `bytes` (documents and arrays
 * entered, code-with-scope skipped whole) with no recursion, calling `exit`
 * at the end of each embedded document or array. A malformed document just
 * ends the walk: the decoder that ran first has already refused it.
 */
function walkElements(bytes: Uint8Array, visit: Visit, exit: () => void): void {
  let pos = 4;
  let depth = 0;
  while (pos < bytes.length) {
    const type = bytes[pos++]!;
    if (type === 0) {
      if (depth-- === 0) return;
      exit();
      continue;
    }
    const nameStart = pos;
    const nul = bytes.indexOf(0, pos);
    if (nul < 0) return;
    pos = nul + 1;
    visit(type, nameStart, pos);
    if (type === 0x03 || type === 0x04) depth++;
    pos = valueEnd(bytes, type, pos);
    if (pos < 0) return;
  }
}

function isContainer(value: unknown): value is Document {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const utf8 = new TextDecoder();

/** A field name (NUL excluded), without a TextDecoder call for the usual ASCII name. */
export function fieldName(bytes: Uint8Array, start: number, end: number): string {
  let name = '';
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (byte >= 0x80) return utf8.decode(bytes.subarray(start, end));
    name += String.fromCharCode(byte);
  }
  return name;
}

/** The own field `key` of `container`, when it is a document or array to descend into. */
function child(container: Document | undefined, key: string): Document | undefined {
  const value: unknown = container && Object.hasOwn(container, key) ? container[key] : undefined;
  return isContainer(value) ? value : undefined;
}

/**
 * Top-level fields of a command body that carry values to store or compute
 * with: inserted documents, updates (their `u` and `q`, whose equalities
 * seed an upsert), findAndModify's `update` and `query`, pipelines, `let`.
 * The rest of a body is arguments (`limit`, `cursor`, `sort`, `hint`,
 * `collation`, index keys, …), which commands read as plain numbers.
 */
const DATA_FIELDS = new Set(['documents', 'updates', 'update', 'query', 'pipeline', 'let']);
const UPDATE_STATEMENT_DATA_FIELDS = new Set(['u', 'q']);

const BIT_TESTS = new Set(['$bitsAllSet', '$bitsAllClear', '$bitsAnySet', '$bitsAnyClear']);

/** Operators whose numeric arguments are counts, positions or directions, never values. */
const ARGUMENT_OPERATORS = new Set([
  '$limit',
  '$skip',
  '$sample',
  '$sort',
  '$bucket',
  '$bucketAuto',
  '$setWindowFields',
  '$densify',
  '$fill',
  '$pop',
  '$slice',
  '$position',
  '$arrayElemAt',
  '$range',
  '$substr',
  '$substrBytes',
  '$substrCP',
]);

/**
 * Whether the integral double at this path gets a marker: in a stored or
 * computed value, not in an argument (`limit: 5.0` stays a plain 5, as the
 * commands' readers expect). `names` are the field names from the top.
 */
function isValuePosition(isCommand: boolean, names: readonly string[]): boolean {
  if (names.some((name) => ARGUMENT_OPERATORS.has(name))) return false;
  // A number directly under `$project` (or its sub-documents) is an inclusion flag, not a value.
  const project = names.lastIndexOf('$project');
  if (project >= 0 && !names.slice(project + 1).some((name) => name.startsWith('$'))) return false;
  if (!isCommand) return true;
  // A bit test's mask, wherever its filter is: mongod's errors print a double mask as one ("-1.0").
  if (names.some((name) => BIT_TESTS.has(name))) return true;
  if (names.length < 2 || !DATA_FIELDS.has(names[0]!)) return false;
  return names[0] !== 'updates' || (names.length > 3 && UPDATE_STATEMENT_DATA_FIELDS.has(names[2]!));
}

/**
 * `doc`, decoded from `bytes` by bson with `promoteValues`, with every double
 * whose value `BSON.serialize` would write back as int32 (an integral double
 * such as `5.0`) in a value position (see {@link isValuePosition}) replaced
 * by a bson `Double`, so stored documents keep their types: `$type:
 * 'double'` matches it and it is returned as a double, as MongoDB does. A
 * document with `$db` is a command body; any other (an OP_MSG document
 * sequence's element, such as an inserted document) is all values.
 *
 * A first pass ({@link hasIntegralDouble}) only looks for such a double, so
 * a message without one (the common case) costs one scan. The second pass finds each one and reaches its decoded container by the field
 * names of the documents and arrays it is in, decoding only those names.
 */
export function markIntegralDoubles(bytes: Uint8Array, doc: Document): Document {
  if (!hasIntegralDouble(bytes)) return doc;
  const isCommand = Object.hasOwn(doc, '$db');
  // Per open document or array: where its name is, and its decoded value once a marker inside needed it.
  const names: number[] = [];
  const decodedNames: (string | undefined)[] = [];
  const containers: (Document | undefined | null)[] = [doc];
  // The name of the open document or array at `level` (1 = a field of the top level), decoded once.
  const nameOf = (level: number): string =>
    (decodedNames[level - 1] ??= fieldName(bytes, names[2 * level - 2]!, names[2 * level - 1]!));
  const container = (): Document | undefined => {
    for (let level = containers.length - 1; level >= 0; level--) {
      if (containers[level] !== null) {
        for (let open = level + 1; open < containers.length; open++) {
          containers[open] = child(containers[open - 1]!, nameOf(open));
        }
        break;
      }
    }
    return containers[containers.length - 1] ?? undefined;
  };
  const path = (key: string): string[] => {
    const out: string[] = [];
    for (let level = 1; level < containers.length; level++) out.push(nameOf(level));
    out.push(key);
    return out;
  };
  walkElements(
    bytes,
    (type, nameStart, valueStart) => {
      if (type === 0x03 || type === 0x04) {
        names.push(nameStart, valueStart - 1);
        decodedNames.push(undefined);
        containers.push(null);
      } else if (type === 0x01 && valueStart + 8 <= bytes.length) {
        const value = readDouble(bytes, valueStart);
        if (!needsDoubleMarker(value)) return;
        const key = fieldName(bytes, nameStart, valueStart - 1);
        if (!isValuePosition(isCommand, path(key))) return;
        const target = container();
        // Object.is: with a duplicate field name the decoded value may be another element's.
        if (!target || !Object.hasOwn(target, key) || !Object.is(target[key], value)) return;
        if (key !== '__proto__') target[key] = new Double(value);
        // Defined, not assigned: assigning "__proto__" would set the prototype.
        else
          Object.defineProperty(target, key, {
            value: new Double(value),
            writable: true,
            enumerable: true,
            configurable: true,
          });
      }
    },
    () => {
      names.length -= 2;
      decodedNames.pop();
      containers.pop();
    },
  );
  return doc;
}
