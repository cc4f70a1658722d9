import type { Document } from 'bson';

import { notSupported } from '../query/expression-check.js';
import { typeAlias } from '../query/element-operators.js';
import { CommandError } from './command-error.js';

/** The reads mongod runs at a point in time under `readConcern: { level: 'snapshot' }` outside transactions. */
const SNAPSHOT_READS = new Set(['find', 'aggregate', 'distinct']);

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
