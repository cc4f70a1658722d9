import { Inject, Injectable, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/mongoose';
import type { ClientSession, Collection, Connection } from 'mongoose';
import { SEQUENCE_MODULE_OPTIONS } from '../object-id.constants.js';
import {
  counterSnapshot,
  int64FilterValue,
  ownCounterSnapshot,
  type CounterDocument,
} from './mongo-counter-document.js';
import {
  hasTransactionRetryLabel,
  isDatabaseUnavailableError,
  isDuplicateKeyError,
  markTransient,
} from './mongo-errors.js';
import {
  SEQUENCE_DEFAULT_COLLECTION,
  SEQUENCE_DEFAULT_DUPLICATE_KEY_RETRIES,
  SEQUENCE_KEY_SEPARATOR,
} from './sequence.constants.js';
import { SequenceConfigError } from './sequence-config.error.js';
import type { SequenceCounterSnapshot, SequenceCounterStore } from './sequence-counter-store.interface.js';
import type { SequenceModuleOptions } from './sequence-options.interface.js';
import { SequenceUnavailableError } from './sequence-unavailable.error.js';

/** The options this store reads; the others configure `SequenceService`. */
export type MongoSequenceCounterStoreOptions = Pick<
  SequenceModuleOptions,
  'connectionName' | 'collectionName' | 'duplicateKeyRetries'
>;

/**
 * The default `SequenceCounterStore`: one document per counter key in a
 * MongoDB collection (`counters`), on the app's mongoose connection (or
 * `connectionName`), found through Nest when first used.
 *
 * Each increment is exactly one `findOneAndUpdate({ _id: key }, { $inc: { seq: amount },
 * $setOnInsert: { base: initial } }, { upsert: true, returnDocument: 'after' })`:
 * no read before the write and no separate create, so any number of processes
 * can share a counter and never receive the same number.
 *
 * Only the `_id` index is used: the counters collection works on a replica
 * set, and on a sharded cluster either unsharded or sharded on `{ _id: 1 }`
 * or `{ _id: 'hashed' }` (every command targets one `_id`, so one shard).
 */
@Injectable()
export class MongoSequenceCounterStore implements SequenceCounterStore {
  private readonly collectionName: string;
  private readonly connectionName: string | undefined;
  private readonly duplicateKeyRetries: number;
  private connection: Connection | undefined;

  constructor(
    @Optional() @Inject(SEQUENCE_MODULE_OPTIONS) options: MongoSequenceCounterStoreOptions = {},
    @Optional() private readonly moduleRef?: ModuleRef,
  ) {
    this.collectionName = MongoSequenceCounterStore.checkCollectionName(
      options.collectionName ?? SEQUENCE_DEFAULT_COLLECTION,
    );
    this.connectionName = options.connectionName;
    const retries = options.duplicateKeyRetries ?? SEQUENCE_DEFAULT_DUPLICATE_KEY_RETRIES;
    if (!Number.isInteger(retries) || retries < 0 || retries > 100) {
      throw new SequenceConfigError(`sequences.duplicateKeyRetries must be an integer from 0 to 100, got ${retries}.`);
    }
    this.duplicateKeyRetries = retries;
  }

  /**
   * A store on this connection, without Nest's dependency injection.
   * @param options `collectionName` and `duplicateKeyRetries`; `connectionName` is ignored
   */
  static fromConnection(
    connection: Connection,
    options: MongoSequenceCounterStoreOptions = {},
  ): MongoSequenceCounterStore {
    const store = new MongoSequenceCounterStore(options);
    store.connection = connection;
    return store;
  }

  /** One round trip: `$inc` and `$setOnInsert` in a single upserting findOneAndUpdate. */
  async increment(key: string, amount: bigint, initial: bigint, session?: ClientSession): Promise<bigint> {
    const collection = this.collection();
    const doc = await this.upsertRetrying(key, session, () =>
      collection.findOneAndUpdate(
        { _id: key },
        { $inc: { seq: amount }, $setOnInsert: { base: initial } },
        { upsert: true, returnDocument: 'after', session, useBigInt64: true },
      ),
    );
    if (doc === null) throw new Error(`Sequence "${key}": the upsert returned no document.`);
    return counterSnapshot(key, doc).value;
  }

  /** One `findOne` by `_id`. */
  async get(key: string, session?: ClientSession): Promise<SequenceCounterSnapshot | null> {
    const doc = await this.run(key, session, () =>
      this.collection().findOne({ _id: key }, { session, useBigInt64: true }),
    );
    return doc === null ? null : counterSnapshot(key, doc);
  }

  /**
   * An `insertOne` when `expected` is `null`, otherwise an `updateOne` whose
   * filter is the exact (`base`, `seq`) that `get()` read, so it only lands if
   * nothing touched the counter in between.
   */
  async compareAndSet(
    key: string,
    expected: SequenceCounterSnapshot | null,
    value: bigint,
    session?: ClientSession,
  ): Promise<boolean> {
    const collection = this.collection();
    if (expected === null) {
      try {
        await this.run(key, session, () => collection.insertOne({ _id: key, seq: value, base: 0n }, { session }));
        return true;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        // Someone created the counter meanwhile: the caller reads it again.
        if (session?.inTransaction()) {
          markTransient(error);
          throw error;
        }
        return false;
      }
    }
    const { base, seq, hasBase } = ownCounterSnapshot(key, expected);
    const updated = await this.run(key, session, () =>
      collection.updateOne(
        {
          _id: key,
          base: hasBase ? int64FilterValue(base) : { $exists: false },
          seq: int64FilterValue(seq),
        },
        { $set: { seq: value - base } },
        { session },
      ),
    );
    return updated.matchedCount === 1;
  }

  /** One upserting `updateOne` that writes `{ seq: value, base: 0 }`. */
  async set(key: string, value: bigint, session?: ClientSession): Promise<void> {
    const collection = this.collection();
    await this.upsertRetrying(key, session, () =>
      collection.updateOne({ _id: key }, { $set: { seq: value, base: 0n } }, { upsert: true, session }),
    );
  }

  /** One `deleteOne` by `_id`. */
  async delete(key: string, session?: ClientSession): Promise<void> {
    await this.run(key, session, () => this.collection().deleteOne({ _id: key }, { session }));
  }

  /**
   * One `deleteMany` of `_id: name` and the `_id` range `[name:, name;)`: every
   * key with the prefix `name:` sorts inside it (`;` follows `:` in UTF-8), so the
   * `_id` index bounds the scan and no regular expression is built from the name.
   */
  async deleteAll(name: string, session?: ClientSession): Promise<number> {
    const from = name + SEQUENCE_KEY_SEPARATOR;
    const to = name + String.fromCharCode(SEQUENCE_KEY_SEPARATOR.charCodeAt(0) + 1);
    const result = await this.run(name, session, () =>
      this.collection().deleteMany({ $or: [{ _id: name }, { _id: { $gte: from, $lt: to } }] }, { session }),
    );
    return result.deletedCount;
  }

  /** Runs an upsert, repeating it after a duplicate-key race on the counter's `_id`. */
  private async upsertRetrying<R>(
    key: string,
    session: ClientSession | undefined,
    upsert: () => Promise<R>,
  ): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await upsert();
      } catch (error) {
        if (isDuplicateKeyError(error)) {
          // Two first calls raced to insert the counter. The losing upsert wrote nothing,
          // so repeating it is safe and finds the winner's document.
          if (session?.inTransaction()) {
            markTransient(error);
            throw error;
          }
          if (attempt < this.duplicateKeyRetries) continue;
        }
        throw MongoSequenceCounterStore.translate(key, session, error);
      }
    }
  }

  private async run<R>(key: string, session: ClientSession | undefined, command: () => Promise<R>): Promise<R> {
    try {
      return await command();
    } catch (error) {
      throw MongoSequenceCounterStore.translate(key, session, error);
    }
  }

  private static translate(key: string, session: ClientSession | undefined, error: unknown): unknown {
    // Inside a transaction the driver labels network errors; withTransaction() needs
    // the original MongoError to retry, so it passes through unchanged.
    if (session?.inTransaction() && hasTransactionRetryLabel(error)) return error;
    if (isDatabaseUnavailableError(error)) return new SequenceUnavailableError(key, error);
    return error;
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
