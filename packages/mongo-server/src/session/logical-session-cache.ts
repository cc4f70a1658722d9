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
  lastUse: Date;
}

/**
 * The server's logical sessions as `$listLocalSessions` reports them: each
 * `lsid` a command carried, with its user digest and when it was last used,
 * until `endSessions` (or a server stop) forgets it.
 */
export class LogicalSessionCache {
  private readonly records = new Map<string, SessionRecord>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Records a use of the session `lsid` (a command's `lsid`, already checked to hold a UUID `id`). */
  touch(lsid: unknown): void {
    const id = (lsid as Document | undefined)?.id;
    if (!(id instanceof Binary)) return;
    const key = id.toString('hex');
    const existing = this.records.get(key);
    if (existing) {
      // Re-inserted so that the map iterates least recently used first.
      this.records.delete(key);
      existing.lastUse = new Date(this.clock());
      this.records.set(key, existing);
      return;
    }
    const uid = (lsid as Document).uid;
    this.records.set(key, {
      id,
      uid: uid instanceof Binary ? uid : NO_AUTH_DIGEST,
      lastUse: new Date(this.clock()),
    });
    if (this.records.size > MAX_SESSIONS) this.records.delete(this.records.keys().next().value!);
  }

  /** Forgets the session whose `id` is `hexId`. */
  end(hexId: string): void {
    this.records.delete(hexId);
  }

  /** Forgets every session. */
  clear(): void {
    this.records.clear();
  }

  /** `{ _id: { id, uid }, lastUse }` of each session, of the users with these digests (all when undefined). */
  list(uids?: readonly Binary[]): Document[] {
    const wanted = uids && new Set(uids.map((uid) => uid.toString('hex')));
    const out: Document[] = [];
    for (const record of this.records.values()) {
      if (wanted && !wanted.has(record.uid.toString('hex'))) continue;
      out.push({ _id: { id: record.id, uid: record.uid }, lastUse: new Date(record.lastUse.getTime()) });
    }
    return out;
  }
}
