import type { Document, Timestamp } from 'bson';

import { timestampOf } from '../changes/change-log.js';
import { notSupported } from '../query/expression-check.js';
import { typeAlias } from '../query/element-operators.js';
import { timeOf } from './cluster-time.js';
import { CommandError } from './command-error.js';
import { wrongFieldType } from './idl-fields.js';

/** The levels of mongod's ReadConcernLevel enumeration. */
const LEVELS: readonly string[] = ['local', 'majority', 'linearizable', 'available', 'snapshot'];

/** The levels `afterClusterTime` may come with (mongod: 'available' does not wait, 'linearizable' need not). */
const CAUSAL_LEVELS = new Set(['local', 'majority', 'snapshot']);

/** `Timestamp(seconds, increment)`, as mongod prints a time in its messages. */
function printed(time: bigint): string {
  const timestamp = timestampOf(time);
  return `Timestamp(${timestamp.getHighBitsUnsigned()}, ${timestamp.getLowBitsUnsigned()})`;
}

/** A readConcern time field: a Timestamp (TypeMismatch otherwise), as a bigint. */
function timeField(concern: Document, field: string): bigint | undefined {
  const value: unknown = concern[field];
  if (value === undefined) return undefined;
  if (typeAlias(value) !== 'timestamp') throw wrongFieldType(`readConcern.${field}`, value, "type 'timestamp'");
  return timeOf(value as Timestamp);
}

/**
 * Checks a command's `readConcern` as mongod's ReadConcernArgs parses it
 * (a document; a known level; Timestamps for `afterClusterTime` and
 * `atClusterTime`, not both, each with the levels it allows, neither null)
 * and, for a causally consistent read, that `afterClusterTime` is not past
 * the server's cluster time `now` (InvalidOptions, in mongod's words). A
 * single member has applied every write it acknowledged, so there is
 * nothing to wait for.
 */
export function checkReadConcern(cmd: Document, now: () => bigint): void {
  const concern: unknown = cmd.readConcern;
  if (concern === undefined) return;
  if (typeAlias(concern) !== 'object') throw new CommandError('FailedToParse', 'readConcern field should be an object');
  const { level } = concern as Document;
  if (level !== undefined) {
    if (typeof level !== 'string') throw wrongFieldType('readConcern.level', level, "type 'string'");
    if (!LEVELS.includes(level)) {
      throw new CommandError(
        'BadValue',
        `Enumeration value '${level}' for field 'readConcern.level' is not a valid value.`,
      );
    }
  }
  const after = timeField(concern as Document, 'afterClusterTime');
  const at = timeField(concern as Document, 'atClusterTime');
  const effective = typeof level === 'string' ? level : 'local';
  if (after !== undefined && at !== undefined) {
    throw new CommandError(
      'InvalidOptions',
      'Specifying a timestamp for readConcern snapshot in a causally consistent session is not allowed. See https://docs.mongodb.com/manual/core/read-isolation-consistency-recency/#causal-consistency',
    );
  }
  if (after !== undefined && !CAUSAL_LEVELS.has(effective)) {
    throw new CommandError(
      'InvalidOptions',
      'afterClusterTime field can be set only if level is equal to majority, local, or snapshot',
    );
  }
  if (at !== undefined && effective !== 'snapshot') {
    throw new CommandError('InvalidOptions', 'atClusterTime field can be set only if level is equal to snapshot');
  }
  // mongod allows an afterClusterTime of 0 seconds but not Timestamp(0, 0); an atClusterTime needs seconds.
  if (at !== undefined && at >> 32n === 0n)
    throw new CommandError('InvalidOptions', 'atClusterTime cannot be a null timestamp');
  if (after === 0n) throw new CommandError('InvalidOptions', 'afterClusterTime cannot be a null timestamp');
  if (after !== undefined && after > now()) {
    throw new CommandError(
      'InvalidOptions',
      `readConcern afterClusterTime value must not be greater than the current clusterTime. Requested clusterTime: ${printed(after)}; current clusterTime: ${printed(now())}`,
    );
  }
}

/** The reads mongod runs at a point in time under `readConcern: { level: 'snapshot' }` outside transactions. */
const SNAPSHOT_READS = new Set(['find', 'aggregate', 'distinct']);

/**
 * A readConcern on a transaction's command after its first: mongod takes the
 * transaction's read concern from its first command and refuses another
 * (InvalidOptions); an empty one (`{}`) is no read concern.
 */
export function checkTransactionReadConcern(cmd: Document): void {
  const concern: unknown = cmd.readConcern;
  if (cmd.startTransaction === true || typeAlias(concern) !== 'object') return;
  if (Object.keys(concern as Document).length === 0) return;
  throw new CommandError('InvalidOptions', 'Only the first command in a transaction may specify a readConcern');
}

/**
 * `readConcern: { level: 'snapshot' }` outside a transaction (a snapshot
 * session's reads): mongod refuses it for any command but find, aggregate
 * and distinct (InvalidOptions, 72, in its words), and reads those at one
 * point in time. This server keeps no history to read at a past point, so it
 * refuses those too, naming the feature, rather than answer with what later
 * writes changed. Inside a transaction the level is the transaction's.
 */
export function checkSnapshotReadConcern(name: string, cmd: Document): void {
  const concern: unknown = cmd.readConcern;
  if (typeAlias(concern) !== 'object' || (concern as Document).level !== 'snapshot') return;
  if (SNAPSHOT_READS.has(name)) {
    throw notSupported(
      "readConcern level 'snapshot' outside a transaction (reads at a point in time, snapshot sessions)",
    );
  }
  throw new CommandError(
    'InvalidOptions',
    `Command ${name} does not support { readConcern: { level: "snapshot", provenance: "clientSupplied" } } :: caused by :: read concern not supported`,
  );
}
