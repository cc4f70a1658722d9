import { createHash } from 'node:crypto';

import type { Document, Timestamp } from 'bson';
import { Aggregator } from 'mingo/aggregator';

import { Binary, BSON } from '../bson/bson-library.cjs';
import { wrongType } from '../commands/command-arguments.js';
import { CommandError } from '../commands/command-error.js';
import { unknownField } from '../commands/idl-fields.js';
import { typeAlias } from '../query/element-operators.js';
import { checkPipeline } from '../query/pipeline-check.js';
import { mingoOptions, withMingoErrors } from '../query/query-context.js';
import { clonedEach } from '../query/update-paths.js';
import { CollectionStore } from '../store/collection-store.js';
import type { MemoryStore } from '../store/memory-store.js';
import type { ChangeEntry, ChangeLog } from './change-log.js';
import { decodeResumeToken, encodeResumeToken } from './resume-token.js';
import { notSupported } from '../query/expression-check.js';

/** Stages mongod lets follow `$changeStream` (`isAllowedInChangeStream`). */
const STREAM_STAGES = new Set([
  '$match',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$redact',
  '$changeStreamSplitLargeEvent',
]);

/** Fields of the `$changeStream` stage in MongoDB 7. */
const SPEC_FIELDS = new Set([
  'resumeAfter',
  'startAfter',
  'startAtOperationTime',
  'fullDocument',
  'fullDocumentBeforeChange',
  'allChangesForCluster',
  'showExpandedEvents',
  'showMigrationEvents',
  'showSystemEvents',
  'allowToRunOnConfigDB',
  'allowToRunOnSystemNS',
  'showRawUpdateDescription',
]);

/** Replies stay under 16 MiB of events, as mongod's batches do. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/** `lsid.uid` of a session without authentication: SHA-256 of the empty user name, as mongod reports it. */
const ANONYMOUS_UID = new Binary(createHash('sha256').update('').digest());

/** Which namespaces a stream watches: a collection, a database, or (neither) the whole deployment. */
export interface StreamScope {
  readonly db?: string;
  readonly coll?: string;
}

/** A parsed `$changeStream` aggregate: what its cursor needs for every batch. */
export interface ChangeStreamDefinition {
  readonly scope: StreamScope;
  readonly updateLookup: boolean;
  /** The stages after `$changeStream`. */
  readonly stages: readonly Document[];
  /** The first log position the stream reads. */
  readonly startSeq: number;
}

function optionalBool(spec: Document, field: string): boolean {
  const value: unknown = spec[field];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw wrongType(`$changeStream.${field}`, value, 'bool');
  }
  return value;
}

function enumField(spec: Document, field: string, values: readonly string[]): string | undefined {
  const value: unknown = spec[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw wrongType(`$changeStream.${field}`, value, 'string');
  }
  if (!values.includes(value)) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${value}' for field '$changeStream.${field}' is not a valid value.`,
    );
  }
  return value;
}

function tokenField(spec: Document, field: string): Document | undefined {
  const value: unknown = spec[field];
  if (value === undefined) return undefined;
  if (typeAlias(value) !== 'object') {
    throw wrongType(`$changeStream.${field}`, value, 'object');
  }
  return value as Document;
}

/** The namespaces `aggregate` on `db` with `target` (a name or 1) may watch, with mongod's refusals. */
function scopeOf(db: string, target: unknown, allChangesForCluster: boolean): StreamScope {
  if (allChangesForCluster) {
    if (db !== 'admin' || target !== 1) {
      throw new CommandError(
        'InvalidNamespace',
        "A $changeStream with 'allChangesForCluster:true' may only be opened on the 'admin' database, and with no collection name",
      );
    }
    return {};
  }
  if (db === 'admin' || db === 'config' || db === 'local') {
    throw new CommandError('InvalidNamespace', `$changeStream may not be opened on the internal ${db} database`);
  }
  if (target === 1) return { db };
  if (typeof target !== 'string') {
    throw new CommandError('FailedToParse', "BSON field 'aggregate' must be a collection name or 1");
  }
  if (target.startsWith('system.')) {
    throw new CommandError(
      'InvalidNamespace',
      `$changeStream may not be opened on the internal ${db}.${target} collection`,
    );
  }
  return { db, coll: target };
}

/** Where the stream starts reading: after `resumeAfter`/`startAfter`, at `startAtOperationTime`, or from now. */
function startSeq(spec: Document, log: ChangeLog): number {
  const resumeAfter = tokenField(spec, 'resumeAfter');
  const startAfter = tokenField(spec, 'startAfter');
  const startAt: unknown = spec.startAtOperationTime;
  if (startAt !== undefined && typeAlias(startAt) !== 'timestamp') {
    throw wrongType('$changeStream.startAtOperationTime', startAt, 'timestamp');
  }
  const given = [resumeAfter, startAfter, startAt].filter((option) => option !== undefined).length;
  if (given > 1) {
    throw new CommandError('Location40674', 'Only one type of resume option is allowed, but multiple were found.');
  }
  const token = resumeAfter ?? startAfter;
  if (token) {
    const data = decodeResumeToken(token);
    if (resumeAfter && data.fromInvalidate) {
      throw new CommandError(
        'InvalidResumeToken',
        "Attempting to resume a change stream using 'resumeAfter' is not allowed from an invalidate notification.",
      );
    }
    return log.seqAfter(data, token);
  }
  if (startAt !== undefined) return log.seqAtTime(BigInt.asUintN(64, (startAt as Timestamp).toBigInt()));
  return log.endSeq;
}

/**
 * Reads `{ $changeStream: spec }` and the stages after it, with mongod's
 * checks: the stage first, only the stages a change stream allows,
 * `fullDocument: 'default' | 'updateLookup'` (pre- and post-images, which
 * need `changeStreamPreAndPostImages`, are refused by name).
 */
export function parseChangeStream(
  db: string,
  target: unknown,
  pipeline: readonly Document[],
  log: ChangeLog,
): ChangeStreamDefinition {
  const isStream = (stage: unknown) =>
    typeAlias(stage) === 'object' && Object.hasOwn(stage as Document, '$changeStream');
  if (pipeline.some((stage, index) => index > 0 && isStream(stage))) {
    throw new CommandError('Location40602', '$changeStream is only valid as the first stage in a pipeline');
  }
  checkPipeline(pipeline.slice(1) as unknown[]);
  const stages = pipeline.slice(1);
  for (const stage of stages) {
    const name = Object.keys(stage)[0]!;
    if (!STREAM_STAGES.has(name)) {
      throw new CommandError('IllegalOperation', `${name} is not permitted in a $changeStream pipeline`);
    }
  }
  const spec: unknown = pipeline[0]!.$changeStream;
  if (typeAlias(spec) !== 'object') {
    throw new CommandError('Location50808', '$changeStream stage expects a document as argument');
  }
  const options = spec as Document;
  for (const field of Object.keys(options)) {
    if (!SPEC_FIELDS.has(field)) {
      throw unknownField(`$changeStream.${field}`);
    }
  }
  const fullDocument = enumField(options, 'fullDocument', ['default', 'updateLookup', 'whenAvailable', 'required']);
  if (fullDocument === 'whenAvailable' || fullDocument === 'required') {
    throw notSupported(`$changeStream fullDocument '${fullDocument}' (post-images)`);
  }
  const before = enumField(options, 'fullDocumentBeforeChange', ['off', 'whenAvailable', 'required']);
  if (before === 'whenAvailable' || before === 'required') {
    throw notSupported(`$changeStream fullDocumentBeforeChange '${before}' (pre-images)`);
  }
  if (optionalBool(options, 'showExpandedEvents')) throw notSupported('$changeStream showExpandedEvents');
  for (const field of ['showMigrationEvents', 'showSystemEvents', 'allowToRunOnConfigDB', 'allowToRunOnSystemNS']) {
    optionalBool(options, field);
  }
  if (optionalBool(options, 'showRawUpdateDescription')) throw notSupported('$changeStream showRawUpdateDescription');
  const scope = scopeOf(db, target, optionalBool(options, 'allChangesForCluster'));
  log.start();
  return { scope, updateLookup: fullDocument === 'updateLookup', stages, startSeq: startSeq(options, log) };
}

/** Whether the stream with `scope` sees `entry`, and whether the entry ends it (an `invalidate` follows). */
function relevance(scope: StreamScope, entry: ChangeEntry): { sees: boolean; invalidates: boolean } {
  if (scope.db === undefined) {
    const internal = entry.db === 'admin' || entry.db === 'config' || entry.db === 'local';
    return { sees: !internal && !entry.coll?.startsWith('system.'), invalidates: false };
  }
  if (entry.db !== scope.db) return { sees: false, invalidates: false };
  if (scope.coll === undefined) {
    if (entry.coll?.startsWith('system.')) return { sees: false, invalidates: false };
    return { sees: true, invalidates: entry.operationType === 'dropDatabase' };
  }
  if (entry.coll !== scope.coll) return { sees: false, invalidates: false };
  return { sees: true, invalidates: entry.operationType === 'drop' || entry.operationType === 'rename' };
}

/** The change event mongod 7 sends for `entry`, in its field order. */
function changeEvent(entry: ChangeEntry, store: MemoryStore, updateLookup: boolean): Document {
  const event: Document = {
    _id: entry.token,
    operationType: entry.operationType,
    clusterTime: entry.clusterTime,
    wallTime: entry.wallTime,
  };
  if (entry.fullDocument) event.fullDocument = entry.fullDocument;
  else if (entry.operationType === 'update' && updateLookup) {
    // As mongod: the document as it is now (null once deleted), not as the update left it.
    const current = store.collection(entry.db, entry.coll!)?.get(CollectionStore.idKey(entry.documentKey!));
    event.fullDocument = current ?? null;
  }
  event.ns = entry.coll === undefined ? { db: entry.db } : { db: entry.db, coll: entry.coll };
  if (entry.to) event.to = entry.to;
  if (entry.documentKey) event.documentKey = entry.documentKey;
  if (entry.lsid) {
    event.lsid = { id: entry.lsid.id as unknown, uid: ANONYMOUS_UID };
    event.txnNumber = entry.txnNumber;
  }
  if (entry.updateDescription) event.updateDescription = entry.updateDescription;
  return event;
}

function invalidateEvent(entry: ChangeEntry): Document {
  return {
    _id: encodeResumeToken({ time: entry.time, opIndex: entry.opIndex, kind: 'event', fromInvalidate: true }),
    operationType: 'invalidate',
    clusterTime: entry.clusterTime,
    wallTime: entry.wallTime,
  };
}

/** What one read of a stream gives: its events, its next position and whether it ended. */
export interface StreamBatch {
  readonly events: Document[];
  readonly nextSeq: number;
  readonly postBatchResumeToken: Document;
  readonly invalidated: boolean;
}

/**
 * Reads the stream's next events from `seq`: its scope's events, through its
 * stages, up to `batchSize` (and 16 MiB). An event whose `_id` the stages
 * changed fails the stream, as mongod's does (it could not be resumed).
 */
export function readStream(
  stream: ChangeStreamDefinition,
  seq: number,
  batchSize: number,
  log: ChangeLog,
  store: MemoryStore,
): StreamBatch {
  log.checkRetained(seq);
  const aggregator = stream.stages.length > 0 ? new Aggregator(stream.stages as Document[], mingoOptions()) : undefined;
  const events: Document[] = [];
  let bytes = 0;
  let invalidated = false;
  let next = seq;
  while (next < log.endSeq && events.length < batchSize && bytes < MAX_BATCH_BYTES && !invalidated) {
    const entry = log.entry(next++)!;
    const { sees, invalidates } = relevance(stream.scope, entry);
    if (!sees) continue;
    const produced = [changeEvent(entry, store, stream.updateLookup)];
    if (invalidates) produced.push(invalidateEvent(entry));
    invalidated = invalidates;
    for (const event of produced) {
      const outputs = aggregator ? withMingoErrors(() => aggregator.run(clonedEach([event])) as Document[]) : [event];
      for (const output of outputs) {
        const id = output._id as Document | undefined;
        if (
          typeAlias(id) !== 'object' ||
          Object.keys(id!).length !== 1 ||
          id!._data !== (event._id as Document)._data
        ) {
          throw new CommandError(
            'ChangeStreamFatalError',
            'Encountered an event whose _id field, which contains the resume token, was modified by the pipeline. Modifying the _id field of an event makes it impossible to resume the stream from that point. Only transformations that retain the unmodified _id field are allowed.',
          );
        }
        bytes += BSON.calculateObjectSize(output);
        events.push(output);
      }
    }
  }
  const drained = next >= log.endSeq;
  const postBatchResumeToken = drained
    ? encodeResumeToken({ time: log.now, opIndex: 0, kind: 'highWaterMark', fromInvalidate: false })
    : log.entry(next - 1)!.token;
  return { events, nextSeq: next, postBatchResumeToken, invalidated };
}
