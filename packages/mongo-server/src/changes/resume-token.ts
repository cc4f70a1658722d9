import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';

/** A point in the change history: a cluster time and the event's index within it (a transaction's operations share one time). */
export interface ChangePosition {
  /** The cluster time as a 64-bit number: seconds in the high half, increment in the low half (a BSON Timestamp). */
  readonly time: bigint;
  /** The event's index within its transaction (`txnOpIndex`); 0 outside transactions. */
  readonly opIndex: number;
}

/** What a resume token stands for. */
export interface ResumeTokenData extends ChangePosition {
  /** `event`: after that event; `highWaterMark`: after every event up to and including `time`. */
  readonly kind: 'event' | 'highWaterMark';
  /** An `invalidate` event's token, which `startAfter` accepts and `resumeAfter` refuses. */
  readonly fromInvalidate: boolean;
}

/** mongod's KeyString type bytes of the values a resume token holds. */
const KEY_TIMESTAMP = '82';
const KEY_ZERO = '29';
const KEY_POSITIVE_INT = 0x2a;
const KEY_FALSE = '6E';
const KEY_TRUE = '6F';
const KEY_NULL = '14';
const KEY_END = '04';
/** The resume token format mongod 7 writes. */
const TOKEN_VERSION = 2;
/** mongod's token types: a high-water mark, or an event. */
const HIGH_WATER_MARK_TYPE = 0;
const EVENT_TYPE = 128;

/** KeyString of a non-negative integer: a type byte counting its bytes, then the value shifted left by one. */
function keyInt(value: number): string {
  if (value === 0) return KEY_ZERO;
  let hex = (BigInt(value) << 1n).toString(16).toUpperCase();
  if (hex.length % 2 === 1) hex = `0${hex}`;
  const bytes = hex.length / 2;
  return (KEY_POSITIVE_INT + bytes).toString(16).toUpperCase() + hex;
}

/** Reads a {@link keyInt} at `at`; undefined when the text holds none there. */
function readKeyInt(hex: string, at: number): { value: number; next: number } | undefined {
  const type = hex.slice(at, at + 2);
  if (type === KEY_ZERO) return { value: 0, next: at + 2 };
  const bytes = Number.parseInt(type, 16) - KEY_POSITIVE_INT;
  if (!(bytes >= 1 && bytes <= 4)) return undefined;
  const digits = hex.slice(at + 2, at + 2 + bytes * 2);
  if (digits.length !== bytes * 2) return undefined;
  const shifted = Number.parseInt(digits, 16);
  if (shifted % 2 !== 0) return undefined;
  return { value: shifted / 2, next: at + 2 + bytes * 2 };
}

/**
 * The `_data` of a resume token, laid out as mongod 7's (a hex KeyString of
 * cluster time, version 2, token type, `txnOpIndex`, `fromInvalidate` and a
 * null collection UUID), so tokens sort by position as mongod's do. Event
 * tokens here carry no event identifier: a position names one event.
 */
export function encodeResumeToken(data: ResumeTokenData): Document {
  const time = data.time.toString(16).toUpperCase().padStart(16, '0');
  const type = data.kind === 'event' ? EVENT_TYPE : HIGH_WATER_MARK_TYPE;
  const body = [
    KEY_TIMESTAMP + time,
    keyInt(TOKEN_VERSION),
    keyInt(type),
    keyInt(data.opIndex),
    data.fromInvalidate ? KEY_TRUE : KEY_FALSE,
    KEY_NULL,
    KEY_END,
  ];
  return { _data: body.join('') };
}

function describe(token: Document): string {
  const data: unknown = token._data;
  return typeof data === 'string' ? `{ _data: "${data.slice(0, 200)}" }` : '{ ... }';
}

/**
 * Reads a `resumeAfter`/`startAfter` token with mongod's checks: `_data`
 * must be a string (40647) of hex digits (FailedToParse). A token this
 * server did not write is refused as one from another deployment.
 */
export function decodeResumeToken(token: Document): ResumeTokenData {
  const data: unknown = token._data;
  if (typeof data !== 'string') {
    throw new CommandError(
      'Location40647',
      `Bad resume token: _data of missing or of wrong type. Expected string, got ${describe(token)}`,
    );
  }
  const typeBits = token._typeBits as { _bsontype?: unknown } | undefined;
  if (typeBits !== undefined && typeBits?._bsontype !== 'Binary') {
    throw new CommandError('Location40648', `Bad resume token: _typeBits of wrong type ${describe(token)}`);
  }
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(data)) {
    throw new CommandError('FailedToParse', 'resume token string was not a valid hex string');
  }
  if (data.length === 0) throw new CommandError('Location40649', 'invalid empty resume token');
  const hex = data.toUpperCase();
  const unknown = (): CommandError =>
    new CommandError(
      'ChangeStreamFatalError',
      `cannot resume stream; the resume token was not found. ${describe(token)}: this server wrote no such token (tokens from another MongoDB deployment, or from before the server's data was dropped, cannot be used)`,
    );
  if (!hex.startsWith(KEY_TIMESTAMP) || hex.length < 18) throw unknown();
  const time = BigInt(`0x${hex.slice(2, 18)}`);
  const version = readKeyInt(hex, 18);
  const type = version && readKeyInt(hex, version.next);
  const opIndex = type && readKeyInt(hex, type.next);
  if (!version || !type || !opIndex || version.value !== TOKEN_VERSION) throw unknown();
  if (type.value !== EVENT_TYPE && type.value !== HIGH_WATER_MARK_TYPE) throw unknown();
  const flag = hex.slice(opIndex.next, opIndex.next + 2);
  if (flag !== KEY_TRUE && flag !== KEY_FALSE) throw unknown();
  if (hex.slice(opIndex.next + 2) !== KEY_NULL + KEY_END) throw unknown();
  return {
    time,
    opIndex: opIndex.value,
    kind: type.value === EVENT_TYPE ? 'event' : 'highWaterMark',
    fromInvalidate: flag === KEY_TRUE,
  };
}

/** Orders two positions: negative when `a` comes first. */
export function comparePositions(a: ChangePosition, b: ChangePosition): number {
  if (a.time !== b.time) return a.time < b.time ? -1 : 1;
  return a.opIndex - b.opIndex;
}
