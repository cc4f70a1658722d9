import type { Document } from 'bson';

import { Long, ObjectId } from '../bson/bson-library.cjs';
import { wrongType } from './command-arguments.js';
import type { ServerInfo } from './command-context.js';
import { CommandError } from './command-error.js';
import { missingField } from './idl-fields.js';

/**
 * Longest wait of an awaitable hello: Node's timers take at most 2^31 - 1 ms
 * (a longer one fires at once), mongod takes any non-negative integer.
 */
const MAX_AWAIT_TIME_MS = 2 ** 31 - 1;

/**
 * The `topologyVersion` hello reports. The embedded server is always the
 * primary of its one-member set, so its counter never moves; the `processId`
 * is new each time the server starts listening, as a restarted mongod's is.
 */
export function topologyVersion(server: ServerInfo): Document {
  return { processId: server.processId, counter: Long.ZERO };
}

function counterOf(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (value instanceof Long) return value.toBigInt();
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw wrongType('TopologyVersion.counter', value, 'long');
}

function parseTopologyVersion(value: unknown): { processId: ObjectId; counter: bigint } {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
    throw wrongType('topologyVersion', value, 'object');
  }
  const fields = value as Document;
  for (const name of ['processId', 'counter']) {
    if (fields[name] === undefined) {
      throw missingField(`TopologyVersion.${name}`);
    }
  }
  if (!(fields.processId instanceof ObjectId))
    throw wrongType('TopologyVersion.processId', fields.processId, 'objectId');
  return { processId: fields.processId, counter: counterOf(fields.counter) };
}

function parseMaxAwaitTimeMS(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : value instanceof Long ? value.toNumber() : value;
  if (typeof n !== 'number' || Number.isNaN(n)) throw wrongType('maxAwaitTimeMS', value, 'long');
  if (!Number.isInteger(n)) throw new CommandError('BadValue', `maxAwaitTimeMS has a non-integral value: ${n}`);
  if (n < 0) throw new CommandError('Location31373', 'maxAwaitTimeMS must be a non-negative integer');
  return Math.min(n, MAX_AWAIT_TIME_MS);
}

/**
 * How long a hello waits before it answers: the awaitable hello of MongoDB's
 * streaming monitoring protocol. A client that sends the `topologyVersion` it
 * last saw with `maxAwaitTimeMS` hears back when the topology changes or
 * after `maxAwaitTimeMS`; here the topology never changes, so that is after
 * `maxAwaitTimeMS`, unless the client's version is older (another
 * `processId`: the server restarted), which answers at once. Checks the two
 * arguments with mongod's errors; 0 for a plain hello.
 */
export function helloAwaitTimeMS(cmd: Document, server: ServerInfo): number {
  const hasVersion = cmd.topologyVersion !== undefined;
  const hasMaxAwait = cmd.maxAwaitTimeMS !== undefined;
  if (!hasVersion && !hasMaxAwait) return 0;
  if (!hasVersion || !hasMaxAwait) {
    throw new CommandError(
      'Location31368',
      hasVersion
        ? "A request with a 'topologyVersion' must include 'maxAwaitTimeMS'"
        : "A request with 'maxAwaitTimeMS' must include a 'topologyVersion'",
    );
  }
  const client = parseTopologyVersion(cmd.topologyVersion);
  const maxAwaitTimeMS = parseMaxAwaitTimeMS(cmd.maxAwaitTimeMS);
  if (client.counter < 0n) throw new CommandError('Location31372', 'topologyVersion must have a non-negative counter');
  if (!client.processId.equals(server.processId)) return 0;
  const current = 0n;
  if (client.counter > current) {
    throw new CommandError(
      'Location51764',
      `Received a topology version with counter: ${client.counter} which is greater than the server topology version counter: ${current}`,
    );
  }
  return client.counter < current ? 0 : maxAwaitTimeMS;
}
