import { randomBytes } from 'node:crypto';

import type { Document } from 'bson';

import { approximateSize } from '../bson/approximate-size.js';
import { ChangeStreamCursors } from '../changes/change-stream-cursors.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { bsonSize, MAX_REPLY_DOCUMENT_BYTES, replySizeInvalid } from '../store/document-limits.js';

/** MongoDB's default first batch size. */
const DEFAULT_FIRST_BATCH = 101;
/** Replies stay under 16 MiB of documents, as mongod's batches do. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/**
 * What open cursors may hold, all together, by {@link approximateSize}. A
 * cursor's result set is computed when it opens and stays in memory until its
 * last getMore, so a client opening cursors it never reads (`batchSize: 0`)
 * grew the hosting process until V8 ran out of heap and ended it: 70 cursors
 * of 100 computed 128 KB strings each took a 1 GB heap. Past this, the least
 * recently used cursors are closed, as mongod closes idle cursors after its
 * cursor timeout: their next getMore answers CursorNotFound.
 */
export const OPEN_CURSORS_BYTES_LIMIT = 512 * 1024 * 1024;

interface ServerCursor {
  readonly ns: string;
  readonly docs: readonly Document[];
  /** The approximate size of the documents it had left to send when it opened. */
  readonly bytes: number;
  position: number;
  /** What is left of the opening command's maxTimeMS, for its getMores. */
  maxTimeMSLeft?: number;
}

/**
 * mongod's refusal of a result document it cannot send: a computed document
 * (an aggregation's `$push` of everything, a `$lookup` of a whole
 * collection) may pass 16 MiB, and a reply carrying it would break the
 * connection instead of answering.
 */
function documentTooLarge(doc: Document, bytes: number): CommandError {
  const [first] = Object.keys(doc);
  // The first element is usually _id; a huge one is elided rather than rendered whole.
  const value: unknown = first === undefined ? undefined : doc[first];
  const rendered = approximateSize(value, 1024) > 1024 ? '...' : formatKeyValue(value);
  const firstElement = first === undefined ? 'EOO' : `${first}: ${rendered}`;
  return new CommandError('BSONObjectTooLarge', `${replySizeInvalid(bytes)} First element: ${firstElement}`);
}

/** A cursor reply's `cursor` sub-document (firstBatch or nextBatch). */
export interface CursorBatch {
  id: bigint;
  ns: string;
  batch: Document[];
}

/**
 * Open cursors. A cursor's result set is computed when it opens (documents
 * are immutable, so later writes never change a batch already computed);
 * getMore pages through it. Cursor ids are Int64 (bigint on the wire).
 */
export class CursorRegistry {
  /** Open cursors, the least recently used first. */
  private readonly cursors = new Map<bigint, ServerCursor>();
  /** The sum of the open cursors' `bytes`. */
  private held = 0;
  /** Change stream cursors (tailable, awaitData), whose ids never meet these. */
  readonly changeStreams = new ChangeStreamCursors();

  /** `limitBytes`: what open cursors may hold together before the least recently used are closed. */
  constructor(private readonly limitBytes = OPEN_CURSORS_BYTES_LIMIT) {}

  private takeBatch(cursor: ServerCursor, size: number): Document[] {
    const batch: Document[] = [];
    let bytes = 0;
    while (cursor.position < cursor.docs.length && batch.length < size) {
      const doc = cursor.docs[cursor.position]!;
      const size = bsonSize(doc);
      if (size > MAX_REPLY_DOCUMENT_BYTES) throw documentTooLarge(doc, size);
      bytes += size;
      if (batch.length > 0 && bytes > MAX_BATCH_BYTES) break;
      batch.push(doc);
      cursor.position++;
    }
    return batch;
  }

  private newId(): bigint {
    let id = 0n;
    while (id === 0n || this.cursors.has(id)) id = randomBytes(8).readBigInt64LE() & 0x3fffffffffffffffn;
    return id;
  }

  /**
   * Opens a cursor over `docs` and returns its first batch (id 0 when
   * exhausted); `maxTimeMSLeft` is what its getMores may still spend.
   */
  open(
    ns: string,
    docs: readonly Document[],
    batchSize?: number,
    singleBatch = false,
    maxTimeMSLeft?: number,
  ): CursorBatch {
    const first = { ns, docs, bytes: 0, position: 0, maxTimeMSLeft };
    const batch = this.takeBatch(first, batchSize ?? DEFAULT_FIRST_BATCH);
    if (singleBatch || first.position >= docs.length) return { id: 0n, ns, batch };
    let bytes = 0;
    for (let i = first.position; i < docs.length; i++) bytes += approximateSize(docs[i]);
    const id = this.newId();
    this.cursors.set(id, { ...first, bytes });
    this.held += bytes;
    // The oldest go first; the new cursor stays even alone past the limit (one command's results are bounded apart).
    for (const [oldest] of this.cursors) {
      if (this.held <= this.limitBytes || oldest === id) break;
      this.kill(oldest);
    }
    return { id, ns, batch };
  }

  /** The next batch of cursor `id` (getMore); throws CursorNotFound. */
  next(id: bigint, batchSize?: number): CursorBatch {
    const cursor = this.cursors.get(id);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    const batch = this.takeBatch(cursor, batchSize && batchSize > 0 ? batchSize : Number.MAX_SAFE_INTEGER);
    this.kill(id);
    if (cursor.position >= cursor.docs.length) return { id: 0n, ns: cursor.ns, batch };
    // Now the most recently used.
    this.cursors.set(id, cursor);
    this.held += cursor.bytes;
    return { id, ns: cursor.ns, batch };
  }

  /** What is left of the maxTimeMS of the command that opened cursor `id` (undefined: no limit or no cursor). */
  maxTimeMSLeft(id: bigint): number | undefined {
    return this.cursors.get(id)?.maxTimeMSLeft;
  }

  /** Takes `ms` spent by a getMore off cursor `id`'s time left, as mongod counts a cursor's maxTimeMS across its getMores. */
  spend(id: bigint, ms: number): void {
    const cursor = this.cursors.get(id);
    if (cursor?.maxTimeMSLeft !== undefined) cursor.maxTimeMSLeft = Math.max(0, cursor.maxTimeMSLeft - ms);
  }

  /** Closes cursor `id`; returns whether it existed. */
  kill(id: bigint): boolean {
    const cursor = this.cursors.get(id);
    if (!cursor) return false;
    this.cursors.delete(id);
    this.held -= cursor.bytes;
    return true;
  }

  /** Closes every cursor. */
  clear(): void {
    this.cursors.clear();
    this.held = 0;
    this.changeStreams.clear();
  }
}
