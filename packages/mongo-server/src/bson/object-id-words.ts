/**
 * ObjectIds read from bson 7.3's representation: four 24-bit words `i0`…`i3`
 * holding the 12 bytes in order. Its `toHexString()` returns a rope and its
 * `id` getter allocates a new Buffer on every read, both slow on the paths
 * that key, look up and compare ids (index keys, index walks, range filters).
 * Each function checks the words are there and falls back to bson's own API.
 */
import { ObjectId } from './bson-library.cjs';

/** An ObjectId; bson ≥ 7.3 keeps its 12 bytes as four 24-bit words (absent in other versions). */
interface ObjectIdWords {
  i0?: unknown;
  i1?: unknown;
  i2?: unknown;
  i3?: unknown;
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** The hex of an id held as four 24-bit words, one flat string. */
function wordsToHex(a: number, b: number, c: number, d: number): string {
  const h = HEX_CODES;
  return String.fromCharCode(
    h[(a >>> 20) & 15]!,
    h[(a >>> 16) & 15]!,
    h[(a >>> 12) & 15]!,
    h[(a >>> 8) & 15]!,
    h[(a >>> 4) & 15]!,
    h[a & 15]!,
    h[(b >>> 20) & 15]!,
    h[(b >>> 16) & 15]!,
    h[(b >>> 12) & 15]!,
    h[(b >>> 8) & 15]!,
    h[(b >>> 4) & 15]!,
    h[b & 15]!,
    h[(c >>> 20) & 15]!,
    h[(c >>> 16) & 15]!,
    h[(c >>> 12) & 15]!,
    h[(c >>> 8) & 15]!,
    h[(c >>> 4) & 15]!,
    h[c & 15]!,
    h[(d >>> 20) & 15]!,
    h[(d >>> 16) & 15]!,
    h[(d >>> 12) & 15]!,
    h[(d >>> 8) & 15]!,
    h[(d >>> 4) & 15]!,
    h[d & 15]!,
  );
}

/** Whether this bson keeps an id's bytes in order in `i0`…`i3` (a later bson could keep them otherwise). */
const WORDS_HOLD_BYTES = ((): boolean => {
  const hex = '0123456789abcdeffedcba98';
  const { i0, i1, i2, i3 } = new ObjectId(hex) as unknown as ObjectIdWords;
  if (typeof i0 !== 'number' || typeof i1 !== 'number' || typeof i2 !== 'number' || typeof i3 !== 'number') {
    return false;
  }
  return wordsToHex(i0, i1, i2, i3) === hex;
})();

/**
 * `id.toHexString()`, as one flat string. bson's builds the hex from 12
 * concatenations, a rope that `Map.get` must flatten before hashing it; key
 * and look-up together cost a find by `_id` about 0.8 µs, a tenth of the
 * server's work for it. Read from bson 7.3's words when this bson keeps them
 * as checked above, else from `toHexString()`.
 */
export function objectIdHex(id: { toHexString(): string }): string {
  const { i0, i1, i2, i3 } = id as ObjectIdWords;
  return WORDS_HOLD_BYTES &&
    typeof i0 === 'number' &&
    typeof i1 === 'number' &&
    typeof i2 === 'number' &&
    typeof i3 === 'number'
    ? wordsToHex(i0, i1, i2, i3)
    : id.toHexString();
}

/**
 * `a` against `b` (both ObjectIds) by their words, which order as their bytes
 * do; undefined when either lacks them (then compare their `id` bytes).
 */
export function compareObjectIdWords(a: object, b: object): number | undefined {
  if (!WORDS_HOLD_BYTES) return undefined;
  const x = a as ObjectIdWords;
  const y = b as ObjectIdWords;
  const { i0: a0, i1: a1, i2: a2, i3: a3 } = x;
  const { i0: b0, i1: b1, i2: b2, i3: b3 } = y;
  if (typeof a0 !== 'number' || typeof a1 !== 'number' || typeof a2 !== 'number' || typeof a3 !== 'number') {
    return undefined;
  }
  if (typeof b0 !== 'number' || typeof b1 !== 'number' || typeof b2 !== 'number' || typeof b3 !== 'number') {
    return undefined;
  }
  if (a0 !== b0) return a0 < b0 ? -1 : 1;
  if (a1 !== b1) return a1 < b1 ? -1 : 1;
  if (a2 !== b2) return a2 < b2 ? -1 : 1;
  return a3 === b3 ? 0 : a3 < b3 ? -1 : 1;
}
