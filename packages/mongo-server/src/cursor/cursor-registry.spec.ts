import { Binary } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';
import { approximateSize } from '../bson/approximate-size.js';
import { CursorRegistry } from './cursor-registry.js';

/** Five documents of about 1 KB each. */
const DOCS = Array.from({ length: 5 }, (_, i) => ({ _id: i, s: 'x'.repeat(1_000) }));
const DOCS_BYTES = DOCS.reduce((sum, doc) => sum + approximateSize(doc), 0);

/** Whether cursor `id` still answers a getMore (of one document). */
function isOpen(registry: CursorRegistry, id: bigint): boolean {
  try {
    registry.next(id, 1);
    return true;
  } catch (error) {
    if (error instanceof CommandError && error.codeName === 'CursorNotFound') return false;
    throw error;
  }
}

describe('CursorRegistry: what open cursors hold', () => {
  it('should close the least recently used cursors once their documents pass the limit', () => {
    const registry = new CursorRegistry({ limitBytes: 2.5 * DOCS_BYTES });
    const [a, b] = [registry.open('t.c', DOCS, { batchSize: 0 }).id, registry.open('t.c', DOCS, { batchSize: 0 }).id];
    registry.next(a, 1); // a is now the more recently used
    const c = registry.open('t.c', DOCS, { batchSize: 0 }).id;
    expect([isOpen(registry, a), isOpen(registry, b), isOpen(registry, c)]).toEqual([true, false, true]);
  });

  it('should give back what an exhausted or killed cursor held', () => {
    const registry = new CursorRegistry({ limitBytes: 2.5 * DOCS_BYTES });
    const a = registry.open('t.c', DOCS, { batchSize: 0 }).id;
    const b = registry.open('t.c', DOCS, { batchSize: 0 }).id;
    expect(registry.next(a, 100).id).toBe(0n);
    expect(registry.kill(b)).toBe(true);
    const [c, d] = [registry.open('t.c', DOCS, { batchSize: 0 }).id, registry.open('t.c', DOCS, { batchSize: 0 }).id];
    expect([isOpen(registry, c), isOpen(registry, d)]).toEqual([true, true]);
  });

  it('should count only the documents left after the first batch', () => {
    const registry = new CursorRegistry({ limitBytes: 1.5 * DOCS_BYTES });
    expect(registry.open('t.c', DOCS).id).toBe(0n);
    const a = registry.open('t.c', DOCS, { batchSize: 4 }).id;
    const b = registry.open('t.c', DOCS, { batchSize: 0 }).id;
    expect([isOpen(registry, a), isOpen(registry, b)]).toEqual([true, true]);
  });

  it('should keep a new cursor that alone passes the limit, closing the others', () => {
    const registry = new CursorRegistry({ limitBytes: DOCS_BYTES / 2 });
    const a = registry.open('t.c', DOCS.slice(0, 2), { batchSize: 0 }).id;
    const b = registry.open('t.c', DOCS, { batchSize: 0 }).id;
    expect([isOpen(registry, a), isOpen(registry, b)]).toEqual([false, true]);
  });
});

/** A registry on a clock the test moves, with one-minute cursor timeouts. */
function timedRegistry(sessions = new Map<string, number>()) {
  const clock = { now: Date.UTC(2026, 11, 6) };
  const registry = new CursorRegistry({
    clock: () => clock.now,
    timeoutMS: 60_000,
    sessionLastUse: (key) => sessions.get(key),
  });
  return { registry, clock, sessions };
}

const MINUTE = 60_000;
const SESSION_A = { id: new Binary(Buffer.alloc(16, 0xaa), Binary.SUBTYPE_UUID) };
const SESSION_B = { id: new Binary(Buffer.alloc(16, 0xbb), Binary.SUBTYPE_UUID) };
const KEY_A = 'aa'.repeat(16);

describe('CursorRegistry: idle cursors', () => {
  it('should close a cursor opened outside a session once idle for the timeout, and count it', () => {
    const { registry, clock } = timedRegistry();
    const id = registry.open('t.c', DOCS, { batchSize: 1 }).id;
    clock.now += MINUTE - 1;
    expect(isOpen(registry, id)).toBe(true);
    // That getMore was a use: the timeout counts from it.
    clock.now += MINUTE - 1;
    expect(isOpen(registry, id)).toBe(true);
    clock.now += MINUTE;
    expect(isOpen(registry, id)).toBe(false);
    expect(registry.metrics()).toMatchObject({ timedOut: 1, totalOpened: 1, open: { total: 0 } });
  });

  it('should answer killCursors for a cursor closed for being idle as not found', () => {
    const { registry, clock } = timedRegistry();
    const id = registry.open('t.c', DOCS, { batchSize: 1 }).id;
    clock.now += MINUTE;
    expect(registry.kill(id)).toBe(false);
  });

  it('should keep a noCursorTimeout cursor open however long it is idle', () => {
    const { registry, clock } = timedRegistry();
    const id = registry.open('t.c', DOCS, { batchSize: 1, noTimeout: true }).id;
    clock.now += 24 * 60 * MINUTE;
    expect(registry.metrics()).toMatchObject({ timedOut: 0, open: { noTimeout: 1, total: 1 } });
    expect(isOpen(registry, id)).toBe(true);
  });

  it('should keep a cursor of a live session past the cursor timeout', () => {
    const { registry, clock, sessions } = timedRegistry();
    sessions.set(KEY_A, clock.now);
    const id = registry.open('t.c', DOCS, { batchSize: 1, owner: { lsid: SESSION_A } }).id;
    clock.now += 29 * MINUTE;
    expect(registry.metrics()).toMatchObject({ timedOut: 0, open: { total: 1 } });
    expect(isOpen(registry, id)).toBe(true);
  });

  it('should close a session cursor 30 minutes after its last use when nothing tells how its session is', () => {
    const clock = { now: Date.UTC(2026, 11, 6) };
    const registry = new CursorRegistry({ clock: () => clock.now, timeoutMS: MINUTE });
    const id = registry.open('t.c', DOCS, { batchSize: 1, owner: { lsid: SESSION_A } }).id;
    clock.now += 30 * MINUTE - 1;
    expect(isOpen(registry, id)).toBe(true);
    clock.now += 30 * MINUTE;
    expect(isOpen(registry, id)).toBe(false);
    expect(registry.metrics().timedOut).toBe(0);
  });

  it('should close a session cursor, noCursorTimeout or not, once its session ended', () => {
    const { registry, clock, sessions } = timedRegistry();
    sessions.set(KEY_A, clock.now);
    const ids = [false, true].map(
      (noTimeout) => registry.open('t.c', DOCS, { batchSize: 1, noTimeout, owner: { lsid: SESSION_A } }).id,
    );
    expect(registry.metrics().open.total).toBe(2);
    sessions.delete(KEY_A);
    expect(ids.map((id) => isOpen(registry, id))).toEqual([false, false]);
  });

  it('should close idle cursors as commands arrive, before the oldest open ones are closed for memory', () => {
    const clock = { now: Date.UTC(2026, 11, 6) };
    const registry = new CursorRegistry({ limitBytes: 2.5 * DOCS_BYTES, clock: () => clock.now, timeoutMS: MINUTE });
    const kept = registry.open('t.c', DOCS, { batchSize: 0, noTimeout: true }).id;
    const idle = registry.open('t.c', DOCS, { batchSize: 0 }).id;
    clock.now += MINUTE;
    // Without the sweep, the least recently used (kept) would make room for the new one.
    const added = registry.open('t.c', DOCS, { batchSize: 0 }).id;
    expect(registry.kill(idle)).toBe(false);
    expect([isOpen(registry, kept), isOpen(registry, added)]).toEqual([true, true]);
    expect(registry.metrics().timedOut).toBe(1);
  });

  it('should close the cursors of every session on killSessionCursors, and only those', () => {
    const { registry, clock, sessions } = timedRegistry();
    sessions.set(KEY_A, clock.now);
    const inSession = registry.open('t.c', DOCS, { batchSize: 1, owner: { lsid: SESSION_A } }).id;
    const outside = registry.open('t.c', DOCS, { batchSize: 1 }).id;
    registry.killSessionCursors();
    expect([registry.kill(inSession), registry.kill(outside)]).toEqual([false, true]);
  });
});

describe('CursorRegistry: what a getMore must match', () => {
  const ns = 't.c';
  const inTxn = { lsid: SESSION_A, txnNumber: 3n };

  it.each<
    [
      string,
      { lsid?: typeof SESSION_A; txnNumber?: bigint },
      { ns?: string; lsid?: typeof SESSION_A; txnNumber?: bigint },
      string,
    ]
  >([
    ['a session for a cursor opened outside one', {}, { lsid: SESSION_A }, 'Location50736'],
    ['no session for a cursor opened in one', { lsid: SESSION_A }, {}, 'Location50737'],
    ['another session', { lsid: SESSION_A }, { lsid: SESSION_B }, 'Location50738'],
    [
      'a transaction for a cursor opened outside one',
      { lsid: SESSION_A },
      { lsid: SESSION_A, txnNumber: 3n },
      'Location50739',
    ],
    ['no transaction for a cursor opened in one', inTxn, { lsid: SESSION_A }, 'Location50740'],
    ['another transaction', inTxn, { lsid: SESSION_A, txnNumber: 4n }, 'Location50741'],
    ['another namespace', {}, { ns: 't.other' }, 'Unauthorized'],
  ])('should refuse %s and leave the cursor open', (_label, opener, getMore, codeName) => {
    const { registry, clock, sessions } = timedRegistry();
    sessions.set(KEY_A, clock.now);
    const id = registry.open(ns, DOCS, { batchSize: 1, owner: opener }).id;
    const error = (() => {
      try {
        registry.check(id, { ns: getMore.ns ?? ns, owner: getMore });
      } catch (e) {
        return e as CommandError;
      }
      return undefined;
    })();
    expect(error?.codeName).toBe(codeName);
    expect(error?.message).toContain(codeName === 'Unauthorized' ? 'different namespace t.c' : `cursor ${id},`);
    expect(() => registry.check(id, { ns, owner: opener })).not.toThrow();
  });

  it('should print sessions as mongod does: UUID, user digest in base64, and two empty parts', () => {
    const { registry, clock, sessions } = timedRegistry();
    sessions.set(KEY_A, clock.now);
    const id = registry.open(ns, DOCS, { batchSize: 1, owner: { lsid: SESSION_A } }).id;
    expect(() => registry.check(id, { ns, owner: {} })).toThrow(
      `Cannot run getMore on cursor ${id}, which was created in session aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa - ` +
        '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU= -  - , without an lsid',
    );
  });

  it('should answer CursorNotFound first, before any other check', () => {
    const { registry } = timedRegistry();
    expect(() => registry.check(42n, { ns: 'x.y', owner: { lsid: SESSION_B } })).toThrow('cursor id 42 not found');
  });
});

describe('CursorRegistry: a plan that finds its end only when asked for one more', () => {
  const ids = (batch: readonly { _id?: unknown }[]) => batch.map((doc) => doc._id);

  it.each<[string, number, number | undefined, boolean, boolean]>([
    // [label, first batch size, getMore batch size, endFoundLate, open after the getMore that took the last]
    ['a getMore filled exactly by the last documents', 2, 3, true, true],
    ['a getMore stopping short of full', 2, 4, true, false],
    ['a getMore without a batch size', 2, undefined, true, false],
    ['a list (its end known at once), filled exactly', 2, 3, false, false],
  ])('%s', (_label, first, next, endFoundLate, staysOpen) => {
    const registry = new CursorRegistry();
    const opened = registry.open('t.c', DOCS, { batchSize: first, endFoundLate });
    expect(ids(opened.batch)).toEqual([0, 1]);
    const more = registry.next(opened.id, next);
    expect(ids(more.batch)).toEqual([2, 3, 4]);
    expect(more.id !== 0n).toBe(staysOpen);
    if (staysOpen) {
      // The next getMore finds the end: an empty batch, and the cursor closed.
      expect(registry.next(opened.id, 3)).toMatchObject({ id: 0n, batch: [] });
      expect(isOpen(registry, opened.id)).toBe(false);
    }
  });

  it('should leave the first batch open when it takes exactly every document, and close it when it does not fill', () => {
    const registry = new CursorRegistry();
    expect(registry.open('t.c', DOCS, { batchSize: 5, endFoundLate: true }).id).not.toBe(0n);
    expect(registry.open('t.c', DOCS, { batchSize: 6, endFoundLate: true }).id).toBe(0n);
    expect(registry.open('t.c', DOCS, { batchSize: 5 }).id).toBe(0n);
    expect(registry.open('t.c', [], { batchSize: 5, endFoundLate: true }).id).toBe(0n);
  });
});

describe('CursorRegistry: plans killed under their cursors', () => {
  it("should fail a killed cursor's next getMore with QueryPlanKilled, then forget it", () => {
    const registry = new CursorRegistry();
    const { id } = registry.open('t.c', DOCS, { batchSize: 1 });
    const other = registry.open('t.other', DOCS, { batchSize: 1 }).id;
    registry.killPlans('t.c', 'collection dropped. UUID 00000000-0000-4000-8000-000000000000');
    expect(() => registry.next(id, 1)).toThrow(
      'Executor error during getMore :: caused by :: collection dropped. UUID 00000000-0000-4000-8000-000000000000',
    );
    expect(isOpen(registry, id)).toBe(false);
    expect(isOpen(registry, other)).toBe(true);
  });

  it('should kill only the cursors whose plan walked the dropped index', () => {
    const registry = new CursorRegistry();
    const walked = registry.open('t.c', DOCS, { batchSize: 1, index: 'x_1' }).id;
    const scanned = registry.open('t.c', DOCS, { batchSize: 1 }).id;
    registry.killPlans('t.c', "index 'x_1' dropped", 'x_1');
    let error: unknown;
    try {
      registry.next(walked, 1);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ codeName: 'QueryPlanKilled', code: 175 });
    expect(isOpen(registry, scanned)).toBe(true);
  });
});
