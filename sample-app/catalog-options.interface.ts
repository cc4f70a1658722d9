import type { LoggerService, LogLevel } from '@nestjs/common';
import type { MongooseModuleOptions } from '@nestjs/mongoose';

/** HTTP platforms the catalog runs on. */
export type CatalogPlatform = 'express' | 'fastify';

/** How orders take their number; see {@link CatalogAppOptions.orderNumbers}. */
export type OrderNumbering = 'fast' | 'gap-free';

/** Options of {@link createCatalogApp} (and of `AppModule.forRoot`). */
export interface CatalogAppOptions {
  /** MongoDB connection string. */
  mongoUri: string;
  /**
   * Database; overrides the one in `mongoUri`.
   * @default the database of `mongoUri`, else `catalog`
   */
  dbName?: string;
  /** @default 'express' */
  platform?: CatalogPlatform;
  /**
   * Nest's logger option; tests pass `false`.
   * @default Nest's console logger
   */
  logger?: LoggerService | LogLevel[] | false;
  /** Extra driver/mongoose options, e.g. `{ monitorCommands: true }` in tests. */
  mongoose?: Omit<MongooseModuleOptions, 'uri' | 'dbName'>;
  /**
   * How orders take their number. `fast`: one atomic `$inc` on the counter, then
   * the insert — concurrent orders never wait on each other, but a failure
   * between the two leaves a gap. `gap-free`: both in one transaction, so a
   * number is taken only with its order — concurrent orders queue on the
   * counter document, retried for up to 5 s on a busy counter (then 503).
   * `npm start` reads it from `ORDER_NUMBERS`.
   * @default 'fast'
   */
  orderNumbers?: OrderNumbering;
  /** Source of "now" for order numbers (their year); tests cross New Year with it. */
  clock?: () => Date;
  /** Runs last during shutdown, after HTTP and the mongoose connection are closed (main.ts stops the embedded server here). */
  onShutdown?: () => Promise<void>;
}

/** Injection token of the {@link CatalogAppOptions} the app was created with. */
export const CATALOG_OPTIONS = Symbol('CATALOG_OPTIONS');
