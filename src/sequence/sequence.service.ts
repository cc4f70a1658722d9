import { Inject, Injectable, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Connection } from 'mongoose';
import { SEQUENCE_COUNTER_STORE, SEQUENCE_MODULE_OPTIONS } from '../object-id.constants.js';
import { MongoSequenceCounterStore } from './mongo-sequence-counter-store.js';
import { INT64_MAX, SEQUENCE_DEFAULT_TIME_ZONE } from './sequence.constants.js';
import { SequenceBackwardsError } from './sequence-backwards.error.js';
import { SequenceBlock } from './sequence-block.js';
import { SequenceCacheAllocator } from './sequence-cache-allocator.js';
import { assertTimeZone } from './sequence-calendar.js';
import {
  prepareSequenceCall,
  SEQUENCE_SCOPE_KEYS,
  SEQUENCE_SET_KEYS,
  type SequenceCallContext,
} from './sequence-call-context.js';
import type { SequenceScopeOptions, SequenceSetOptions } from './sequence-call-options.interface.js';
import { SequenceConfigError } from './sequence-config.error.js';
import type { SequenceCounterStore } from './sequence-counter-store.interface.js';
import type { SequenceDefinition } from './sequence-definition.interface.js';
import {
  resolveSequenceDefinition,
  toBlockSize,
  toInteger,
  type ResolvedSequenceDefinition,
} from './sequence-definition.resolver.js';
import type { SequenceModuleOptions } from './sequence-options.interface.js';
import { SequenceOverflowError } from './sequence-overflow.error.js';
import type { SequenceValue } from './sequence-value.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
// Compare-and-set attempts of a non-forced set() racing with reset() or a forced set() on the same key.
const SET_ATTEMPTS = 50;
const RESET_ALL_KEYS: readonly string[] = ['session'];

/**
 * Atomic, formatted, scoped counters: order and invoice numbers such as
 * `ORD-2026-000042`.
 *
 * Each number costs exactly one atomic `increment()` of its counter store,
 * with no read before it, so any number of processes can share a counter and
 * never receive the same number. `nextBlock()` and the `cache` option reserve
 * many numbers in that one call. The store is the one provided under
 * `SEQUENCE_COUNTER_STORE`, else a {@link MongoSequenceCounterStore} built from
 * the options (one `findOneAndUpdate` per increment).
 *
 * Inject it from `SequenceModule`; outside Nest use {@link SequenceService.fromConnection}.
 */
@Injectable()
export class SequenceService {
  private readonly store: SequenceCounterStore;
  private readonly clock: () => Date;
  private readonly timeZone: string;
  private readonly defaults: SequenceDefinition | undefined;
  private readonly definitions = new Map<string, ResolvedSequenceDefinition>();
  private readonly allocator = new SequenceCacheAllocator();

  /**
   * @param options the options of `SequenceModule.forRoot()`
   * @param moduleRef where the default MongoDB store finds its connection
   * @param store the counter store; without it, a `MongoSequenceCounterStore` built from `options`
   */
  constructor(
    @Optional() @Inject(SEQUENCE_MODULE_OPTIONS) options: SequenceModuleOptions = {},
    @Optional() moduleRef?: ModuleRef,
    @Optional() @Inject(SEQUENCE_COUNTER_STORE) store?: SequenceCounterStore,
  ) {
    this.store = store ?? new MongoSequenceCounterStore(options, moduleRef);
    if (options.clock !== undefined && typeof options.clock !== 'function') {
      throw new SequenceConfigError('sequences.clock must be a function returning a Date, e.g. () => new Date().');
    }
    this.clock = options.clock ?? (() => new Date());
    this.timeZone = options.timeZone ?? SEQUENCE_DEFAULT_TIME_ZONE;
    assertTimeZone(this.timeZone, 'sequences.timeZone');
    this.defaults = options.defaults;
    // Validate the defaults on their own too, so an error names them rather than the first sequence using them.
    resolveSequenceDefinition('defaults', undefined, this.defaults, this.timeZone, 'sequences.defaults');
    for (const [name, definition] of Object.entries(options.definitions ?? {})) {
      this.define(name, definition);
    }
  }

  /**
   * Builds a service without Nest's dependency injection, for scripts and tests.
   * @param connection an open (or opening) mongoose connection
   * @param options the same options as `SequenceModule.forRoot()`; `connectionName` is ignored
   */
  static fromConnection(connection: Connection, options: SequenceModuleOptions = {}): SequenceService {
    return new SequenceService(options, undefined, MongoSequenceCounterStore.fromConnection(connection, options));
  }

  /**
   * Registers or replaces the options of sequence `name`. Existing counters keep
   * their values; a new `start` only applies to counters created from now on.
   * @throws SequenceConfigError (or SequenceFormatError) naming the bad option
   */
  define(name: string, definition: SequenceDefinition = {}): void {
    const resolved = resolveSequenceDefinition(name, definition, this.defaults, this.timeZone);
    this.definitions.set(name, resolved);
    this.allocator.forgetSequence(name);
  }

  /**
   * Takes the next number: `start` on the first call, then `+ step` each call.
   * Pass `<bigint>` as type argument for sequences defined with `bigint: true`.
   *
   * With `session` inside a transaction the increment is part of it, so an
   * aborted transaction gives its number back (gap-free numbering). The cost:
   * concurrent transactions on one counter conflict (WriteConflict) and
   * `withTransaction()` retries them, one at a time.
   *
   * @throws SequenceConfigError on bad arguments (nothing is written)
   * @throws SequenceOverflowError in number mode beyond 2^53 − 1
   * @throws SequenceUnavailableError when the database cannot be reached
   */
  async next<T extends SequenceValue = number>(name: string, options?: SequenceScopeOptions): Promise<T> {
    const ctx = this.prepare(name, options, SEQUENCE_SCOPE_KEYS, false);
    const value = ctx.def.cache > 0 ? await this.fromCache(ctx) : await this.increment(ctx, ctx.def.step);
    return this.output<T>(ctx, value);
  }

  /**
   * Takes the next number and renders it with the sequence's `format`, e.g.
   * `ORD-2026-000042`. The date tokens and the `resetEvery` period come from the
   * same clock reading. The value is rendered exactly in either mode.
   * @throws SequenceConfigError when the format has `{scope}` and no scope is given
   */
  async nextFormatted(name: string, options?: SequenceScopeOptions): Promise<string> {
    const ctx = this.prepare(name, options, SEQUENCE_SCOPE_KEYS, true);
    this.assertScopeForFormat(ctx, 'nextFormatted');
    const value = ctx.def.cache > 0 ? await this.fromCache(ctx) : await this.increment(ctx, ctx.def.step);
    return ctx.def.format.render({ seq: value, date: ctx.date!, scope: ctx.scope });
  }

  /**
   * Reserves `size` consecutive numbers in one round trip (one increment by `size × step`).
   * Bypasses the `cache` option; may run in a transaction.
   * @param size 1 to 1,000,000
   */
  async nextBlock<T extends SequenceValue = number>(
    name: string,
    size: number,
    options?: SequenceScopeOptions,
  ): Promise<SequenceBlock<T>> {
    const n = toBlockSize('nextBlock() size', size);
    const ctx = this.prepare(name, options, SEQUENCE_SCOPE_KEYS, false);
    const amount = this.blockAmount(ctx.def, n);
    const last = await this.increment(ctx, amount);
    const first = last - amount + ctx.def.step;
    return new SequenceBlock<T>(
      this.output<T>(ctx, first),
      this.output<T>(ctx, last),
      this.output<T>(ctx, ctx.def.step),
      n,
    );
  }

  /**
   * Reserves `size` consecutive numbers in one round trip, like `nextBlock()`,
   * and renders each with the sequence's `format`. One clock reading serves the
   * counter key and every date token, so a batch never straddles two periods.
   * @param size 1 to 1,000,000
   * @throws SequenceConfigError when the format has `{scope}` and no scope is given
   */
  async nextFormattedBlock(name: string, size: number, options?: SequenceScopeOptions): Promise<string[]> {
    const n = toBlockSize('nextFormattedBlock() size', size);
    const ctx = this.prepare(name, options, SEQUENCE_SCOPE_KEYS, true);
    this.assertScopeForFormat(ctx, 'nextFormattedBlock');
    const amount = this.blockAmount(ctx.def, n);
    const last = await this.increment(ctx, amount);
    const out = new Array<string>(n);
    for (let i = 0, v = last - amount + ctx.def.step; i < n; i++, v += ctx.def.step) {
      out[i] = ctx.def.format.render({ seq: v, date: ctx.date!, scope: ctx.scope });
    }
    return out;
  }

  /**
   * The number `next()` would return now, without taking it: one read, no
   * write. Racy by nature: any other caller (or process) may take that number
   * before you do, so use it to show "your invoice will probably be 43", never
   * to assign one. With `cache`, it is the next number of this process's block.
   */
  async peek<T extends SequenceValue = number>(name: string, options?: SequenceScopeOptions): Promise<T> {
    const ctx = this.prepare(name, options, SEQUENCE_SCOPE_KEYS, false);
    return this.output<T>(ctx, await this.peekValue(ctx));
  }

  /** `peek()` rendered with the sequence's `format`; as racy as `peek()`. */
  async peekFormatted(name: string, options?: SequenceScopeOptions): Promise<string> {
    const ctx = this.prepare(name, options, SEQUENCE_SCOPE_KEYS, true);
    this.assertScopeForFormat(ctx, 'peekFormatted');
    return ctx.def.format.render({ seq: await this.peekValue(ctx), date: ctx.date!, scope: ctx.scope });
  }

  /**
   * The last number taken from the store, without taking one; `null` if the
   * counter was never used (or was reset). With `cache`, it is the end of the
   * last reserved block, which may not have been handed out yet.
   */
  async current<T extends SequenceValue = number>(name: string, options?: SequenceScopeOptions): Promise<T | null> {
    const ctx = this.prepare(name, options, SEQUENCE_SCOPE_KEYS, false);
    const counter = await this.store.get(ctx.key, ctx.session);
    return counter === null ? null : this.output<T>(ctx, counter.value);
  }

  /**
   * Makes `value` the last issued number, so the next call returns `value + step`;
   * for continuing from imported data. Refuses to move backwards unless
   * `force: true`. The write is a conditional update on the exact value just
   * read (compare-and-set, retried on a miss), so a concurrent `next()` is never
   * overwritten and no number can be handed out twice. `force` is one plain write.
   * @throws SequenceBackwardsError when `value` is below the current value (nothing written)
   */
  async set(name: string, value: number | bigint, options?: SequenceSetOptions): Promise<void> {
    const ctx = this.prepare(name, options, SEQUENCE_SET_KEYS, false);
    const target = toInteger(`Sequence "${name}": set() value`, value, ctx.def.bigint);
    this.allocator.forgetKey(ctx.key);
    if (options?.force === true) {
      await this.store.set(ctx.key, target, ctx.session);
      return;
    }
    // Compare-and-set on the exact state just read: the write only lands if no next(),
    // reset() or other set() touched the counter in between, so a concurrent number can
    // never be handed out twice; on a miss, read again and retry.
    for (let attempt = 0; attempt < SET_ATTEMPTS; attempt++) {
      const counter = await this.store.get(ctx.key, ctx.session);
      if (counter !== null && counter.value > target) throw new SequenceBackwardsError(ctx.key, counter.value, target);
      if (counter !== null && counter.value === target) return;
      if (await this.store.compareAndSet(ctx.key, counter, target, ctx.session)) return;
    }
    throw new Error(
      `Sequence "${ctx.key}": set() lost the race ${SET_ATTEMPTS} times against concurrent updates of the counter; try again.`,
    );
  }

  /** Deletes the counter, so the next call returns `start` again. Processes with a cached block keep using it. */
  async reset(name: string, options?: SequenceScopeOptions): Promise<void> {
    const ctx = this.prepare(name, options, SEQUENCE_SCOPE_KEYS, false);
    this.allocator.forgetKey(ctx.key);
    await this.store.delete(ctx.key, ctx.session);
  }

  /**
   * Deletes every counter of sequence `name` at once: each scope and each
   * period (`invoices`, `invoices:tenant-42`, `invoices:region=eu,storeId=7:2026`…),
   * so each starts again at `start`. Resolves to how many counters were deleted.
   * Needs a store with `deleteAll()` (the MongoDB store has it: one `deleteMany`).
   */
  async resetAll(name: string, options?: Pick<SequenceScopeOptions, 'session'>): Promise<number> {
    const ctx = this.prepare(name, options, RESET_ALL_KEYS, false);
    if (this.store.deleteAll === undefined) {
      throw new SequenceConfigError(
        `Sequence "${name}": resetAll() needs a counter store with deleteAll(name, session); ` +
          `add it to the store provided under SEQUENCE_COUNTER_STORE, or call reset() for each scope.`,
      );
    }
    this.allocator.forgetSequence(name);
    return this.store.deleteAll(name, ctx.session);
  }

  /** The counter key (`_id` in the MongoDB counters collection) a call with these options uses. */
  keyOf(name: string, options?: Omit<SequenceScopeOptions, 'session'>): string {
    return this.prepare(name, options, SEQUENCE_SCOPE_KEYS, false).key;
  }

  private prepare(
    name: string,
    options: SequenceSetOptions | undefined,
    allowed: readonly string[],
    formatting: boolean,
  ): SequenceCallContext {
    const def = this.definitions.get(name) ?? resolveSequenceDefinition(name, undefined, this.defaults, this.timeZone);
    return prepareSequenceCall(def, options, allowed, formatting, this.clock);
  }

  private assertScopeForFormat(ctx: SequenceCallContext, method: string): void {
    if (ctx.def.format.usesScope && ctx.scope === undefined) {
      throw new SequenceConfigError(
        `Sequence "${ctx.def.name}": its format "${ctx.def.format.pattern}" contains {scope}; pass { scope } to ${method}().`,
      );
    }
  }

  private async peekValue(ctx: SequenceCallContext): Promise<bigint> {
    const cached = ctx.def.cache > 0 ? this.allocator.peek(ctx.key) : undefined;
    if (cached !== undefined) return cached;
    const counter = await this.store.get(ctx.key, ctx.session);
    return counter === null ? ctx.def.start : counter.value + ctx.def.step;
  }

  private fromCache(ctx: SequenceCallContext): Promise<bigint> {
    const { def } = ctx;
    return this.allocator.take(ctx.key, async () => {
      const amount = this.blockAmount(def, def.cache);
      const last = await this.increment(ctx, amount);
      return { first: last - amount + def.step, last, step: def.step };
    });
  }

  /** The one round trip: the store adds `amount`, creating the counter at `start − step` if missing. */
  private increment(ctx: SequenceCallContext, amount: bigint): Promise<bigint> {
    return this.store.increment(ctx.key, amount, ctx.def.start - ctx.def.step, ctx.session);
  }

  private blockAmount(def: ResolvedSequenceDefinition, size: number): bigint {
    const amount = def.step * BigInt(size);
    if (amount > INT64_MAX) {
      throw new SequenceConfigError(`Sequence "${def.name}": ${size} × step ${def.step} does not fit in an int64.`);
    }
    return amount;
  }

  private output<T extends SequenceValue>(ctx: SequenceCallContext, value: bigint): T {
    if (ctx.def.bigint) return value as T;
    if (value > MAX_SAFE || value < -MAX_SAFE) throw new SequenceOverflowError(ctx.key, value);
    return Number(value) as T;
  }
}
