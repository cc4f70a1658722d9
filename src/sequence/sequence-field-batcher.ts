import type { ClientSession } from 'mongoose';
import { normalizeScope, type SequenceScope } from './sequence-key.js';
import type { SequenceService } from './sequence.service.js';
import type { SequenceValue } from './sequence-value.js';

/** What one plugin instance numbers: a sequence, as numbers or through its format. */
export interface SequenceFieldTarget {
  name: string;
  formatted: boolean;
}

interface Waiter {
  resolve: (value: SequenceValue | string) => void;
  reject: (error: unknown) => void;
}

/** The documents waiting for one counter: its scope as given (the service checks it again) and their callbacks. */
interface Group {
  scope: SequenceScope | undefined;
  waiters: Waiter[];
}

/**
 * Gathers the numbers that documents ask for in one turn of the event loop
 * and takes them with one counter round trip per counter and session:
 * `insertMany(docs)` and `Model.create([...])` validate their documents in
 * parallel, so a batch of N costs one `$inc` by N (`nextBlock()`), not N.
 * Numbers are handed out in the order the documents asked for them.
 */
export class SequenceFieldBatcher {
  // session (or undefined) → scope key → waiters, in arrival order
  private pending = new Map<ClientSession | undefined, Map<string | undefined, Group>>();
  private scheduled = false;

  constructor(
    private readonly service: () => SequenceService,
    private readonly target: SequenceFieldTarget,
  ) {}

  /**
   * The next number (or formatted number) for one document.
   * @throws SequenceConfigError at once when `scope` is invalid (nothing is reserved)
   */
  take(scope: SequenceScope | undefined, session: ClientSession | undefined): Promise<SequenceValue | string> {
    // Validate now, so one hostile document fails alone and its batch still gets numbers.
    const key = normalizeScope(scope);
    return new Promise((resolve, reject) => {
      let byScope = this.pending.get(session);
      if (byScope === undefined) this.pending.set(session, (byScope = new Map()));
      let group = byScope.get(key);
      if (group === undefined) byScope.set(key, (group = { scope, waiters: [] }));
      group.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the current I/O callback's microtasks, i.e. once every document of the batch has asked.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const pending = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    for (const [session, byScope] of pending) {
      for (const { scope, waiters } of byScope.values()) {
        this.allocate(scope, session, waiters.length).then(
          (values) => waiters.forEach((waiter, i) => waiter.resolve(values[i])),
          (error: unknown) => waiters.forEach((waiter) => waiter.reject(error)),
        );
      }
    }
  }

  private async allocate(
    scope: SequenceScope | undefined,
    session: ClientSession | undefined,
    size: number,
  ): Promise<readonly (SequenceValue | string)[]> {
    const { name, formatted } = this.target;
    const service = this.service();
    const options = { ...(scope !== undefined && { scope }), ...(session !== undefined && { session }) };
    // One document: next()/nextFormatted(), which honour the sequence's `cache`.
    if (size === 1) {
      return [
        formatted ? await service.nextFormatted(name, options) : await service.next<SequenceValue>(name, options),
      ];
    }
    if (formatted) return service.nextFormattedBlock(name, size, options);
    return (await service.nextBlock<SequenceValue>(name, size, options)).values();
  }
}
