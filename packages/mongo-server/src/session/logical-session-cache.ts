import { createHash } from 'node:crypto';

import { Binary, type Document } from 'bson';

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
 * until `endSessions` (or a server stop) forgets it.
 */
export class LogicalSessionCache {
  private readonly records = new Map<string, SessionRecord>();
  /**
   * The session touched last, which is already last in `records`: a driver
   * sends command after command on one session, and matching its bytes spares
   * every such command the hex key and the map's re-insertion.
   */
  private latest: SessionRecord | undefined;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Records a use of the session `lsid` (a command's `lsid`, already checked to hold a UUID `id`). */
  touch(lsid: unknown): void {
    const id = (lsid as Document | undefined)?.id;
    if (!(id instanceof Binary)) return;
    const latest = this.latest;
    if (latest && sameBytes(latest.id, id)) {
      latest.lastUse = this.clock();
      return;
    }
    const key = id.toString('hex');
    const existing = this.records.get(key);
    if (existing) {
      // Re-inserted so that the map iterates least recently used first.
      this.records.delete(key);
      existing.lastUse = this.clock();
      this.records.set(key, existing);
      this.latest = existing;
      return;
    }
    const uid = (lsid as Document).uid;
    const record: SessionRecord = { id, uid: uid instanceof Binary ? uid : NO_AUTH_DIGEST, lastUse: this.clock() };
    this.records.set(key, record);
    this.latest = record;
    if (this.records.size > MAX_SESSIONS) this.records.delete(this.records.keys().next().value!);
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
    for (const record of this.records.values()) {
      if (wanted && !wanted.has(record.uid.toString('hex'))) continue;
      out.push({ _id: { id: record.id, uid: record.uid }, lastUse: new Date(record.lastUse) });
    }
    return out;
  }
}
