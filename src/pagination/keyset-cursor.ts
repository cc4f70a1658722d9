import { createHmac, timingSafeEqual } from 'node:crypto';
import { Decimal128, Long, ObjectId, isObjectIdLike } from '../core/index.js';
import { KeysetPaginationError } from './keyset-pagination.error.js';
import { formatKeysetSort, type KeysetSort, type KeysetValueType } from './keyset-sort.js';

/** A sort value a cursor can carry (`null` also stands for a missing field). */
export type KeysetValue = number | string | Date | ObjectId | Decimal128 | Long | null;

/** A position in a sorted list: the sort value and `_id` of one document. */
export interface KeysetCursor {
  sort: KeysetSort;
  /** The document's value of `sort.field` (its `_id` again when sorting by `_id`). */
  value: KeysetValue;
  id: ObjectId;
}

/** How cursors are signed and bounded; give `keysetQuery()` and `decodeKeysetCursor()` the same. */
export interface KeysetCursorOptions {
  /**
   * HMAC-SHA256 key. When set, every cursor is signed and one without this
   * signature is refused, so clients cannot forge positions (which matters
   * when the list is sorted by a field it does not show). Rotating it makes
   * every cursor in circulation a 400.
   */
  secret?: string | Buffer;
  /**
   * Longest cursor accepted, in characters, checked before anything is decoded.
   * @default 1024
   */
  maxLength?: number;
}

/** Default of {@link KeysetCursorOptions.maxLength}. */
export const MAX_KEYSET_CURSOR_LENGTH = 1024;

// Cursor format, version 1: base64url(JSON) [+ "." + base64url(first 16 bytes of HMAC-SHA256)].
// JSON keys: v (1), s (sort as written, "-price"), i (_id hex), and for other fields than _id
// t (type tag) with k (the value as canonical text) unless t is "z" (null).
const VERSION = 1;
const SIGNATURE_LENGTH = 22; // 16 bytes in base64url
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const HEX24 = /^[0-9a-f]{24}$/;
const INTEGER = /^-?(?:0|[1-9]\d{0,18})$/;
const MAX_DATE_MS = 8.64e15;
const utf8 = new TextDecoder('utf-8', { fatal: true });

type Tag = 'n' | 'l' | 'm' | 's' | 'D' | 'o' | 'z';
const TYPE_OF_TAG: Record<Tag, KeysetValueType> = {
  n: 'number',
  l: 'number',
  m: 'number',
  s: 'string',
  D: 'date',
  o: 'objectId',
  z: 'null',
};

/** Turns a position into the opaque text a client passes back as `after` or `before`. */
export function encodeKeysetCursor(cursor: KeysetCursor, options: KeysetCursorOptions = {}): string {
  const { sort, value, id } = cursor;
  const body: Record<string, unknown> = { v: VERSION, s: formatKeysetSort(sort), i: id.toHexString() };
  if (sort.field !== '_id') {
    const [tag, text] = tagged(value, sort);
    body.t = tag;
    if (text !== undefined) body.k = text;
  }
  const payload = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  const encoded = options.secret === undefined ? payload : `${payload}.${sign(payload, options.secret)}`;
  const maxLength = options.maxLength ?? MAX_KEYSET_CURSOR_LENGTH;
  if (encoded.length > maxLength) {
    throw new RangeError(
      `encodeKeysetCursor: the cursor at ${sort.field} of _id ${id.toHexString()} is ${encoded.length} characters, ` +
        `over maxLength ${maxLength}; raise maxLength or sort by a shorter field`,
    );
  }
  return encoded;
}

/**
 * Reads a client's cursor for a list in `sort`, strictly: its length first,
 * then base64url, the signature when a secret is set, the JSON's exact keys,
 * the sort it was made for and the type of its value. Anything else throws a
 * {@link KeysetPaginationError}, whose message names `name` (the parameter).
 */
export function decodeKeysetCursor(
  text: unknown,
  sort: KeysetSort,
  options: KeysetCursorOptions = {},
  name = 'cursor',
): KeysetCursor {
  const fix = 'pass nextCursor or previousCursor of a page unchanged, or leave it out to start from the first page';
  const malformed = (what: string) =>
    new KeysetPaginationError('malformed', `${name} is not a cursor of this list (${what}); ${fix}`);
  if (Array.isArray(text)) throw malformed(`given ${text.length} times`);
  if (typeof text !== 'string') throw malformed('not text');
  const maxLength = options.maxLength ?? MAX_KEYSET_CURSOR_LENGTH;
  if (text.length > maxLength) {
    throw new KeysetPaginationError(
      'too-long',
      `${name} is ${text.length} characters long, longer than any cursor of this list (${maxLength}); ${fix}`,
    );
  }
  const [payload, signature, ...rest] = text.split('.');
  if (rest.length > 0 || !BASE64URL.test(payload)) throw malformed('not base64url text');
  if (options.secret === undefined) {
    if (signature !== undefined) throw malformed('signed, but this list does not sign its cursors');
  } else if (signature === undefined || !sameSignature(signature, sign(payload, options.secret))) {
    throw new KeysetPaginationError('signature', `${name} has been altered or was signed with another key; ${fix}`);
  }
  const bytes = Buffer.from(payload, 'base64url');
  // Node's decoder skips what it cannot read: only text that re-encodes to itself is accepted.
  if (bytes.toString('base64url') !== payload) throw malformed('not base64url text');
  let body: unknown;
  try {
    body = JSON.parse(utf8.decode(bytes));
  } catch {
    throw malformed('damaged');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw malformed('damaged');
  const fields = body as Record<string, unknown>;
  if (fields.v !== VERSION) throw malformed('unknown version');
  const wanted = formatKeysetSort(sort);
  if (typeof fields.s !== 'string') throw malformed('damaged');
  if (fields.s !== wanted) {
    throw new KeysetPaginationError(
      'sort-mismatch',
      `${name} was made for another sort than sort=${wanted}; send the sort of the page it came from, or leave ${name} out to start from the first page`,
    );
  }
  if (typeof fields.i !== 'string' || !HEX24.test(fields.i)) throw malformed('damaged');
  const id = ObjectId.createFromHexString(fields.i);
  if (sort.field === '_id') {
    // Own keys only, so `__proto__` or `constructor` smuggled into the JSON is refused too.
    if (!hasExactly(fields, ['i', 's', 'v'])) throw malformed('damaged');
    return { sort, value: id, id };
  }
  const tag = fields.t;
  if (typeof tag !== 'string' || !Object.hasOwn(TYPE_OF_TAG, tag)) throw malformed('damaged');
  if (!hasExactly(fields, tag === 'z' ? ['i', 's', 't', 'v'] : ['i', 'k', 's', 't', 'v'])) throw malformed('damaged');
  const type = TYPE_OF_TAG[tag as Tag];
  if (sort.types && !sort.types.includes(type)) throw malformed(`a ${type} value, but ${sort.field} holds none`);
  const value = untagged(tag as Tag, fields.k);
  if (value === undefined) throw malformed('damaged');
  return { sort, value, id };
}

/** The sort value of a document as a cursor carries it; a missing field is `null`. */
export function keysetCursorOf<T extends { _id: ObjectId }>(document: T, sort: KeysetSort): KeysetCursor {
  if (sort.field === '_id') return { sort, value: document._id, id: document._id };
  let value: unknown = document;
  for (const part of sort.field.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return { sort, value: (value ?? null) as KeysetValue, id: document._id };
}

/** The tag and canonical text of a value, or a TypeError naming what the field holds. */
function tagged(value: unknown, sort: KeysetSort): [Tag, string | undefined] {
  const tag = tagOf(value);
  if (tag === undefined || (sort.types && !sort.types.includes(TYPE_OF_TAG[tag]))) {
    const held = value === null ? 'null' : value instanceof Date ? 'an invalid or other Date' : typeof value;
    throw new TypeError(
      `keyset cursor: ${sort.field} holds ${(value as { _bsontype?: string })?._bsontype ?? held} in a document; ` +
        `a cursor carries ${sort.types?.join(', ') ?? 'a number, string, Date, ObjectId, Decimal128, Long or null'} ` +
        `(not NaN): give the field one type, or declare it in the sort's types`,
    );
  }
  switch (tag) {
    case 'n':
      return [tag, String(Number(value))];
    case 'l':
    case 'm':
      return [tag, String(value)];
    case 's':
      return [tag, value as string];
    case 'D':
      return [tag, String((value as Date).getTime())];
    case 'o':
      return [tag, (value as ObjectId).toHexString().toLowerCase()];
    case 'z':
      return [tag, undefined];
  }
}

function tagOf(value: unknown): Tag | undefined {
  if (value === null || value === undefined) return 'z';
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : 'n';
  if (typeof value === 'string') return 's';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : 'D';
  if (isObjectIdLike(value)) return 'o';
  const bsonType = (value as { _bsontype?: unknown })._bsontype;
  // Int32 and Double wrappers appear when a read asks for promoteValues: false.
  if (bsonType === 'Int32' || bsonType === 'Double') return tagOf((value as { valueOf(): number }).valueOf());
  if (bsonType === 'Long') return 'l';
  if (bsonType === 'Decimal128') return String(value) === 'NaN' ? undefined : 'm';
  return undefined;
}

/** The value back from its text, or `undefined` unless the text is exactly what `tagged()` writes. */
function untagged(tag: Tag, text: unknown): KeysetValue | undefined {
  if (tag === 'z') return null;
  if (typeof text !== 'string') return undefined;
  switch (tag) {
    case 'n': {
      const number = Number(text);
      return text !== '' && !Number.isNaN(number) && String(number) === text ? number : undefined;
    }
    case 'l': {
      if (!INTEGER.test(text)) return undefined;
      const long = Long.fromString(text);
      return long.toString() === text ? long : undefined; // out of range wraps, and then differs
    }
    case 'm': {
      if (text.length > 48) return undefined;
      try {
        const decimal = Decimal128.fromString(text);
        return decimal.toString() === text && text !== 'NaN' ? decimal : undefined;
      } catch {
        return undefined;
      }
    }
    case 's':
      return text;
    case 'D': {
      if (!INTEGER.test(text) || Math.abs(Number(text)) > MAX_DATE_MS) return undefined;
      return new Date(Number(text));
    }
    case 'o':
      return HEX24.test(text) ? ObjectId.createFromHexString(text) : undefined;
  }
}

function hasExactly(fields: Record<string, unknown>, keys: string[]): boolean {
  const own = Object.keys(fields).sort();
  return own.length === keys.length && own.every((key, index) => key === keys[index]);
}

function sign(payload: string, secret: string | Buffer): string {
  return createHmac('sha256', secret).update(payload).digest('base64url').slice(0, SIGNATURE_LENGTH);
}

function sameSignature(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}
