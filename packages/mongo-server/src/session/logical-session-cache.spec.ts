import { Binary, UUID } from '../bson/bson-library.cjs';
import { LogicalSessionCache } from './logical-session-cache.js';

/** A fresh copy of the id, as each decoded command carries its own. */
function lsid(id: UUID): { id: Binary } {
  return { id: new Binary(Buffer.from(id.buffer), Binary.SUBTYPE_UUID) };
}

describe('LogicalSessionCache', () => {
  const a = new UUID();
  const b = new UUID();
  let now: number;
  let cache: LogicalSessionCache;

  beforeEach(() => {
    now = 1_000;
    cache = new LogicalSessionCache(() => now);
  });

  const listed = () => cache.list().map((s) => [(s._id as { id: Binary }).id.toString('hex'), s.lastUse]);

  it('should move the last use of a session used again, command after command', () => {
    cache.touch(lsid(a));
    now = 2_000;
    cache.touch(lsid(a));
    expect(listed()).toEqual([[a.toHexString(false), new Date(2_000)]]);
  });

  it('should list sessions least recently used first', () => {
    cache.touch(lsid(a));
    cache.touch(lsid(b));
    now = 3_000;
    cache.touch(lsid(a));
    expect(listed()).toEqual([
      [b.toHexString(false), new Date(1_000)],
      [a.toHexString(false), new Date(3_000)],
    ]);
  });

  // The session used last is remembered apart: ending it must not leave it behind.
  it.each([
    ['end', (c: LogicalSessionCache) => c.end(a.toHexString(false))],
    ['clear', (c: LogicalSessionCache) => c.clear()],
  ])('should list again a session used after %s', (_, forget) => {
    cache.touch(lsid(a));
    forget(cache);
    expect(listed()).toEqual([]);
    now = 4_000;
    cache.touch(lsid(a));
    expect(listed()).toEqual([[a.toHexString(false), new Date(4_000)]]);
  });

  it('should hand out a new Date each time, which the caller may change', () => {
    cache.touch(lsid(a));
    (cache.list()[0]!.lastUse as Date).setTime(0);
    expect(listed()).toEqual([[a.toHexString(false), new Date(1_000)]]);
  });
});

describe('LogicalSessionCache: expiry', () => {
  const a = new UUID();
  const MINUTES_30 = 30 * 60_000;

  it('should expire a session unused for 30 minutes: no last use, not listed, and restarted by its next command', () => {
    let now = 1_000;
    const cache = new LogicalSessionCache(() => now);
    const expired: string[] = [];
    cache.onExpire((key) => expired.push(key));
    cache.touch(lsid(a));
    now += MINUTES_30 - 1;
    cache.touch(lsid(a));
    now += MINUTES_30 - 1;
    expect(cache.lastUse(a.toHexString(false))).toBe(now - (MINUTES_30 - 1));
    now += 1;
    expect(cache.lastUse(a.toHexString(false))).toBeUndefined();
    expect(cache.list()).toEqual([]);
    expect(expired).toEqual([]);
    cache.touch(lsid(a));
    expect(expired).toEqual([a.toHexString(false)]);
    expect(cache.lastUse(a.toHexString(false))).toBe(now);
  });

  it('should notice the expiry of the session it touched last too', () => {
    let now = 1_000;
    const cache = new LogicalSessionCache(() => now);
    const expired: string[] = [];
    cache.onExpire((key) => expired.push(key));
    cache.touch(lsid(a));
    now += MINUTES_30;
    cache.touch(lsid(a));
    expect(expired).toEqual([a.toHexString(false)]);
  });
});

describe('LogicalSessionCache: expired sessions dropped', () => {
  it('should drop expired sessions, telling which, as new sessions come', () => {
    let now = 1_000;
    const cache = new LogicalSessionCache(() => now);
    const expired: string[] = [];
    cache.onExpire((key) => expired.push(key));
    const [a, b, c] = [new UUID(), new UUID(), new UUID()];
    cache.touch(lsid(a));
    now += 60_000;
    cache.touch(lsid(b));
    now += 30 * 60_000 - 30_000;
    cache.touch(lsid(c));
    expect(expired).toEqual([a.toHexString(false)]);
    expect(cache.list().map((s) => (s._id as { id: Binary }).id.toString('hex'))).toEqual([
      b.toHexString(false),
      c.toHexString(false),
    ]);
  });
});
