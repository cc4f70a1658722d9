import { ObjectId } from './bson.cjs';
import { readExtendedJsonObjectId } from './extended-json-object-id.js';
import { NIL_OBJECT_ID, isNilObjectId } from './nil-object-id.js';
import { isObjectIdLike } from './object-id-like.js';
import { ObjectIdParseError, type ObjectIdParseErrorReason } from './object-id-parse.error.js';
import { previewString } from './preview-string.js';

export { previewString } from './preview-string.js';

/** Options of {@link parseObjectId}. */
export interface ParseObjectIdOptions {
  /**
   * Accept existing ObjectId instances (from any bson copy) as well as strings.
   * Turn it off where only text can legitimately arrive, e.g. a query string.
   * @default true
   */
  allowInstance?: boolean;
  /**
   * Accept the nil ObjectId `000000000000000000000000`. It is a valid id, so the
   * default keeps accepting it; set `false` where it can only be a client's
   * placeholder or a bug (a route parameter, a reference to another document).
   * @default true
   */
  allowNil?: boolean;
  /**
   * Also accept MongoDB extended JSON `{"$oid": "<24 hex>"}` (mongoexport,
   * Compass, EJSON clients), strictly: one key, a plain object, a 24-hex string.
   * @default false
   */
  allowExtendedJson?: boolean;
}

const HEX24 = /^[0-9a-fA-F]{24}$/;
const HEX_CHAR = /[0-9a-fA-F]/;

/**
 * Whether `value` is exactly 24 hexadecimal characters (either case) and nothing else:
 * no whitespace, no `0x`, no full-width digits, not a number, not an object,
 * not a 12-character string (which `ObjectId.isValid` accepts).
 */
export function isObjectIdHex(value: unknown): value is string {
  return typeof value === 'string' && value.length === 24 && HEX24.test(value);
}

/**
 * Turns a 24-hex string (or an ObjectId instance, or with `allowExtendedJson`
 * a `{"$oid": "<24 hex>"}` object) into an `ObjectId`, or
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
    return options.allowNil === false && value === NIL_OBJECT_ID ? undefined : new ObjectId(value);
  }
  if (value instanceof ObjectId && options.allowInstance !== false) {
    return options.allowNil === false && isNilObjectId(value) ? undefined : value;
  }
  // An ObjectId from another bson copy, or `{"$oid": …}`: rebuilt from its hex
  // so the result really is the `ObjectId` the signature promises.
  const hex = objectHexOf(value, options);
  return hex === undefined ? undefined : new ObjectId(hex);
}

/** Whether {@link parseObjectId} would accept `value` with these options, without making an ObjectId. */
export function isParsableObjectId(value: unknown, options: ParseObjectIdOptions = {}): boolean {
  if (isObjectIdHex(value)) return options.allowNil !== false || value !== NIL_OBJECT_ID;
  return objectHexOf(value, options) !== undefined;
}

/** The hex of an accepted non-string value (an ObjectId instance, `{"$oid": …}`), else `undefined`. */
function objectHexOf(value: unknown, options: ParseObjectIdOptions): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  let hex: string | undefined;
  if (options.allowInstance !== false && isObjectIdLike(value)) {
    hex = value.toHexString();
  } else if (options.allowExtendedJson) {
    const read = readExtendedJsonObjectId(value);
    if (typeof read === 'string') hex = read;
  }
  return hex !== undefined && options.allowNil === false && hex === NIL_OBJECT_ID ? undefined : hex;
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
    return describeInvalidNonString(value, options);
  }
  if (options.allowNil === false && value === NIL_OBJECT_ID) {
    return nilProblem();
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

/** The problem of a refused value that is not a string. */
function describeInvalidNonString(value: unknown, options: ParseObjectIdOptions): ObjectIdProblem {
  const isInstance = isObjectIdLike(value);
  if (isInstance && options.allowInstance !== false && options.allowNil === false && isNilObjectId(value)) {
    return nilProblem();
  }
  if (options.allowExtendedJson && typeof value === 'object' && value !== null && !isInstance) {
    return describeInvalidExtendedJson(value, options);
  }
  const instanceNote =
    options.allowInstance === false && isInstance ? ' (ObjectId instances are not accepted here)' : '';
  return problem('type', `received ${describeType(value)}${instanceNote}, expected a string of 24 hex characters`);
}

/** What is wrong with an object offered as `{"$oid": "<24 hex>"}`. */
function describeInvalidExtendedJson(value: object, options: ParseObjectIdOptions): ObjectIdProblem {
  const read = readExtendedJsonObjectId(value);
  if (typeof read === 'string') {
    // Well formed, so refused for what it names: the nil id.
    return options.allowNil === false && read === NIL_OBJECT_ID
      ? nilProblem()
      : problem('type', `${previewString(read)} is not a valid ObjectId here`);
  }
  if ('message' in read) return problem('type', read.message);
  const inner = describeInvalidObjectId(read.oid, { allowInstance: false });
  // The position, if any, counts in the "$oid" string; a missing value inside
  // the object is a wrong shape, not an absent parameter (so `optional` does not apply).
  return {
    reason: inner.reason === 'missing' ? 'type' : inner.reason,
    message: `in {"$oid": …}, ${inner.message}`,
    ...(inner.position !== undefined && { position: inner.position }),
  };
}

/** The nil id, refused where `allowNil` is false. */
function nilProblem(): ObjectIdProblem {
  return problem(
    'nil',
    `received the nil ObjectId ${NIL_OBJECT_ID} (all zeros), which names no document; expected the id of a real one`,
  );
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
