import { Binary, UUID } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';
import { LockTable } from './lock-table.js';
import { SessionRegistry } from './session-registry.js';

/** Session ids by name, each decoded afresh as a command would carry it. */
const ids = new Map<string, UUID>();
function lsid(name: string): { id: Binary } {
  if (!ids.has(name)) ids.set(name, new UUID());
  return { id: new Binary(Buffer.from(ids.get(name)!.buffer), Binary.SUBTYPE_UUID) };
}

/** A retryable insert of session `name`. */
const insert = (name: string) => ({ insert: 'c', documents: [{}], lsid: lsid(name), txnNumber: 1n, $db: 'd' });

/** Runs a retryable write of session `name` whose reply carries `value`. */
function write(registry: SessionRegistry, name: string, value: unknown = 1): void {
  registry.recordWrite('insert', insert(name), { n: 1, value, ok: 1 });
}

/** The names among `names` whose last retryable write the registry still answers from its record. */
function remembered(registry: SessionRegistry, names: string[]): string[] {
  return names.filter((name) => registry.retriedWrite('insert', insert(name)) !== undefined);
}

describe('SessionRegistry: what it keeps of sessions', () => {
  it('should forget the least recently used session past the number of sessions kept', () => {
    const registry = new SessionRegistry(new LockTable(), {}, { sessions: 2, replyBytes: Infinity });
    write(registry, 'a');
    write(registry, 'b');
    write(registry, 'a'); // a is now the more recently used
    write(registry, 'c');
    expect(remembered(registry, ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('should forget the least recently used sessions past the bytes of replies kept, but never the newest', () => {
    const registry = new SessionRegistry(new LockTable(), {}, { sessions: Infinity, replyBytes: 10_000 });
    write(registry, 'a', 'x'.repeat(4_000));
    write(registry, 'b', 'x'.repeat(4_000));
    write(registry, 'c', 'x'.repeat(4_000));
    expect(remembered(registry, ['a', 'b', 'c'])).toEqual(['b', 'c']);
    write(registry, 'd', 'x'.repeat(20_000));
    expect(remembered(registry, ['a', 'b', 'c', 'd'])).toEqual(['d']);
    write(registry, 'd');
    write(registry, 'e', 'x'.repeat(4_000));
    expect(remembered(registry, ['d', 'e'])).toEqual(['d', 'e']);
  });

  it("should abort a forgotten session's open transaction", () => {
    const registry = new SessionRegistry(new LockTable(), {}, { sessions: 1, replyBytes: Infinity });
    const command = { find: 'c', lsid: lsid('t'), txnNumber: 5n, autocommit: false, $db: 'd' };
    const transaction = registry.transactionFor({ ...command, startTransaction: true })!;
    expect(registry.transactionFor(command)).toBe(transaction);
    write(registry, 'other');
    expect(transaction.state).toBe('aborted');
    expect(() => registry.transactionFor(command)).toThrow(
      expect.objectContaining<Partial<CommandError>>({ codeName: 'NoSuchTransaction' }),
    );
  });
});
