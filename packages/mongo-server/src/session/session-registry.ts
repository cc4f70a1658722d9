import type { Document } from 'bson';

import { approximateSize } from '../bson/approximate-size.js';
import { CommandError } from '../commands/command-error.js';
import type { LockTable } from './lock-table.js';
import { LogicalSessionCache } from './logical-session-cache.js';
import { Transaction } from './transaction.js';

/** Options of {@link SessionRegistry}. */
export interface SessionRegistryOptions {
  /** Longest a transaction may stay open before it is aborted, in seconds. @default 60 */
  transactionLifetimeLimitSeconds?: number;
  /** Milliseconds since the epoch; replaceable for tests. @default Date.now */
  clock?: () => number;
}

/** A retryable write's recorded reply; `done` when only its first `done` statements ran. */
export interface RecordedWrite {
  readonly reply: Document;
  readonly done?: number;
}

interface SessionState {
  transaction?: Transaction;
  /**
   * The reply to the session's last retryable write, by its txnNumber, and
   * its approximate size; `done` when only its first `done` statements ran.
   */
  lastWrite?: { txnNumber: bigint; reply: Document; bytes: number; done?: number };
}

/**
 * Sessions whose transaction or last retryable write is kept, and what their
 * recorded replies may hold together (a findAndModify's reply holds a whole
 * document, which a later write no longer shares with the collection). Each
 * new `lsid` adds one, and nothing but `endSessions` removed them: a client
 * sending findAndModify under a new session each time grew the hosting process
 * by each document's size, towards running V8 out of heap. Past either bound
 * the least recently used session is forgotten (its open transaction
 * aborted), as mongod reaps sessions idle past their timeout: a retry of its
 * last write then runs again. Drivers reuse pooled sessions, a few per client.
 */
export const MAX_KEPT_SESSIONS = 10_000;
export const MAX_KEPT_REPLY_BYTES = 64 * 1024 * 1024;

/** Commands a driver retries with the same `txnNumber` (retryable writes). */
const RETRYABLE_WRITES = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);

/** Whether `cmd` is a retryable write: a write with a session and a `txnNumber`, outside transactions. */
export function isRetryableWrite(name: string, cmd: Document): boolean {
  return retryableWrite(name, cmd) !== undefined;
}

/** The session and txnNumber of a retryable write outside a transaction, else undefined. */
function retryableWrite(name: string, cmd: Document): { key: string; txnNumber: bigint } | undefined {
  if (!RETRYABLE_WRITES.has(name) || cmd.autocommit === false) return undefined;
  const key = sessionKey(cmd);
  const txnNumber = txnNumberOf(cmd);
  return key === undefined || txnNumber === undefined ? undefined : { key, txnNumber };
}

const TRANSIENT = { errorLabels: ['TransientTransactionError'] };

/** The hex of a command's `lsid.id`: the key of its session here, in the session cache and in the cursor registry. */
export function sessionKey(cmd: Document): string | undefined {
  const lsid = cmd.lsid as { id?: { toString(encoding: string): string } } | undefined;
  return lsid?.id ? lsid.id.toString('hex') : undefined;
}

/** A command's `txnNumber` (an Int64, already checked), undefined when absent. */
export function txnNumberOf(cmd: Document): bigint | undefined {
  const n: unknown = cmd.txnNumber;
  if (n === undefined || n === null) return undefined;
  return typeof n === 'bigint' ? n : BigInt(String(n));
}

function noSuchTransaction(txnNumber: bigint): CommandError {
  return new CommandError(
    'NoSuchTransaction',
    `Transaction with { txnNumber: ${txnNumber} } has been aborted.`,
    TRANSIENT,
  );
}

/**
 * Logical sessions and their transactions, keyed by `lsid.id`. Decides, per
 * command, which transaction (if any) it runs in, following MongoDB's rules
 * for `startTransaction`, `autocommit: false` and `txnNumber`.
 */
export class SessionRegistry {
  /** The sessions, least recently used first. */
  private readonly sessions = new Map<string, SessionState>();
  /** The sum of the recorded replies' `bytes`. */
  private replyBytes = 0;

  private readonly lifetimeMs: number;
  private readonly clock: () => number;
  /** Every session a command named, for `$listLocalSessions`. */
  readonly localSessions: LogicalSessionCache;

  /** `limits`: how many sessions, and how many bytes of recorded replies, are kept (tests set them low). */
  constructor(
    private readonly locks: LockTable,
    options: SessionRegistryOptions = {},
    private readonly limits = { sessions: MAX_KEPT_SESSIONS, replyBytes: MAX_KEPT_REPLY_BYTES },
  ) {
    this.lifetimeMs = (options.transactionLifetimeLimitSeconds ?? 60) * 1000;
    this.clock = options.clock ?? Date.now;
    this.localSessions = new LogicalSessionCache(this.clock);
  }

  /** The state of session `key`, now the most recently used, forgetting the least recently used past the bounds. */
  private state(key: string): SessionState {
    let state = this.sessions.get(key);
    if (state) this.sessions.delete(key);
    else state = {};
    this.sessions.set(key, state);
    this.evict(key);
    return state;
  }

  /** Forgets the least recently used sessions other than `keep` while past {@link MAX_KEPT_SESSIONS} or {@link MAX_KEPT_REPLY_BYTES}. */
  private evict(keep: string): void {
    for (const [key, state] of this.sessions) {
      if (this.sessions.size <= this.limits.sessions && this.replyBytes <= this.limits.replyBytes) return;
      if (key === keep) return;
      this.forget(key, state);
    }
  }

  private forget(key: string, state: SessionState): void {
    state.transaction?.abort();
    this.replyBytes -= state.lastWrite?.bytes ?? 0;
    this.sessions.delete(key);
  }

  /**
   * The transaction `cmd` belongs to, starting one on `startTransaction`.
   * Undefined for commands outside transactions.
   */
  transactionFor(cmd: Document): Transaction | undefined {
    // txnNumber first: most commands carry none, and the session's key costs a hex conversion.
    const txnNumber = txnNumberOf(cmd);
    if (txnNumber === undefined) return undefined;
    const key = sessionKey(cmd);
    if (key === undefined) return undefined;
    const state = this.state(key);
    const current = state.transaction;
    if (cmd.autocommit !== false) {
      // A retryable write with a newer txnNumber supersedes an open transaction.
      if (current && current.txnNumber < txnNumber) current.abort();
      return undefined;
    }
    if (cmd.startTransaction === true) {
      if (current && current.txnNumber > txnNumber) {
        throw new CommandError(
          'BadValue',
          `Cannot start transaction ${txnNumber} on session because a newer transaction ${current.txnNumber} has already started`,
        );
      }
      if (current && current.txnNumber === txnNumber) {
        throw new CommandError(
          'BadValue',
          `Transaction ${txnNumber} has already started on this session; use a new txnNumber`,
        );
      }
      current?.abort();
      state.transaction = new Transaction(
        txnNumber,
        this.locks,
        this.clock() + this.lifetimeMs,
        this.clock,
        cmd.lsid as Document,
      );
      return state.transaction;
    }
    if (current?.expired()) current.abort();
    if (!current || current.txnNumber !== txnNumber || current.state === 'aborted') throw noSuchTransaction(txnNumber);
    if (current.state === 'committed') {
      throw new CommandError('TransactionCommitted', `Transaction ${txnNumber} has been committed.`);
    }
    return current;
  }

  /**
   * The reply already given to this retryable write, when the driver sends it
   * again with the same `txnNumber` (after a network or write-concern error):
   * MongoDB answers from its record instead of applying the write twice, so a
   * retried `$inc` counts once.
   */
  retriedWrite(name: string, cmd: Document): RecordedWrite | undefined {
    const write = retryableWrite(name, cmd);
    if (write === undefined) return undefined;
    const last = this.sessions.get(write.key)?.lastWrite;
    if (last === undefined || last.txnNumber !== write.txnNumber) return undefined;
    return { reply: { ...last.reply }, done: last.done };
  }

  /**
   * Records the reply of a retryable write that ran, for {@link retriedWrite}:
   * of its first `done` statements only when the rest did not run (a fail
   * point closed the connection), which its retry then runs.
   */
  recordWrite(name: string, cmd: Document, reply: Document, done?: number): void {
    const write = retryableWrite(name, cmd);
    if (write === undefined || reply.ok !== 1) return;
    const state = this.state(write.key);
    const bytes = approximateSize(reply);
    this.replyBytes += bytes - (state.lastWrite?.bytes ?? 0);
    state.lastWrite = { txnNumber: write.txnNumber, reply: { ...reply }, bytes, done };
    this.evict(write.key);
  }

  /** `commitTransaction`: idempotent for an already committed transaction. */
  commit(cmd: Document): void {
    const txnNumber = txnNumberOf(cmd) ?? -1n;
    const current = this.sessions.get(sessionKey(cmd) ?? '')?.transaction;
    if (!current || current.txnNumber !== txnNumber || current.state === 'aborted') throw noSuchTransaction(txnNumber);
    if (current.state === 'committed') return;
    current.commit();
  }

  /** `abortTransaction`. */
  abort(cmd: Document): void {
    const txnNumber = txnNumberOf(cmd) ?? -1n;
    const current = this.sessions.get(sessionKey(cmd) ?? '')?.transaction;
    if (!current || current.txnNumber !== txnNumber || current.state === 'aborted') throw noSuchTransaction(txnNumber);
    if (current.state === 'committed') {
      throw new CommandError('TransactionCommitted', `Transaction ${txnNumber} has been committed.`);
    }
    current.abort();
  }

  /** `endSessions`: aborts their open transactions and forgets them; returns their keys. */
  end(lsids: Document[]): string[] {
    const keys: string[] = [];
    for (const lsid of lsids) {
      const key = sessionKey({ lsid });
      if (key === undefined) continue;
      const state = this.sessions.get(key);
      if (state) this.forget(key, state);
      this.localSessions.end(key);
      keys.push(key);
    }
    return keys;
  }

  /**
   * `killAllSessions: []`: aborts every session's open transaction, as mongod
   * kills each session's in-progress operations; the sessions themselves stay.
   */
  abortOpenTransactions(): void {
    for (const state of this.sessions.values()) {
      if (state.transaction?.state === 'in-progress') state.transaction.abort();
    }
  }

  /** Aborts every open transaction (server stop). */
  abortAll(): void {
    for (const state of this.sessions.values()) state.transaction?.abort();
    this.sessions.clear();
    this.replyBytes = 0;
    this.localSessions.clear();
  }
}
