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
    const registry = new CursorRegistry(2.5 * DOCS_BYTES);
    const [a, b] = [registry.open('t.c', DOCS, 0).id, registry.open('t.c', DOCS, 0).id];
    registry.next(a, 1); // a is now the more recently used
    const c = registry.open('t.c', DOCS, 0).id;
    expect([isOpen(registry, a), isOpen(registry, b), isOpen(registry, c)]).toEqual([true, false, true]);
  });

  it('should give back what an exhausted or killed cursor held', () => {
    const registry = new CursorRegistry(2.5 * DOCS_BYTES);
    const a = registry.open('t.c', DOCS, 0).id;
    const b = registry.open('t.c', DOCS, 0).id;
    expect(registry.next(a, 100).id).toBe(0n);
    expect(registry.kill(b)).toBe(true);
    const [c, d] = [registry.open('t.c', DOCS, 0).id, registry.open('t.c', DOCS, 0).id];
    expect([isOpen(registry, c), isOpen(registry, d)]).toEqual([true, true]);
  });

  it('should count only the documents left after the first batch', () => {
    const registry = new CursorRegistry(1.5 * DOCS_BYTES);
    expect(registry.open('t.c', DOCS).id).toBe(0n);
    const a = registry.open('t.c', DOCS, 4).id;
    const b = registry.open('t.c', DOCS, 0).id;
    expect([isOpen(registry, a), isOpen(registry, b)]).toEqual([true, true]);
  });

  it('should keep a new cursor that alone passes the limit, closing the others', () => {
    const registry = new CursorRegistry(DOCS_BYTES / 2);
    const a = registry.open('t.c', DOCS.slice(0, 2), 0).id;
    const b = registry.open('t.c', DOCS, 0).id;
    expect([isOpen(registry, a), isOpen(registry, b)]).toEqual([false, true]);
  });
});
