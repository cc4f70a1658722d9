import type { SequenceDefinition } from './sequence-definition.interface.js';

/** Options of the injectable `SequenceService` (`SequenceModule.forRoot(options)`). */
export interface SequenceModuleOptions {
  /**
   * Name of the `@nestjs/mongoose` connection holding the counters
   * (`MongooseModule.forRoot(uri, { connectionName })`). Read by the default
   * MongoDB store only, not when a store is provided under `SEQUENCE_COUNTER_STORE`.
   * @default the default connection
   */
  connectionName?: string;
  /**
   * Collection of the counter documents, one per key: `{ _id: 'orders:2026', seq, base }`.
   * Only the `_id` index is used, so it works on replica sets and on sharded
   * clusters (unsharded, or sharded on `_id`). Read by the default MongoDB store only.
   * @default 'counters'
   */
  collectionName?: string;
  /**
   * Default IANA time zone of date scopes and date tokens.
   * @default 'UTC'
   */
  timeZone?: string;
  /**
   * Source of "now", read once per call for both the date scope and the date
   * tokens. Tests inject a fixed clock to cross midnight without waiting.
   * @default () => new Date()
   */
  clock?: () => Date;
  /**
   * Options shared by every sequence; a definition's own options override them.
   * @default {}
   */
  defaults?: SequenceDefinition;
  /**
   * Sequences by name, e.g. `{ orders: { format: 'ORD-{YYYY}-{seq:6}', resetEvery: 'year' } }`.
   * Validated when the service is created, so a bad pattern fails at startup.
   * @default {}
   */
  definitions?: Record<string, SequenceDefinition>;
  /**
   * Immediate retries when two first calls race to create the same counter
   * and one gets a duplicate-key error (E11000) from the upsert. Read by the
   * default MongoDB store only.
   * @default 3
   */
  duplicateKeyRetries?: number;
}
