import { randomBytes } from 'node:crypto';

import type { Document } from 'bson';

import { approximateSize } from '../bson/approximate-size.js';
import { ChangeStreamCursors } from '../changes/change-stream-cursors.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { describeSession, SESSION_TIMEOUT_MS } from '../session/logical-session-cache.js';
import { sessionKey, txnNumberOf } from '../session/session-registry.js';
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

/**
 * mongod's `cursorTimeoutMillis`: a cursor opened outside a session and idle
 * this long is closed (unless opened with `noCursorTimeout`).
 */
export const DEFAULT_CURSOR_TIMEOUT_MS = 10 * 60_000;
/** How often the registry looks for expired cursors, by the server's clock (mongod's `clientCursorMonitorFrequencySecs` is 4). */
const SWEEP_INTERVAL_MS = 1_000;

/** The session and transaction of a command that opens or continues a cursor: its `lsid` and `txnNumber`, as checked. */
export interface CursorOwner {
  readonly lsid?: Document;
  readonly txnNumber?: unknown;
}

/** How {@link CursorRegistry.open} keeps a cursor. */
export interface OpenCursorOptions {
  batchSize?: number;
  singleBatch?: boolean;
  /** What is left of the opening command's maxTimeMS, for its getMores. */
  maxTimeMSLeft?: number;
  /** find's `noCursorTimeout`: never closed for being idle (a session's end still closes it). */
  noTimeout?: boolean;
  /** The opening command's session and transaction, which its getMores must carry. */
  owner?: CursorOwner;
  /**
   * The documents come from a plan that finds its end only when asked for one
   * more (mongod's scans and pipelines, whose cursor stays open while
   * `isEOF()` is unknown): a batch that fills up with exactly the last of them
   * leaves the cursor open, and the next getMore answers an empty batch and
   * closes it. Not for documents a limit ended, nor those of a list command.
   */
  endFoundLate?: boolean;
  /** The index the plan that found the documents walked: dropping it kills the cursor. */
  index?: string;
}

/** What a getMore carries that must match the cursor it continues. */
export interface CursorRequest {
  /** The namespace the getMore names (`$db` and `collection`). */
  readonly ns: string;
  readonly owner: CursorOwner;
}

/** Options of {@link CursorRegistry}. */
export interface CursorRegistryOptions {
  /** What open cursors may hold together before the least recently used are closed. @default OPEN_CURSORS_BYTES_LIMIT */
  limitBytes?: number;
  /** The server's clock in milliseconds. @default Date.now */
  clock?: () => number;
  /** mongod's `cursorTimeoutMillis`. @default DEFAULT_CURSOR_TIMEOUT_MS */
  timeoutMS?: number;
  /**
   * When the session whose `lsid.id` is this hex was last used; undefined
   * once it ended (`endSessions`), expired or was forgotten. Without it a
   * session's cursors expire {@link SESSION_TIMEOUT_MS} after their own last use.
   */
  sessionLastUse?: (key: string) => number | undefined;
}

/** The `metrics.cursor` section of serverStatus, as mongod reports it (no cursor is ever pinned between commands here). */
export interface CursorMetrics {
  timedOut: number;
  totalOpened: number;
  moreThanOneBatch: number;
  open: { noTimeout: number; pinned: number; total: number };
}

interface CursorSession {
  /** `lsid.id` as hex. */
  readonly key: string;
  readonly lsid: Document;
}

interface ServerCursor {
  readonly ns: string;
  readonly docs: readonly Document[];
  /** The approximate size of the documents it had left to send when it opened. */
  readonly bytes: number;
  position: number;
  /** What is left of the opening command's maxTimeMS, for its getMores. */
  maxTimeMSLeft?: number;
  readonly noTimeout: boolean;
  readonly session?: CursorSession;
  readonly txnNumber?: bigint;
  /** When it was opened or last continued, by the server's clock. */
  lastUse: number;
  /** Whether a getMore has continued it. */
  continued: boolean;
  /** See {@link OpenCursorOptions.endFoundLate}. */
  readonly endFoundLate: boolean;
  /** See {@link OpenCursorOptions.index}. */
  readonly index?: string;
  /** Why its plan was killed (its collection dropped or renamed, its index dropped): its next getMore says so. */
  killedBecause?: string;
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

/** The session of `owner`, keyed as the session registry keys it; undefined outside sessions. */
function sessionOf(owner: CursorOwner): CursorSession | undefined {
  const key = sessionKey(owner as Document);
  return key === undefined ? undefined : { key, lsid: owner.lsid! };
}

/**
 * mongod's checks that a getMore continues a cursor as the command that
 * opened it ran (getmore_cmd.cpp's validateLSID, validateTxnNumber,
 * validateNamespace, in that order): same session, same transaction, same
 * namespace. A failed check leaves the cursor open.
 */
function checkContinuation(id: bigint, cursor: ServerCursor, request: CursorRequest): void {
  const session = sessionOf(request.owner);
  const prefix = `Cannot run getMore on cursor ${id}, which was`;
  if (session && !cursor.session) {
    throw new CommandError(
      'Location50736',
      `${prefix} not created in a session, in session ${describeSession(session.lsid)}`,
    );
  }
  if (!session && cursor.session) {
    throw new CommandError(
      'Location50737',
      `${prefix} created in session ${describeSession(cursor.session.lsid)}, without an lsid`,
    );
  }
  if (session && cursor.session && session.key !== cursor.session.key) {
    throw new CommandError(
      'Location50738',
      `${prefix} created in session ${describeSession(cursor.session.lsid)}, in session ${describeSession(session.lsid)}`,
    );
  }
  const txnNumber = txnNumberOf(request.owner as Document);
  if (txnNumber !== undefined && cursor.txnNumber === undefined) {
    throw new CommandError('Location50739', `${prefix} not created in a transaction, in transaction ${txnNumber}`);
  }
  if (txnNumber === undefined && cursor.txnNumber !== undefined) {
    throw new CommandError(
      'Location50740',
      `${prefix} created in transaction ${cursor.txnNumber}, without a txnNumber`,
    );
  }
  if (txnNumber !== undefined && cursor.txnNumber !== undefined && txnNumber !== cursor.txnNumber) {
    throw new CommandError(
      'Location50741',
      `${prefix} created in transaction ${cursor.txnNumber}, in transaction ${txnNumber}`,
    );
  }
  if (request.ns !== cursor.ns) {
    throw new CommandError(
      'Unauthorized',
      `Requested getMore on namespace '${request.ns}', but cursor belongs to a different namespace ${cursor.ns}`,
    );
  }
}

/**
 * Open cursors. A cursor's result set is computed when it opens (documents
 * are immutable, so later writes never change a batch already computed);
 * getMore pages through it. Cursor ids are Int64 (bigint on the wire).
 *
 * Idle cursors close as mongod closes them: one opened outside a session
 * after `cursorTimeoutMillis` without use (unless `noCursorTimeout`); one
 * opened in a session when the session ends or expires, 30 minutes after its
 * last use. A closed cursor's next getMore answers CursorNotFound. The check
 * runs when a cursor is used and, for all, at most once a second as
 * commands arrive: no timer keeps the hosting process alive.
 */
export class CursorRegistry {
  /** Open cursors, the least recently used first. */
  private readonly cursors = new Map<bigint, ServerCursor>();
  /** The sum of the open cursors' `bytes`. */
  private held = 0;
  /** Change stream cursors (tailable, awaitData), whose ids never meet these. */
  readonly changeStreams = new ChangeStreamCursors();
  /** mongod's `cursorTimeoutMillis`; `setParameter` changes it. */
  timeoutMS: number;
  private readonly limitBytes: number;
  private readonly clock: () => number;
  private readonly sessionLastUse?: (key: string) => number | undefined;
  private lastSweep: number;
  private readonly counts = { timedOut: 0, totalOpened: 0, moreThanOneBatch: 0 };

  constructor(options: CursorRegistryOptions = {}) {
    this.limitBytes = options.limitBytes ?? OPEN_CURSORS_BYTES_LIMIT;
    this.clock = options.clock ?? Date.now;
    this.timeoutMS = options.timeoutMS ?? DEFAULT_CURSOR_TIMEOUT_MS;
    this.sessionLastUse = options.sessionLastUse;
    this.lastSweep = this.clock();
  }

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

  /** Why `cursor` is to close at `now`: its idle timeout, its session's end, or not (undefined). */
  private expiry(cursor: ServerCursor, now: number): 'timedOut' | 'session' | undefined {
    if (cursor.session) {
      if (this.sessionLastUse) return this.sessionLastUse(cursor.session.key) === undefined ? 'session' : undefined;
      return now - cursor.lastUse >= SESSION_TIMEOUT_MS ? 'session' : undefined;
    }
    return !cursor.noTimeout && now - cursor.lastUse >= this.timeoutMS ? 'timedOut' : undefined;
  }

  /** Cursor `id` unless it is closed or due to close (then closed now). */
  private live(id: bigint, now = this.clock()): ServerCursor | undefined {
    const cursor = this.cursors.get(id);
    if (!cursor) return undefined;
    const reason = this.expiry(cursor, now);
    if (reason === undefined) return cursor;
    if (reason === 'timedOut') this.counts.timedOut++;
    this.remove(id);
    return undefined;
  }

  /**
   * Closes every cursor due to close, at most once per second. The map runs
   * from the least recently used, and no cursor used within the shorter
   * timeout can be due (a session is used whenever its cursor is), so the
   * walk stops at the first such one.
   */
  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    const window = Math.min(this.timeoutMS, SESSION_TIMEOUT_MS);
    for (const [id, cursor] of this.cursors) {
      if (now - cursor.lastUse < window) break;
      this.live(id, now);
    }
  }

  /**
   * Opens a cursor over `docs` and returns its first batch (id 0 when
   * exhausted, or with `singleBatch`).
   */
  open(ns: string, docs: readonly Document[], options: OpenCursorOptions = {}): CursorBatch {
    const now = this.clock();
    this.sweep(now);
    const first: ServerCursor = {
      ns,
      docs,
      bytes: 0,
      position: 0,
      maxTimeMSLeft: options.maxTimeMSLeft,
      noTimeout: options.noTimeout === true,
      lastUse: now,
      continued: false,
      endFoundLate: options.endFoundLate === true,
      index: options.index,
    };
    const size = options.batchSize ?? DEFAULT_FIRST_BATCH;
    const batch = this.takeBatch(first, size);
    if (options.singleBatch || this.exhausted(first, batch.length, size)) return { id: 0n, ns, batch };
    let bytes = 0;
    for (let i = first.position; i < docs.length; i++) bytes += approximateSize(docs[i]);
    const id = this.newId();
    const owner = options.owner ?? {};
    const session = sessionOf(owner);
    this.cursors.set(id, { ...first, bytes, session, txnNumber: session && txnNumberOf(owner as Document) });
    this.held += bytes;
    this.counts.totalOpened++;
    // The oldest go first; the new cursor stays even alone past the limit (one command's results are bounded apart).
    for (const [oldest] of this.cursors) {
      if (this.held <= this.limitBytes || oldest === id) break;
      this.remove(oldest);
    }
    return { id, ns, batch };
  }

  /**
   * Throws what a getMore of cursor `id` meets before its batch:
   * CursorNotFound (also for a cursor closed for being idle), then a
   * session, transaction or namespace that is not the cursor's.
   */
  check(id: bigint, request: CursorRequest): void {
    const cursor = this.live(id);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    checkContinuation(id, cursor, request);
  }

  /** The next batch of cursor `id` (getMore); throws CursorNotFound. A batch that fails closes the cursor, as in mongod. */
  next(id: bigint, batchSize?: number): CursorBatch {
    const now = this.clock();
    const cursor = this.live(id, now);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    this.remove(id);
    if (cursor.killedBecause !== undefined) {
      throw new CommandError(
        'QueryPlanKilled',
        `Executor error during getMore :: caused by :: ${cursor.killedBecause}`,
      );
    }
    const size = batchSize && batchSize > 0 ? batchSize : Number.MAX_SAFE_INTEGER;
    const batch = this.takeBatch(cursor, size);
    if (!cursor.continued) this.counts.moreThanOneBatch++;
    cursor.continued = true;
    if (this.exhausted(cursor, batch.length, size)) return { id: 0n, ns: cursor.ns, batch };
    // Now the most recently used.
    cursor.lastUse = now;
    this.cursors.set(id, cursor);
    this.held += cursor.bytes;
    this.sweep(now);
    return { id, ns: cursor.ns, batch };
  }

  /**
   * Whether `cursor` is done after a batch of `taken` documents out of `size`
   * asked: its documents are all sent, and (for one whose end is found late)
   * the batch stopped short of full, having looked past the last of them.
   */
  private exhausted(cursor: ServerCursor, taken: number, size: number): boolean {
    if (cursor.position < cursor.docs.length) return false;
    return !cursor.endFoundLate || taken < size || taken === 0;
  }

  /** What is left of the maxTimeMS of the command that opened cursor `id` (undefined: no limit or no cursor). */
  maxTimeMSLeft(id: bigint): number | undefined {
    return this.live(id)?.maxTimeMSLeft;
  }

  /** Takes `ms` spent by a getMore off cursor `id`'s time left, as mongod counts a cursor's maxTimeMS across its getMores. */
  spend(id: bigint, ms: number): void {
    const cursor = this.cursors.get(id);
    if (cursor?.maxTimeMSLeft !== undefined) cursor.maxTimeMSLeft = Math.max(0, cursor.maxTimeMSLeft - ms);
  }

  /** Closes cursor `id`; returns whether it was open (one due to close for being idle was not). */
  kill(id: bigint): boolean {
    return this.live(id) !== undefined && this.remove(id);
  }

  private remove(id: bigint): boolean {
    const cursor = this.cursors.get(id);
    if (!cursor) return false;
    this.cursors.delete(id);
    this.held -= cursor.bytes;
    return true;
  }

  /**
   * Kills the plans of the cursors over namespace `ns` (of those that walked
   * index `index`, when given), as mongod kills them when their collection is
   * dropped or renamed or their index dropped: each stays until its next
   * getMore, which fails with QueryPlanKilled giving `reason`.
   */
  killPlans(ns: string, reason: string, index?: string): void {
    for (const cursor of this.cursors.values()) {
      if (cursor.ns === ns && (index === undefined || cursor.index === index)) cursor.killedBecause ??= reason;
    }
  }

  /** Closes the cursors opened in the sessions whose `lsid.id` hex is in `keys`, or in any session. */
  killSessionCursors(keys?: ReadonlySet<string>): void {
    for (const [id, cursor] of this.cursors)
      if (cursor.session && (!keys || keys.has(cursor.session.key))) this.remove(id);
  }

  /** serverStatus's `metrics.cursor`, after closing what is due. */
  metrics(): CursorMetrics {
    const now = this.clock();
    let noTimeout = 0;
    for (const [id, cursor] of this.cursors) if (this.live(id, now) && cursor.noTimeout) noTimeout++;
    return {
      ...this.counts,
      open: { noTimeout, pinned: 0, total: this.cursors.size + this.changeStreams.size },
    };
  }

  /** Closes every cursor. */
  clear(): void {
    this.cursors.clear();
    this.held = 0;
    this.changeStreams.clear();
  }
}
