import { Inject, Injectable, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/mongoose';
import type { ClientSession, Collection, Connection } from 'mongoose';
import { SEQUENCE_MODULE_OPTIONS } from '../object-id.constants.js';
import {
  hasTransactionRetryLabel,
  isDuplicateKeyError,
  isDatabaseUnavailableError,
  markTransient,
} from './mongo-errors.js';
import {
  INT64_MAX,
  SEQUENCE_DEFAULT_COLLECTION,
  SEQUENCE_DEFAULT_DUPLICATE_KEY_RETRIES,
  SEQUENCE_DEFAULT_TIME_ZONE,
} from './sequence.constants.js';
import { SequenceBackwardsError } from './sequence-backwards.error.js';
import { SequenceBlock } from './sequence-block.js';
import { SequenceCacheAllocator } from './sequence-cache-allocator.js';
import { assertTimeZone, zonedDateParts } from './sequence-calendar.js';
import type { SequenceScopeOptions, SequenceSetOptions } from './sequence-call-options.interface.js';
import { SequenceConfigError } from './sequence-config.error.js';
import type { SequenceDefinition } from './sequence-definition.interface.js';
import {
  resolveSequenceDefinition,
  toBlockSize,
  toInteger,
  type ResolvedSequenceDefinition,
} from './sequence-definition.resolver.js';
import type { SequenceDateParts } from './sequence-format.js';
import { buildSequenceKey, normalizeScope, periodKey } from './sequence-key.js';
import type { SequenceModuleOptions } from './sequence-options.interface.js';
import { SequenceOverflowError } from './sequence-overflow.error.js';
import { SequenceUnavailableError } from './sequence-unavailable.error.js';
import type { SequenceValue } from './sequence-value.js';

/**
 * A counter document. The value is `base + seq`: `seq` is what `$inc` adds to,
 * `base` (= start − step) is written once by `$setOnInsert` when the counter is
 * created. Both are int64. A document without `base` (imported by hand) counts
 * as `base: 0`, so `{ _id: 'orders', seq: 41 }` continues at 42.
 */
interface CounterDocument {
  _id: string;
  seq: bigint | number;
  base?: bigint | number;
}

/** One call, prepared: its definition, counter key and the single clock reading. */
interface CallContext {
  def: ResolvedSequenceDefinition;
  key: string;
  scope: string | undefined;
  date: SequenceDateParts | undefined;
  session: ClientSession | undefined;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const SCOPE_KEYS = ['scope', 'date', 'session'];
const SET_KEYS = [...SCOPE_KEYS, 'force'];
// Compare-and-set attempts of a non-forced set() racing with reset() or a forced set() on the same key.
const SET_ATTEMPTS = 50;

/**
 * Atomic, formatted, scoped counters in a MongoDB collection: order and
 * invoice numbers such as `ORD-2026-000042`.
 *
 * Each number costs exactly one `findOneAndUpdate({ _id: key }, { $inc: { seq: step },
 * $setOnInsert: { base: start - step } }, { upsert: true, returnDocument: 'after' })`:
 * no read before the write and no separate create, so any number of processes
 * can share a counter and never receive the same number. `nextBlock()` and the
 * `cache` option reserve many numbers in that one command.
 *
 * Only the `_id` index is used: the counters collection works on a replica
 * set, and on a sharded cluster either unsharded or sharded on `{ _id: 1 }`
 * or `{ _id: 'hashed' }` (every command targets one `_id`, so one shard).
 *
 * Inject it from `SequenceModule`; outside Nest use {@link SequenceService.fromConnection}.
 */
@Injectable()
export class SequenceService {
  private readonly collectionName: string;
  private readonly connectionName: string | undefined;
  private readonly clock: () => Date;
  private readonly timeZone: string;
  private readonly duplicateKeyRetries: number;
  private readonly defaults: SequenceDefinition | undefined;
  private readonly definitions = new Map<string, ResolvedSequenceDefinition>();
  private readonly allocator = new SequenceCacheAllocator();
  private connection: Connection | undefined;

  constructor(
    @Optional() @Inject(SEQUENCE_MODULE_OPTIONS) options: SequenceModuleOptions = {},
    @Optional() private readonly moduleRef?: ModuleRef,
  ) {
    this.collectionName = SequenceService.checkCollectionName(options.collectionName ?? SEQUENCE_DEFAULT_COLLECTION);
    this.connectionName = options.connectionName;
    if (options.clock !== undefined && typeof options.clock !== 'function') {
      throw new SequenceConfigError('sequences.clock must be a function returning a Date, e.g. () => new Date().');
    }
    this.clock = options.clock ?? (() => new Date());
    this.timeZone = options.timeZone ?? SEQUENCE_DEFAULT_TIME_ZONE;
    assertTimeZone(this.timeZone, 'sequences.timeZone');
    const retries = options.duplicateKeyRetries ?? SEQUENCE_DEFAULT_DUPLICATE_KEY_RETRIES;
    if (!Number.isInteger(retries) || retries < 0 || retries > 100) {
      throw new SequenceConfigError(`sequences.duplicateKeyRetries must be an integer from 0 to 100, got ${retries}.`);
    }
    this.duplicateKeyRetries = retries;
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
    const service = new SequenceService(options);
    service.connection = connection;
    return service;
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
    const ctx = this.prepare(name, options, SCOPE_KEYS, false);
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
    const ctx = this.prepare(name, options, SCOPE_KEYS, true);
    if (ctx.def.format.usesScope && ctx.scope === undefined) {
      throw new SequenceConfigError(
        `Sequence "${name}": its format "${ctx.def.format.pattern}" contains {scope}; pass { scope } to nextFormatted().`,
      );
    }
    const value = ctx.def.cache > 0 ? await this.fromCache(ctx) : await this.increment(ctx, ctx.def.step);
    return ctx.def.format.render({ seq: value, date: ctx.date!, scope: ctx.scope });
  }

  /**
   * Reserves `size` consecutive numbers in one round trip (`$inc: size × step`).
   * Bypasses the `cache` option; may run in a transaction.
   * @param size 1 to 1,000,000
   */
  async nextBlock<T extends SequenceValue = number>(
    name: string,
    size: number,
    options?: SequenceScopeOptions,
  ): Promise<SequenceBlock<T>> {
    const n = toBlockSize('nextBlock() size', size);
    const ctx = this.prepare(name, options, SCOPE_KEYS, false);
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
   * The last number taken from the database, without taking one; `null` if the
   * counter was never used (or was reset). With `cache`, it is the end of the
   * last reserved block, which may not have been handed out yet.
   */
  async current<T extends SequenceValue = number>(name: string, options?: SequenceScopeOptions): Promise<T | null> {
    const ctx = this.prepare(name, options, SCOPE_KEYS, false);
    const doc = await this.run(ctx, () =>
      this.collection().findOne({ _id: ctx.key }, { session: ctx.session, useBigInt64: true }),
    );
    return doc === null ? null : this.output<T>(ctx, SequenceService.counterValue(ctx.key, doc));
  }

  /**
   * Makes `value` the last issued number, so the next call returns `value + step`;
   * for continuing from imported data. Refuses to move backwards unless
   * `force: true`. The write is a conditional update on the exact value just
   * read (compare-and-set, retried on a miss), so a concurrent `next()` is never
   * overwritten and no number can be handed out twice. `force` is one `$set`.
   * @throws SequenceBackwardsError when `value` is below the current value (nothing written)
   */
  async set(name: string, value: number | bigint, options?: SequenceSetOptions): Promise<void> {
    const ctx = this.prepare(name, options, SET_KEYS, false);
    const target = toInteger(`Sequence "${name}": set() value`, value, ctx.def.bigint);
    const collection = this.collection();
    this.allocator.forgetKey(ctx.key);
    if (options?.force === true) {
      await this.upsertRetrying(ctx, () =>
        collection.updateOne(
          { _id: ctx.key },
          { $set: { seq: target, base: 0n } },
          { upsert: true, session: ctx.session },
        ),
      );
      return;
    }
    for (let attempt = 0; attempt < SET_ATTEMPTS; attempt++) {
      const doc = await this.run(ctx, () =>
        collection.findOne({ _id: ctx.key }, { session: ctx.session, useBigInt64: true }),
      );
      if (doc === null) {
        try {
          await this.run(ctx, () =>
            collection.insertOne({ _id: ctx.key, seq: target, base: 0n }, { session: ctx.session }),
          );
          return;
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
          // Someone created the counter meanwhile: compare against it on the next turn.
          if (ctx.session?.inTransaction()) {
            markTransient(error);
            throw error;
          }
          continue;
        }
      }
      // Compare-and-set on the exact (base, seq) just read: the write only lands if no
      // next(), reset() or other set() touched the counter in between, so a concurrent
      // number can never be handed out twice; on a miss, read again and retry.
      // (`$max` would save the retry, but the embedded test server compares int64 operands
      // of $max as text, so 1000 < 51 there; see the report.)
      const base = SequenceService.toBigInt(ctx.key, 'base', doc.base ?? 0);
      const seq = SequenceService.toBigInt(ctx.key, 'seq', doc.seq);
      const current = base + seq;
      if (current > target) throw new SequenceBackwardsError(ctx.key, current, target);
      if (current === target) return;
      const updated = await this.run(ctx, () =>
        collection.updateOne(
          {
            _id: ctx.key,
            base: doc.base === undefined ? { $exists: false } : SequenceService.filterValue(base),
            seq: SequenceService.filterValue(seq),
          },
          { $set: { seq: target - base } },
          { session: ctx.session },
        ),
      );
      if (updated.matchedCount === 1) return;
    }
    throw new Error(
      `Sequence "${ctx.key}": set() lost the race ${SET_ATTEMPTS} times against concurrent updates of the counter; try again.`,
    );
  }

  /** Deletes the counter, so the next call returns `start` again. Processes with a cached block keep using it. */
  async reset(name: string, options?: SequenceScopeOptions): Promise<void> {
    const ctx = this.prepare(name, options, SCOPE_KEYS, false);
    this.allocator.forgetKey(ctx.key);
    await this.run(ctx, () => this.collection().deleteOne({ _id: ctx.key }, { session: ctx.session }));
  }

  /** The counter key (`_id` in the counters collection) a call with these options uses. */
  keyOf(name: string, options?: Omit<SequenceScopeOptions, 'session'>): string {
    return this.prepare(name, options, SCOPE_KEYS, false).key;
  }

  private prepare(
    name: string,
    options: SequenceSetOptions | undefined,
    allowed: readonly string[],
    formatting: boolean,
  ): CallContext {
    const def = this.definitions.get(name) ?? resolveSequenceDefinition(name, undefined, this.defaults, this.timeZone);
    if (options !== undefined) {
      if (options === null || typeof options !== 'object') {
        throw new SequenceConfigError(`Sequence "${name}": options must be an object.`);
      }
      for (const key of Object.keys(options)) {
        if (!allowed.includes(key)) {
          throw new SequenceConfigError(
            `Sequence "${name}": unknown call option "${key}"; use ${allowed.join(', ')}. Sequence options such as start or format belong in define().`,
          );
        }
      }
    }
    const scope = normalizeScope(options?.scope);
    const session = options?.session;
    if (session !== undefined && def.cache > 0) {
      throw new SequenceConfigError(
        `Sequence "${name}" uses the cached allocator (cache: ${def.cache}), whose numbers come from memory and cannot ` +
          `take part in a transaction. Use nextBlock() or define the sequence without cache for gap-free numbers.`,
      );
    }
    let date: SequenceDateParts | undefined;
    if (formatting || def.resetEvery !== 'never') {
      // One clock reading per call: the period in the key and the date tokens always agree.
      const now = options?.date ?? this.clock();
      if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
        throw new SequenceConfigError(
          `Sequence "${name}": ${options?.date !== undefined ? 'options.date' : 'the clock'} gave ${String(now)}, not a valid Date.`,
        );
      }
      date = zonedDateParts(now, def.timeZone);
    }
    const key = buildSequenceKey(def.name, scope, date && periodKey(def.resetEvery, date));
    return { def, key, scope, date, session };
  }

  private fromCache(ctx: CallContext): Promise<bigint> {
    const { def } = ctx;
    return this.allocator.take(ctx.key, async () => {
      const amount = this.blockAmount(def, def.cache);
      const last = await this.increment(ctx, amount);
      return { first: last - amount + def.step, last, step: def.step };
    });
  }

  /** The one round trip: `$inc` and `$setOnInsert` in a single upserting findOneAndUpdate. */
  private async increment(ctx: CallContext, amount: bigint): Promise<bigint> {
    const collection = this.collection();
    const base = ctx.def.start - ctx.def.step;
    const doc = await this.upsertRetrying(ctx, () =>
      collection.findOneAndUpdate(
        { _id: ctx.key },
        { $inc: { seq: amount }, $setOnInsert: { base } },
        { upsert: true, returnDocument: 'after', session: ctx.session, useBigInt64: true },
      ),
    );
    if (doc === null) throw new Error(`Sequence "${ctx.key}": the upsert returned no document.`);
    return SequenceService.counterValue(ctx.key, doc);
  }

  /** Runs an upsert, repeating it after a duplicate-key race on the counter's `_id`. */
  private async upsertRetrying<R>(ctx: CallContext, upsert: () => Promise<R>): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await upsert();
      } catch (error) {
        if (isDuplicateKeyError(error)) {
          // Two first calls raced to insert the counter. The losing upsert wrote nothing,
          // so repeating it is safe and finds the winner's document.
          if (ctx.session?.inTransaction()) {
            markTransient(error);
            throw error;
          }
          if (attempt < this.duplicateKeyRetries) continue;
        }
        throw this.translate(ctx, error);
      }
    }
  }

  private async run<R>(ctx: CallContext, command: () => Promise<R>): Promise<R> {
    try {
      return await command();
    } catch (error) {
      throw this.translate(ctx, error);
    }
  }

  private translate(ctx: CallContext, error: unknown): unknown {
    // Inside a transaction the driver labels network errors; withTransaction() needs
    // the original MongoError to retry, so it passes through unchanged.
    if (ctx.session?.inTransaction() && hasTransactionRetryLabel(error)) return error;
    if (isDatabaseUnavailableError(error)) return new SequenceUnavailableError(ctx.key, error);
    return error;
  }

  private blockAmount(def: ResolvedSequenceDefinition, size: number): bigint {
    const amount = def.step * BigInt(size);
    if (amount > INT64_MAX) {
      throw new SequenceConfigError(`Sequence "${def.name}": ${size} × step ${def.step} does not fit in an int64.`);
    }
    return amount;
  }

  private output<T extends SequenceValue>(ctx: CallContext, value: bigint): T {
    if (ctx.def.bigint) return value as T;
    if (value > MAX_SAFE || value < -MAX_SAFE) throw new SequenceOverflowError(ctx.key, value);
    return Number(value) as T;
  }

  private collection(): Collection<CounterDocument> {
    return this.getConnection().collection<CounterDocument>(this.collectionName);
  }

  private getConnection(): Connection {
    if (this.connection !== undefined) return this.connection;
    const token = getConnectionToken(this.connectionName);
    let connection: Connection | undefined;
    try {
      connection = this.moduleRef?.get<Connection>(token, { strict: false });
    } catch {
      connection = undefined;
    }
    if (connection === undefined || connection === null) {
      const named = this.connectionName === undefined ? '' : ` named "${this.connectionName}"`;
      const forRoot =
        this.connectionName === undefined
          ? 'MongooseModule.forRoot(uri)'
          : `MongooseModule.forRoot(uri, { connectionName: '${this.connectionName}' })`;
      throw new SequenceConfigError(
        `SequenceService needs a mongoose connection${named}: import ${forRoot} in your application module ` +
          `(or set sequences.connectionName to an existing connection's name). Outside Nest, use SequenceService.fromConnection(connection).`,
      );
    }
    this.connection = connection;
    return connection;
  }

  /**
   * An int64 for a filter: a plain number when it is safe, which MongoDB matches
   * against the stored int64 by value; the embedded test server cannot take an int64
   * inside a filter ("Do not know how to serialize a BigInt", see the report).
   */
  private static filterValue(value: bigint): number | bigint {
    return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value;
  }

  private static counterValue(key: string, doc: CounterDocument): bigint {
    return SequenceService.toBigInt(key, 'base', doc.base ?? 0) + SequenceService.toBigInt(key, 'seq', doc.seq);
  }

  private static toBigInt(key: string, field: string, value: unknown): bigint {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    throw new Error(
      `Counter document "${key}" in the counters collection has ${field} = ${String(value)}, not an integer; fix or delete it.`,
    );
  }

  private static checkCollectionName(name: unknown): string {
    if (
      typeof name !== 'string' ||
      name === '' ||
      name.includes('$') ||
      name.includes('\0') ||
      name.startsWith('system.')
    ) {
      throw new SequenceConfigError(
        `sequences.collectionName ${JSON.stringify(name)} is not a valid collection name: use a non-empty name without "$" or NUL that does not start with "system.".`,
      );
    }
    return name;
  }
}
