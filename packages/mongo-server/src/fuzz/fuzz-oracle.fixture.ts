/**
 * The server fuzzer's oracle for one reply: a well-formed MongoDB reply to
 * the request (`ok` 0 or 1, and an error with code, codeName and errmsg that
 * is neither the router's catch-all InternalError nor a JavaScript error
 * message), unless it is one of the known bugs tolerated for now.
 */
import type { Document } from 'bson';

import { BSON } from '../bson/bson-library.cjs';
import { OpCode } from '../wire/wire-constants.js';

/** A request not answered (nor its connection closed) within this is a hang. */
export const HANG_MS = 5000;

/** Messages of JavaScript's own errors: a reply carrying one leaked an exception instead of a MongoDB error. */
const JS_ERROR =
  /Cannot read propert|Cannot set propert|Cannot destructure|Cannot convert|is not a function|is not iterable|is not a constructor|is not defined|Maximum call stack|Invalid array length|Invalid string length|Invalid time value|radix must be|circular structure|\b(Type|Reference|Range|Syntax)Error\b/;

/**
 * Bugs the fuzzer finds but tolerates for now, each to be deleted with its
 * fix, so that the fuzzer keeps looking for new ones meanwhile: mingo's own
 * TypeErrors on a malformed stage or expression argument (`{ $unwind: 0 }`,
 * `{ $bucket: NumberDecimal(…) }`, `{ $densify: 7 }`) reach the client as
 * BadValue with the JavaScript message, through withMingoErrors
 * (query/query-context.ts), instead of mongod's message for that stage. The
 * command fails as it should; only its message is wrong.
 */
const KNOWN_BUGS: ((body: Document) => boolean)[] = [
  (body) => body.codeName === 'BadValue' && JS_ERROR.test(String(body.errmsg)),
];

/** A reply as received. */
export interface Reply {
  readonly opCode: number;
  readonly responseTo: number;
  readonly body: Document;
}

/** A command or reply for a failure message (a very deep one is too deep to print). */
export function show(body: Document): string {
  try {
    return BSON.EJSON.stringify(body, { relaxed: true }).slice(0, 2000);
  } catch {
    return `{ ${Object.keys(body).join(', ')} } (too deep to print)`;
  }
}

/** Throws unless `reply` is a well-formed MongoDB reply to request `requestId`. */
export function checkReply(reply: Reply, requestId: number, legacy: boolean): void {
  const { body } = reply;
  const fail = (why: string) => {
    throw new Error(`${why}: ${show(body)}`);
  };
  if (reply.responseTo !== requestId) fail(`reply to request ${reply.responseTo}, expected ${requestId}`);
  if (reply.opCode !== (legacy ? OpCode.OP_REPLY : OpCode.OP_MSG)) fail(`reply with opcode ${reply.opCode}`);
  if (body.ok !== 0 && body.ok !== 1) fail('reply without ok: 0 or 1');
  if (body.ok === 1) return;
  if (typeof body.code !== 'number' || typeof body.codeName !== 'string' || typeof body.errmsg !== 'string') {
    fail('error reply without code, codeName and errmsg');
  }
  if (KNOWN_BUGS.some((known) => known(body))) return;
  if (body.codeName === 'InternalError') fail('InternalError (an exception the server did not expect)');
  if (JS_ERROR.test(body.errmsg as string)) fail('error reply with a JavaScript error message');
}
