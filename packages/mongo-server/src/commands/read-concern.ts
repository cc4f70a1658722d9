import type { Document, Timestamp } from 'bson';

import { timestampOf } from '../changes/change-log.js';
import { notSupported } from '../query/expression-check.js';
import { typeAlias } from '../query/element-operators.js';
import { timeOf } from './cluster-time.js';
import { CommandError } from './command-error.js';
import { checkStructFields, wrongFieldType } from './idl-fields.js';

/** The levels of mongod's ReadConcernLevel enumeration. */
const LEVELS: readonly string[] = ['local', 'majority', 'linearizable', 'available', 'snapshot'];

/** The fields of mongod's ReadConcernIdl, a strict struct: any other is an unknown field (40415). */
const FIELDS: Readonly<Record<string, boolean>> = {
  level: false,
  afterOpTime: false,
  afterClusterTime: false,
  atClusterTime: false,
  provenance: false,
  $_allowTransactionTableSnapshot: false,
  $_waitLastStableRecoveryTimestamp: false,
};

/** mongod's ReadWriteConcernProvenanceSource enumeration. */
const PROVENANCES: readonly string[] = [
  'clientSupplied',
  'implicitDefault',
  'customDefault',
  'getLastErrorDefaults',
  'internalWriteDefault',
];

/** A string of an IDL enumeration, with mongod's TypeMismatch and BadValue. */
function checkEnum(field: string, value: unknown, values: readonly string[]): void {
  if (typeof value !== 'string') throw wrongFieldType(`readConcern.${field}`, value, "type 'string'");
  if (!values.includes(value)) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${value}' for field 'readConcern.${field}' is not a valid value.`,
    );
  }
}

/** One field of the struct, by its IDL type, in the order the command gives them. */
function checkField(field: string, value: unknown): void {
  if (field === 'level') checkEnum(field, value, LEVELS);
  else if (field === 'provenance') checkEnum(field, value, PROVENANCES);
  else if (field === 'afterClusterTime' || field === 'atClusterTime') timeValue(field, value);
  else if (field === 'afterOpTime') {
    if (typeAlias(value) !== 'object') throw wrongFieldType('readConcern.afterOpTime', value, "type 'object'");
  } else if (typeof value !== 'boolean') throw wrongFieldType(`readConcern.${field}`, value, "type 'bool'");
}

/** The levels `afterClusterTime` may come with (mongod: 'available' does not wait, 'linearizable' need not). */
const CAUSAL_LEVELS = new Set(['local', 'majority', 'snapshot']);

/** `Timestamp(seconds, increment)`, as mongod prints a time in its messages. */
function printed(time: bigint): string {
  const timestamp = timestampOf(time);
  return `Timestamp(${timestamp.getHighBitsUnsigned()}, ${timestamp.getLowBitsUnsigned()})`;
}

/** A readConcern time field's value: a Timestamp (TypeMismatch otherwise), as a bigint. */
function timeValue(field: string, value: unknown): bigint | undefined {
  if (value === undefined) return undefined;
  if (typeAlias(value) !== 'timestamp') throw wrongFieldType(`readConcern.${field}`, value, "type 'timestamp'");
  return timeOf(value as Timestamp);
}

/**
 * Checks a command's `readConcern` as mongod's ReadConcernArgs parses it
 * (a document of ReadConcernIdl's fields only, each of its type, in the
 * command's order; a known level; `afterClusterTime` and `atClusterTime`
 * not both, each with the levels it allows, neither null)
 * and, for a causally consistent read, that `afterClusterTime` is not past
 * the server's cluster time `now` (InvalidOptions, in mongod's words). A
 * single member has applied every write it acknowledged, so there is
 * nothing to wait for.
 */
export function checkReadConcern(cmd: Document, now: () => bigint): void {
  const concern: unknown = cmd.readConcern;
  if (concern === undefined) return;
  if (typeAlias(concern) !== 'object') throw new CommandError('FailedToParse', 'readConcern field should be an object');
  checkStructFields('readConcern', concern as Document, FIELDS, checkField);
  const { level, afterOpTime, afterClusterTime, atClusterTime } = concern as Document;
  const after = timeValue('afterClusterTime', afterClusterTime);
  const at = timeValue('atClusterTime', atClusterTime);
  const effective = typeof level === 'string' ? level : 'local';
  if (after !== undefined && afterOpTime !== undefined) {
    throw new CommandError('InvalidOptions', 'Can not specify both afterClusterTime and afterOpTime');
  }
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
