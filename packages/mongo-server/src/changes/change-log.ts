import type { Document } from 'bson';

import { approximateSize } from '../bson/approximate-size.js';
import { Long, Timestamp } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';
import { describeUpdate, type UpdateDescription } from './update-description.js';
import { encodeResumeToken, type ChangePosition, type ResumeTokenData } from './resume-token.js';

/** Most events the log keeps; older ones are forgotten (a stream that needs them gets ChangeStreamHistoryLost). */
export const CHANGE_LOG_MAX_EVENTS = 10_000;
/** Most bytes (counted as `approximateSize` counts) of documents and update descriptions the log keeps. */
export const CHANGE_LOG_MAX_BYTES = 64 * 1024 * 1024;
/** What one event costs beyond its documents (token, names, times). */
const ENTRY_OVERHEAD_BYTES = 256;

/** The `operationType` of a change event the log records. */
export type ChangeOperation = 'insert' | 'update' | 'replace' | 'delete' | 'drop' | 'rename' | 'dropDatabase';

/** A write to one document, as a collection applies it or a transaction buffers it. */
export interface DocumentChange {
  readonly db: string;
  readonly coll: string;
  readonly operationType: 'insert' | 'update' | 'replace' | 'delete';
  /** The document before the write (update, replace, delete). */
  readonly before?: Document;
  /** The document after the write (insert, update, replace). */
  readonly after?: Document;
}

/** One event of the log: what a change stream turns into a change event. */
export interface ChangeEntry extends ChangePosition {
  /** Its place in the log (consecutive numbers). */
  readonly seq: number;
  /** Its resume token, `{ _data }`. */
  readonly token: Document;
  readonly clusterTime: Timestamp;
  readonly wallTime: Date;
  readonly operationType: ChangeOperation;
  readonly db: string;
  /** Absent for dropDatabase. */
  readonly coll?: string;
  readonly documentKey?: Document;
  /** insert and replace: the document written (stored documents are never mutated). */
  readonly fullDocument?: Document;
  readonly updateDescription?: UpdateDescription;
  /** rename: the new namespace. */
  readonly to?: { db: string; coll: string };
  /** The transaction that wrote it. */
  readonly lsid?: Document;
  readonly txnNumber?: Long;
  readonly bytes: number;
}

type NewEntry = Omit<ChangeEntry, 'seq' | 'token' | 'clusterTime' | 'wallTime' | 'time' | 'opIndex' | 'bytes'>;

/** A cluster time as the Timestamp replies and events carry (seconds in the high 32 bits, an increment in the low). */
export function timestampOf(time: bigint): Timestamp {
  return Timestamp.fromBits(Number(time & 0xffffffffn), Number(time >> 32n));
}

function historyLost(): CommandError {
  return new CommandError(
    'ChangeStreamHistoryLost',
    `Resume of change stream was not possible, as the resume point may no longer be in the oplog. The embedded server keeps the last ${CHANGE_LOG_MAX_EVENTS} events (at most ${CHANGE_LOG_MAX_BYTES / 1024 / 1024} MiB of documents), from the first change stream opened on it: open the stream again without a resume point, or read the stream more often`,
  );
}

/**
 * The server's bounded history of changes, from which change streams read
 * and resume (mongod reads its oplog). It records nothing until the first
 * change stream opens (a write then costs one check); from then on it keeps
 * the last {@link CHANGE_LOG_MAX_EVENTS} events or {@link CHANGE_LOG_MAX_BYTES},
 * whichever is less. Each write outside a transaction gets its own cluster
 * time; a transaction's writes share the commit's, in the order they ran.
 */
export class ChangeLog {
  private recording = false;
  private entries: ChangeEntry[] = [];
  private head = 0;
  private nextSeq = 0;
  private bytes = 0;
  private lastTime = 0n;
  /**
   * A write happened since the clock last ticked and was not recorded: the
   * next reading of the time ticks for it, so that writes move the cluster
   * time (replies' `operationTime`) without a tick per document.
   */
  private unticked = true;
  /** Every event at or after this cluster time is still kept. */
  private retainedFrom = 0n;
  private readonly listeners = new Set<() => void>();
  private notifying = false;

  /** Whether writes are being recorded. */
  get active(): boolean {
    return this.recording;
  }

  /** Starts recording (the first change stream calls it); returns the current cluster time. */
  start(): bigint {
    if (!this.recording) {
      this.recording = true;
      this.retainedFrom = this.tick();
    }
    return this.lastTime;
  }

  /**
   * The latest cluster time (a reply's `operationTime`): the time of the
   * latest write, as mongod's last applied op time, or a later one a client
   * gossiped (see {@link advance}).
   */
  get now(): bigint {
    if (this.unticked) this.tick();
    return this.lastTime;
  }

  /**
   * Moves the cluster time up to `time` (a client's gossiped `$clusterTime`,
   * which mongod without authentication accepts unsigned); an earlier time
   * changes nothing.
   */
  advance(time: bigint): void {
    if (this.unticked) this.tick();
    if (time > this.lastTime) this.lastTime = time;
  }

  /**
   * Notes a write to one document: true when the log records it (the caller
   * then describes it with {@link documentWritten}); otherwise the write only
   * moves the cluster time.
   */
  noteWrite(): boolean {
    if (this.recording) return true;
    this.unticked = true;
    return false;
  }

  /**
   * Notes a change of the catalog that change streams show only as expanded
   * events (a collection or an index created, an index dropped, collMod): it
   * moves the cluster time, as its oplog entry moves mongod's.
   */
  catalogChanged(): void {
    this.unticked = true;
  }

  /** Seq of the oldest kept event. */
  get firstSeq(): number {
    return this.nextSeq - (this.entries.length - this.head);
  }

  /** Seq the next event will get. */
  get endSeq(): number {
    return this.nextSeq;
  }

  /** The kept event `seq` (between {@link firstSeq} and {@link endSeq}). */
  entry(seq: number): ChangeEntry | undefined {
    return this.entries[this.head + seq - this.firstSeq];
  }

  /** A new cluster time: seconds since the epoch and an increment, as mongod's. */
  private tick(): bigint {
    this.unticked = false;
    const seconds = BigInt(Math.floor(Date.now() / 1000));
    this.lastTime = seconds > this.lastTime >> 32n ? (seconds << 32n) | 1n : this.lastTime + 1n;
    return this.lastTime;
  }

  /** Records one write outside transactions. */
  documentWritten(change: DocumentChange): void {
    if (!this.noteWrite()) return;
    this.append([documentEntry(change)], this.tick());
  }

  /** Records a committed transaction's writes, in the order they ran. */
  transactionCommitted(changes: readonly DocumentChange[], lsid: Document | undefined, txnNumber: bigint): void {
    // A transaction's writes reach `changes` only while recording; the commit moves the time either way.
    if (!this.noteWrite()) return;
    if (changes.length === 0) {
      this.catalogChanged(); // it created collections only
      return;
    }
    const txn = { lsid, txnNumber: Long.fromBigInt(txnNumber) };
    this.append(
      changes.map((change) => ({ ...documentEntry(change), ...txn })),
      this.tick(),
    );
  }

  /** Records a dropped collection. */
  collectionDropped(db: string, coll: string): void {
    if (this.noteWrite()) this.append([{ operationType: 'drop', db, coll }], this.tick());
  }

  /** Records a renamed collection. */
  collectionRenamed(db: string, coll: string, to: { db: string; coll: string }): void {
    if (this.noteWrite()) this.append([{ operationType: 'rename', db, coll, to }], this.tick());
  }

  /** Records a dropped database: a drop per collection, then dropDatabase. */
  databaseDropped(db: string, collections: readonly string[]): void {
    if (!this.noteWrite()) return;
    for (const coll of collections) this.collectionDropped(db, coll);
    this.append([{ operationType: 'dropDatabase', db }], this.tick());
  }

  private append(events: NewEntry[], time: bigint): void {
    const clusterTime = timestampOf(time);
    const wallTime = new Date();
    for (const [opIndex, event] of events.entries()) {
      const bytes =
        ENTRY_OVERHEAD_BYTES +
        (event.fullDocument ? approximateSize(event.fullDocument) : 0) +
        (event.updateDescription ? approximateSize(event.updateDescription) : 0) +
        (event.documentKey ? approximateSize(event.documentKey) : 0);
      const token = encodeResumeToken({ time, opIndex, kind: 'event', fromInvalidate: false });
      this.entries.push({ ...event, seq: this.nextSeq++, token, clusterTime, wallTime, time, opIndex, bytes });
      this.bytes += bytes;
    }
    this.evict();
    this.notify();
  }

  /** Forgets the oldest events past the bounds. */
  private evict(): void {
    while (this.entries.length - this.head > CHANGE_LOG_MAX_EVENTS || this.bytes > CHANGE_LOG_MAX_BYTES) {
      const old = this.entries[this.head]!;
      this.entries[this.head++] = undefined as never;
      this.bytes -= old.bytes;
      if (old.time >= this.retainedFrom) this.retainedFrom = old.time + 1n;
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** The seq a stream resuming from `token` reads next; ChangeStreamHistoryLost or ChangeStreamFatalError when it cannot. */
  seqAfter(token: ResumeTokenData, raw: Document): number {
    if (token.kind === 'highWaterMark') {
      if (token.time + 1n < this.retainedFrom) throw historyLost();
      return this.firstSeqWhere((entry) => entry.time > token.time);
    }
    const seq = this.firstSeqWhere(
      (entry) => entry.time > token.time || (entry.time === token.time && entry.opIndex >= token.opIndex),
    );
    const found = seq < this.nextSeq ? this.entry(seq) : undefined;
    if (found && found.time === token.time && found.opIndex === token.opIndex) return seq + 1;
    if (token.time < this.retainedFrom) throw historyLost();
    throw new CommandError(
      'ChangeStreamFatalError',
      `cannot resume stream; the resume token was not found. { _data: "${String(raw._data).slice(0, 200)}" }`,
    );
  }

  /** The seq of the first event at or after cluster time `time` (`startAtOperationTime`). */
  seqAtTime(time: bigint): number {
    if (time < this.retainedFrom) throw historyLost();
    return this.firstSeqWhere((entry) => entry.time >= time);
  }

  /** Throws ChangeStreamHistoryLost when events from `seq` on were forgotten before a stream read them. */
  checkRetained(seq: number): void {
    if (seq < this.firstSeq) throw historyLost();
  }

  /** Binary search over the kept events (they are in position order). */
  private firstSeqWhere(after: (entry: ChangeEntry) => boolean): number {
    let low = this.head;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (after(this.entries[mid]!)) high = mid;
      else low = mid + 1;
    }
    return this.firstSeq + (low - this.head);
  }

  /** Calls `listener` (soon, outside the writing command) after each new event; returns how to stop. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    if (this.listeners.size === 0 || this.notifying) return;
    this.notifying = true;
    queueMicrotask(() => {
      this.notifying = false;
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Forgets every event and stops recording (the server's data is dropped). */
  clear(): void {
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
    this.recording = false;
  }
}

/** The log entry of a document write: mongod's oplog fields for it. */
function documentEntry(change: DocumentChange): NewEntry {
  const { db, coll, operationType, before, after } = change;
  const documentKey = { _id: (after ?? before)?._id as unknown };
  switch (operationType) {
    case 'insert':
    case 'replace':
      return { operationType, db, coll, documentKey, fullDocument: after };
    case 'update':
      return { operationType, db, coll, documentKey, updateDescription: describeUpdate(before ?? {}, after ?? {}) };
    case 'delete':
      return { operationType, db, coll, documentKey };
  }
}
