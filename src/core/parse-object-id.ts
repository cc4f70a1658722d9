import { ObjectId } from './bson.cjs';
import { isObjectIdLike } from './object-id-like.js';
import { ObjectIdParseError, type ObjectIdParseErrorReason } from './object-id-parse.error.js';

/** Options of {@link parseObjectId}. */
export interface ParseObjectIdOptions {
  /**
   * Accept existing ObjectId instances (from any bson copy) as well as strings.
   * Turn it off where only text can legitimately arrive, e.g. a query string.
   * @default true
   */
  allowInstance?: boolean;
}

const HEX24 = /^[0-9a-fA-F]{24}$/;
const HEX_CHAR = /[0-9a-fA-F]/;
const PREVIEW_CHARS = 32;

/**
 * Whether `value` is exactly 24 hexadecimal characters (either case) and nothing else:
 * no whitespace, no `0x`, no full-width digits, not a number, not an object,
 * not a 12-character string (which `ObjectId.isValid` accepts).
 */
export function isObjectIdHex(value: unknown): value is string {
  return typeof value === 'string' && value.length === 24 && HEX24.test(value);
}

/**
 * Turns a 24-hex string (or an ObjectId instance) into a `ObjectId`, or
 * throws an {@link ObjectIdParseError} that says what was wrong.
 * `''`, `null` and `undefined` are refused: bson's `new ObjectId(undefined)`
 * would silently invent a random id.
 */
export function parseObjectId(value: unknown, options: ParseObjectIdOptions = {}): ObjectId {
  const id = tryParseObjectId(value, options);
  if (id === undefined) {
    throw explainInvalidObjectId(value, options);
  }
  return id;
}

/** Like {@link parseObjectId}, but returns `undefined` for an invalid value instead of throwing. */
export function tryParseObjectId(value: unknown, options: ParseObjectIdOptions = {}): ObjectId | undefined {
  if (isObjectIdHex(value)) {
    return new ObjectId(value);
  }
  if (options.allowInstance !== false) {
    if (value instanceof ObjectId) {
      return value;
    }
    // An ObjectId from another bson copy: rebuild it from its hex so the
    // result really is the `ObjectId` the signature promises.
    if (isObjectIdLike(value)) {
      return new ObjectId(value.toHexString());
    }
  }
  return undefined;
}

/** What is wrong with a refused value, as plain data (no Error, no stack trace). */
export interface ObjectIdProblem {
  reason: ObjectIdParseErrorReason;
  /** A sentence without the "Validation failed" prefix, e.g. `"abc" is 3 characters long, expected 24 hex characters`. */
  message: string;
  /** Index (0-based, in characters) of the first non-hex character. */
  position?: number;
}

/** Builds the error for a value that {@link parseObjectId} refused. */
function explainInvalidObjectId(value: unknown, options: ParseObjectIdOptions = {}): ObjectIdParseError {
  const problem = describeInvalidObjectId(value, options);
  return new ObjectIdParseError(problem.reason, problem.message, problem.position);
}

/**
 * Says what is wrong with a value {@link parseObjectId} refuses, as plain data;
 * the pipes use it so that a rejected request builds one Error, not two.
 */
export function describeInvalidObjectId(value: unknown, options: ParseObjectIdOptions = {}): ObjectIdProblem {
  if (value === undefined || value === null || value === '') {
    return problem('missing', 'no value was given, expected 24 hex characters');
  }
  if (typeof value !== 'string') {
    const instanceNote =
      options.allowInstance === false && isObjectIdLike(value) ? ' (ObjectId instances are not accepted here)' : '';
    return problem('type', `received ${describeType(value)}${instanceNote}, expected a string of 24 hex characters`);
  }
  const shown = previewString(value);
  // Count code points, not UTF-16 units, so an emoji is one character in the message.
  const length = [...value].length;
  if (length !== 24) {
    const trimmed = value.trim();
    if (trimmed !== value && isObjectIdHex(trimmed)) {
      return problem('length', `${shown} has surrounding whitespace, expected exactly 24 hex characters`);
    }
    if (/^0x/i.test(value) && isObjectIdHex(value.slice(2))) {
      return problem('length', `${shown} starts with "0x", expected the 24 hex characters without a prefix`);
    }
    return problem(
      'length',
      `${shown} is ${length} character${length === 1 ? '' : 's'} long, expected 24 hex characters`,
    );
  }
  let position = 0;
  for (const char of value) {
    if (!HEX_CHAR.test(char)) {
      return {
        reason: 'character',
        message: `${shown} has a non-hex character ${previewString(char)} at position ${position}, expected 24 hex characters (0-9, a-f)`,
        position,
      };
    }
    position += 1;
  }
  // Unreachable: 24 hex characters would have been accepted.
  return problem('character', `${shown} is not a valid ObjectId`);
}

/**
 * Quotes a string for an error message: at most 32 characters, everything
 * outside printable ASCII escaped as `\uXXXX`, so control characters, bidi
 * overrides and look-alike digits are visible and a huge input stays short.
 */
export function previewString(value: string): string {
  const chars = [...value];
  const head = chars.slice(0, PREVIEW_CHARS).join('');
  const escaped = head.replace(/["\\]|[^\x20-\x7e]/gu, (c) =>
    c === '"' || c === '\\' ? `\\${c}` : [...c].map(toUnicodeEscape).join(''),
  );
  return chars.length > PREVIEW_CHARS ? `"${escaped}"… (${chars.length} characters)` : `"${escaped}"`;
}

function toUnicodeEscape(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code > 0xffff) {
    // Astral characters: show both UTF-16 halves, as JSON would.
    return char
      .split('')
      .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('');
  }
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

function problem(reason: ObjectIdParseErrorReason, message: string): ObjectIdProblem {
  return { reason, message };
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'number':
      return 'a number';
    case 'bigint':
      return 'a bigint';
    case 'boolean':
      return 'a boolean';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      return 'an object';
  }
}
