import { randomBytes } from 'node:crypto';

import { BSON, type Document } from 'bson';

import { CommandError } from '../commands/command-error.js';

/** MongoDB's default first batch size. */
const DEFAULT_FIRST_BATCH = 101;
/** Replies stay under 16 MiB of documents, as mongod's batches do. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

interface ServerCursor {
  readonly ns: string;
  readonly docs: readonly Document[];
  position: number;
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
  private readonly cursors = new Map<bigint, ServerCursor>();

  private takeBatch(cursor: ServerCursor, size: number): Document[] {
    const batch: Document[] = [];
    let bytes = 0;
    while (cursor.position < cursor.docs.length && batch.length < size) {
      const doc = cursor.docs[cursor.position]!;
      bytes += BSON.calculateObjectSize(doc);
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

  /** Opens a cursor over `docs` and returns its first batch (id 0 when exhausted). */
  open(ns: string, docs: readonly Document[], batchSize?: number, singleBatch = false): CursorBatch {
    const cursor: ServerCursor = { ns, docs, position: 0 };
    const batch = this.takeBatch(cursor, batchSize ?? DEFAULT_FIRST_BATCH);
    if (singleBatch || cursor.position >= docs.length) return { id: 0n, ns, batch };
    const id = this.newId();
    this.cursors.set(id, cursor);
    return { id, ns, batch };
  }

  /** The next batch of cursor `id` (getMore); throws CursorNotFound. */
  next(id: bigint, batchSize?: number): CursorBatch {
    const cursor = this.cursors.get(id);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    const batch = this.takeBatch(cursor, batchSize && batchSize > 0 ? batchSize : Number.MAX_SAFE_INTEGER);
    if (cursor.position >= cursor.docs.length) {
      this.cursors.delete(id);
      return { id: 0n, ns: cursor.ns, batch };
    }
    return { id, ns: cursor.ns, batch };
  }

  /** Closes cursor `id`; returns whether it existed. */
  kill(id: bigint): boolean {
    return this.cursors.delete(id);
  }

  /** Closes every cursor. */
  clear(): void {
    this.cursors.clear();
  }
}
