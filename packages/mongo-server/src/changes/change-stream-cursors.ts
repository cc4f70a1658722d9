import { randomBytes } from 'node:crypto';

import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import type { ServerInfo } from '../commands/command-context.js';
import type { MemoryStore } from '../store/memory-store.js';
import { readStream, type ChangeStreamDefinition, type StreamBatch } from './change-stream.js';

/** Most change streams open at once; opening one more closes the one unused longest (as mongod's cursor timeout would). */
export const MAX_OPEN_CHANGE_STREAMS = 1_000;
/** How long a getMore waits for events when it sends no `maxTimeMS` (mongod's default for awaitData cursors). */
export const DEFAULT_AWAIT_MS = 1_000;
/** Change stream cursor ids have this bit set; the plain cursor registry never gives it. */
const STREAM_ID_BIT = 0x4000000000000000n;

/** How a waiting getMore ends: with a reply, or by closing its connection. */
export interface StreamOutcome {
  readonly reply?: Document;
  readonly closeConnection?: boolean;
}

interface StreamCursor {
  readonly id: bigint;
  readonly ns: string;
  readonly definition: ChangeStreamDefinition;
  nextSeq: number;
  /** Ends the getMore waiting on this cursor, if one is. */
  release?: (outcome: StreamOutcome) => void;
}

/** A command failure as a reply, for a getMore that ends after its command returned. */
function errorOutcome(error: unknown): StreamOutcome {
  if (error instanceof CommandError) return { reply: error.toReply() };
  const message = error instanceof Error ? error.message : String(error);
  return { reply: new CommandError('InternalError', `embedded server failed on 'getMore': ${message}`).toReply() };
}

/**
 * Open change stream cursors: tailable, awaitData. Each holds only its
 * position in the server's change log (no events of its own), so a stream
 * nobody reads costs nothing as writes go on; one read too late gets
 * ChangeStreamHistoryLost. A getMore with nothing to return waits, without
 * polling, for the next event or its `maxTimeMS`, whichever comes first;
 * killCursors, a closed connection and a server close end the wait.
 */
export class ChangeStreamCursors {
  /** In order of last use, oldest first. */
  private readonly cursors = new Map<bigint, StreamCursor>();

  /** Whether `id` is a change stream cursor id (open or not). */
  static isStreamId(id: unknown): id is bigint {
    return typeof id === 'bigint' && (id & STREAM_ID_BIT) !== 0n;
  }

  /** Number of open change streams. */
  get size(): number {
    return this.cursors.size;
  }

  /** Opens a stream and returns the aggregate's reply with its first batch. */
  open(ns: string, definition: ChangeStreamDefinition, batchSize: number, store: MemoryStore): Document {
    let id = 0n;
    while (id === 0n || this.cursors.has(id))
      id = (randomBytes(8).readBigInt64LE() & (STREAM_ID_BIT - 1n)) | STREAM_ID_BIT;
    const cursor: StreamCursor = { id, ns, definition, nextSeq: definition.startSeq };
    const batch = readStream(definition, cursor.nextSeq, batchSize, store.changes, store);
    cursor.nextSeq = batch.nextSeq;
    if (!batch.invalidated) {
      if (this.cursors.size >= MAX_OPEN_CHANGE_STREAMS) this.evictOldest();
      this.cursors.set(id, cursor);
    }
    return this.reply(cursor, batch, 'firstBatch');
  }

  /** Closes the stream unused longest, preferring one no getMore is waiting on (mongod never times out a cursor in use). */
  private evictOldest(): void {
    let oldest: StreamCursor | undefined;
    for (const cursor of this.cursors.values()) {
      oldest ??= cursor;
      if (!cursor.release) {
        oldest = cursor;
        break;
      }
    }
    if (oldest) this.kill(oldest.id);
  }

  /** A batch's reply; the router adds the cluster time, as to every reply. */
  private reply(cursor: StreamCursor, batch: StreamBatch, field: 'firstBatch' | 'nextBatch'): Document {
    return {
      cursor: {
        [field]: batch.events,
        postBatchResumeToken: batch.postBatchResumeToken,
        id: batch.invalidated ? 0n : cursor.id,
        ns: cursor.ns,
      },
      ok: 1,
    };
  }

  /** Reads the next batch of cursor `cursor` now, closing it once invalidated. */
  private read(cursor: StreamCursor, batchSize: number, store: MemoryStore, run: <T>(fn: () => T) => T): StreamBatch {
    const batch = run(() => readStream(cursor.definition, cursor.nextSeq, batchSize, store.changes, store));
    cursor.nextSeq = batch.nextSeq;
    if (batch.invalidated) this.cursors.delete(cursor.id);
    return batch;
  }

  /**
   * getMore on stream `id`: a reply now when there are events, otherwise a
   * promise of one after the next event or `awaitMS`. `run` runs a read
   * under the server's command limits; `checkedOut` runs once the cursor
   * passed its checks (where mongod's `failGetMoreAfterCursorCheckout` fires).
   */
  getMore(
    id: bigint,
    request: { ns: string; batchSize?: number; awaitMS?: number },
    store: MemoryStore,
    server: ServerInfo,
    run: <T>(fn: () => T) => T,
    checkedOut: () => void = () => undefined,
  ): StreamOutcome | Promise<StreamOutcome> {
    const cursor = this.cursors.get(id);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    if (cursor.ns !== request.ns) {
      throw new CommandError(
        'Unauthorized',
        `Requested getMore on namespace '${request.ns}', but cursor belongs to a different namespace ${cursor.ns}`,
      );
    }
    if (cursor.release) {
      throw new CommandError(
        'CursorInUse',
        `Cannot run getMore on cursor ${id}, which is already in use by another getMore`,
      );
    }
    checkedOut();
    // Most recently used last: the eviction order.
    this.cursors.delete(id);
    this.cursors.set(id, cursor);
    const batchSize = request.batchSize && request.batchSize > 0 ? request.batchSize : Number.MAX_SAFE_INTEGER;
    const batch = this.read(cursor, batchSize, store, run);
    if (batch.events.length > 0 || batch.invalidated) return { reply: this.reply(cursor, batch, 'nextBatch') };
    return this.wait(cursor, batchSize, request.awaitMS ?? DEFAULT_AWAIT_MS, store, server, run);
  }

  private wait(
    cursor: StreamCursor,
    batchSize: number,
    awaitMS: number,
    store: MemoryStore,
    server: ServerInfo,
    run: <T>(fn: () => T) => T,
  ): Promise<StreamOutcome> {
    if (server.closed) return Promise.resolve({ closeConnection: true });
    return new Promise<StreamOutcome>((resolve) => {
      const finish = (outcome: StreamOutcome): void => {
        clearTimeout(timer);
        stopListening();
        cursor.release = undefined;
        if (server.onClose === onClose) server.onClose = undefined;
        resolve(outcome);
      };
      const attempt = (final: boolean): void => {
        try {
          if (!this.cursors.has(cursor.id))
            throw new CommandError('CursorNotFound', `cursor id ${cursor.id} not found`);
          const batch = this.read(cursor, batchSize, store, run);
          if (final || batch.events.length > 0 || batch.invalidated) {
            finish({ reply: this.reply(cursor, batch, 'nextBatch') });
          }
        } catch (error) {
          finish(errorOutcome(error));
        }
      };
      const onClose = (): void => finish({ closeConnection: true });
      // Never keeps the process alive: a test that forgets to close a stream still exits.
      const timer = setTimeout(() => attempt(true), awaitMS).unref();
      const stopListening = store.changes.listen(() => attempt(false));
      cursor.release = finish;
      server.onClose = onClose;
    });
  }

  /** Closes stream `id`; a getMore waiting on it answers CursorKilled. Returns whether it was open. */
  kill(id: bigint): boolean {
    const cursor = this.cursors.get(id);
    if (!cursor) return false;
    this.cursors.delete(id);
    cursor.release?.({ reply: new CommandError('CursorKilled', `cursor id ${id} was killed`).toReply() });
    return true;
  }

  /** Closes every stream (server close); waiting getMores end with their connections. */
  clear(): void {
    for (const cursor of [...this.cursors.values()]) cursor.release?.({ closeConnection: true });
    this.cursors.clear();
  }
}
