import { createHash } from 'node:crypto';

import type { Document } from 'bson';

import { Binary } from '../bson/bson-library.cjs';

/**
 * mongod's `localLogicalSessionTimeoutMinutes` (30, what hello reports), in
 * milliseconds: a session unused this long has expired, and its cursors close.
 */
export const SESSION_TIMEOUT_MS = 30 * 60_000;

/** Most sessions remembered (mongod's `maxSessions` default); the least recently used go first. */
const MAX_SESSIONS = 1_000_000;

/** SHA-256 of `user@db`, or of nothing for no user: mongod's `uid` of a session (`getLogicalSessionUserDigestFor`). */
export function sessionUserDigest(user = '', db = ''): Binary {
  const name = user === '' && db === '' ? '' : `${user}@${db}`;
  return new Binary(createHash('sha256').update(name, 'utf8').digest(), Binary.SUBTYPE_DEFAULT);
}

/** The digest every session gets on a server without authentication. */
const NO_AUTH_DIGEST = sessionUserDigest();

interface SessionRecord {
  readonly id: Binary;
  readonly uid: Binary;
  /** Milliseconds of the server's clock; made a Date only when listed. */
  lastUse: number;
}

/**
 * A session as mongod's messages print it (LogicalSessionId's `operator<<`):
 * `<id UUID> - <uid as base64> - <txnNumber> - <txnUUID>`, the last two
 * empty for a client's session.
 */
export function describeSession(lsid: Document): string {
  const id = lsid.id as Binary;
  const uid: unknown = lsid.uid;
  return `${id.toUUID().toHexString(true)} - ${(uid instanceof Binary ? uid : NO_AUTH_DIGEST).toString('base64')} -  - `;
}

/** Whether two session ids hold the same bytes. */
function sameBytes(a: Binary, b: Binary): boolean {
  const length = a.position;
  if (b.position !== length) return false;
  const x = a.buffer;
  const y = b.buffer;
  for (let i = 0; i < length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * The server's logical sessions as `$listLocalSessions` reports them: each
 * `lsid` a command carried, with its user digest and when it was last used,
 * until `endSessions` (or a server stop) forgets it or it goes unused for
 * {@link SESSION_TIMEOUT_MS}. A command in an expired session starts it
 * anew, as mongod's would after reaping it, but the session's cursors are
 * gone ({@link onExpire}).
 */
export class LogicalSessionCache {
  private readonly records = new Map<string, SessionRecord>();
  /**
   * The session touched last, which is already last in `records`: a driver
   * sends command after command on one session, and matching its bytes spares
   * every such command the hex key and the map's re-insertion.
   */
  private latest: SessionRecord | undefined;

  private readonly expireListeners: ((hexId: string) => void)[] = [];

  constructor(private readonly clock: () => number = Date.now) {}

  /** Calls `listener` with the hex `id` of each session found expired (its cursors are to close). */
  onExpire(listener: (hexId: string) => void): void {
    this.expireListeners.push(listener);
  }

  private expired(record: SessionRecord, now: number): boolean {
    return now - record.lastUse >= SESSION_TIMEOUT_MS;
  }

  private expire(hexId: string): void {
    this.end(hexId);
    for (const listener of this.expireListeners) listener(hexId);
  }

  /** Records a use of the session `lsid` (a command's `lsid`, already checked to hold a UUID `id`). */
  touch(lsid: unknown): void {
    const id = (lsid as Document | undefined)?.id;
    if (!(id instanceof Binary)) return;
    const now = this.clock();
    const latest = this.latest;
    if (latest && sameBytes(latest.id, id) && !this.expired(latest, now)) {
      latest.lastUse = now;
      return;
    }
    const key = id.toString('hex');
    const existing = this.records.get(key);
    if (existing && this.expired(existing, now)) {
      this.expire(key);
    } else if (existing) {
      // Re-inserted so that the map iterates least recently used first.
      this.records.delete(key);
      existing.lastUse = now;
      this.records.set(key, existing);
      this.latest = existing;
      return;
    }
    const uid = (lsid as Document).uid;
    const record: SessionRecord = { id, uid: uid instanceof Binary ? uid : NO_AUTH_DIGEST, lastUse: now };
    // The least recently used come first: expired ones are dropped from the front as new ones come.
    for (const [oldest, old] of this.records) {
      if (!this.expired(old, now)) break;
      this.expire(oldest);
    }
    this.records.set(key, record);
    this.latest = record;
    if (this.records.size > MAX_SESSIONS) this.records.delete(this.records.keys().next().value!);
  }

  /** When the session whose `id` is `hexId` was last used; undefined once ended, expired or forgotten. */
  lastUse(hexId: string): number | undefined {
    const record = this.records.get(hexId);
    return record && !this.expired(record, this.clock()) ? record.lastUse : undefined;
  }

  /** Forgets the session whose `id` is `hexId`. */
  end(hexId: string): void {
    this.records.delete(hexId);
    if (this.latest?.id.toString('hex') === hexId) this.latest = undefined;
  }

  /** Forgets every session. */
  clear(): void {
    this.records.clear();
    this.latest = undefined;
  }

  /** `{ _id: { id, uid }, lastUse }` of each session, of the users with these digests (all when undefined). */
  list(uids?: readonly Binary[]): Document[] {
    const wanted = uids && new Set(uids.map((uid) => uid.toString('hex')));
    const out: Document[] = [];
    const now = this.clock();
    for (const record of this.records.values()) {
      if (this.expired(record, now) || (wanted && !wanted.has(record.uid.toString('hex')))) continue;
      out.push({ _id: { id: record.id, uid: record.uid }, lastUse: new Date(record.lastUse) });
    }
    return out;
  }
}
