import type { Document, Timestamp } from 'bson';

import { Binary, BSON, Long } from '../bson/bson-library.cjs';
import { defineField } from '../bson/define-field.js';
import { timestampOf } from '../changes/change-log.js';
import { typeAlias } from '../query/element-operators.js';
import { CommandError } from './command-error.js';

/** mongod's `maxAcceptableLogicalClockDriftSecs` default: how far past the wall clock a gossiped time may be. */
const MAX_CLOCK_DRIFT_SECS = 365 * 24 * 60 * 60;

/** The signature of a cluster time no key signs (mongod without authentication): 20 zero bytes, key 0. */
const NO_SIGNATURE: Document = { hash: new Binary(new Uint8Array(20), 0), keyId: Long.fromNumber(0) };

/** The fields of the latest stamped time, kept while the time does not move (most replies between two writes). */
let stamped:
  | {
      time: bigint;
      operationTime: Timestamp;
      clusterTime: Document;
      /** The two fields as BSON elements, encoded at the first reply that needs them. */
      elements?: Uint8Array;
    }
  | undefined;

/**
 * `reply` with the fields every reply of a replica-set member carries: the
 * cluster time it gossips (`$clusterTime`, unsigned) and the operation's
 * time (`operationTime`), which a driver sends back as
 * `readConcern.afterClusterTime` in a causally consistent session.
 */
export function withClusterTime(reply: Document, time: bigint): Document {
  if (stamped?.time !== time) {
    const operationTime = timestampOf(time);
    stamped = { time, operationTime, clusterTime: { clusterTime: operationTime, signature: NO_SIGNATURE } };
  }
  // Copied field by field: a spread into a literal with more fields takes V8's slow path (~1.5 µs a reply).
  const stampedReply: Document = {};
  for (const field of Object.keys(reply)) {
    // Defined, not assigned, for a field named "__proto__": it stays a field instead of becoming the prototype.
    if (field === '__proto__') defineField(stampedReply, field, reply[field]);
    else stampedReply[field] = reply[field];
  }
  stampedReply.$clusterTime = stamped.clusterTime;
  stampedReply.operationTime = stamped.operationTime;
  return stampedReply;
}

/**
 * The BSON elements of `$clusterTime` and `operationTime` (no length, no
 * terminator) when `reply` ends with the very objects {@link withClusterTime}
 * stamped last, encoded once per time; undefined for any other reply. Every
 * reply carries both, and bson took about a third of a find reply's encoding
 * for them (a Timestamp twice, a Binary and a Long).
 */
export function stampedElements(reply: Document): Uint8Array | undefined {
  if (
    stamped === undefined ||
    reply.$clusterTime !== stamped.clusterTime ||
    reply.operationTime !== stamped.operationTime
  ) {
    return undefined;
  }
  if (stamped.elements === undefined) {
    const bytes = BSON.serialize({ $clusterTime: stamped.clusterTime, operationTime: stamped.operationTime });
    stamped.elements = bytes.subarray(4, bytes.length - 1);
  }
  return stamped.elements;
}

/**
 * The op time of the latest write, in term 1 (this member has been primary
 * since it started), and the date of its second: hello's `lastWrite` and
 * replSetGetStatus' optimes, which the same clock as `operationTime` gives.
 */
export function lastWriteOpTime(time: bigint): { opTime: { ts: Timestamp; t: Long }; date: Date } {
  const ts = timestampOf(time);
  return { opTime: { ts, t: Long.fromNumber(1) }, date: new Date(ts.getHighBitsUnsigned() * 1000) };
}

/** A Timestamp as the bigint the change log counts in (seconds in the high 32 bits). */
export function timeOf(timestamp: Timestamp): bigint {
  return (BigInt(timestamp.getHighBitsUnsigned()) << 32n) | BigInt(timestamp.getLowBitsUnsigned());
}

/**
 * The time a command's `$clusterTime` gossips, which the server's clock
 * moves up to (mongod without authentication accepts it unsigned); undefined
 * when the command has none or it is not `{ clusterTime: Timestamp, … }`.
 * ClusterTimeFailsRateLimiter for a time more than a year past the wall
 * clock, as mongod's rate limiter answers.
 */
export function gossipedTime(cmd: Document, wallClockMS: number): bigint | undefined {
  const gossip: unknown = cmd.$clusterTime;
  if (typeAlias(gossip) !== 'object') return undefined;
  const clusterTime: unknown = (gossip as Document).clusterTime;
  if (typeAlias(clusterTime) !== 'timestamp') return undefined;
  const seconds = (clusterTime as Timestamp).getHighBitsUnsigned();
  const wallClockSecs = Math.floor(wallClockMS / 1000);
  if (seconds > wallClockSecs && seconds - wallClockSecs > MAX_CLOCK_DRIFT_SECS) {
    throw new CommandError(
      'ClusterTimeFailsRateLimiter',
      `New clusterTime, ${seconds}, is too far from this node's wall clock time, ${wallClockSecs}.`,
    );
  }
  return timeOf(clusterTime as Timestamp);
}
