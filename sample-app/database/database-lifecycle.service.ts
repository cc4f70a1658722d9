import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { CATALOG_OPTIONS, type CatalogAppOptions } from '../catalog-options.interface.js';

/**
 * The mongoose connection over the app's life.
 *
 * While it runs: logs (context `Database`) when MongoDB goes away and when it
 * is back, once per transition. Mongoose emits `disconnected` when the
 * driver's monitor loses the server, and on its return both `connected` and
 * `reconnected`; only a change of state is logged, and the app's own close
 * is not an outage.
 *
 * At shutdown: closes the connection and then runs `onShutdown` (which stops
 * the embedded server in `main.ts`) — on `app.close()` or, with
 * `enableShutdownHooks()`, on SIGINT/SIGTERM. Closing the connection first
 * lets the driver end its sessions while the server still listens; the later
 * close by `MongooseModule` is then a no-op.
 */
@Injectable()
export class DatabaseLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  /** When MongoDB was lost, while it is away. */
  private downSince: number | undefined;

  private readonly onDown = (): void => {
    if (this.downSince !== undefined) return;
    this.downSince = performance.now();
    this.logger.warn('MongoDB is down: requests that need it answer 503 until it is back');
  };

  private readonly onUp = (): void => {
    if (this.downSince === undefined) return;
    const seconds = (performance.now() - this.downSince) / 1000;
    this.downSince = undefined;
    this.logger.log(`MongoDB is back after ${seconds.toFixed(1)} s: requests are served again`);
  };

  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Inject(CATALOG_OPTIONS) private readonly options: CatalogAppOptions,
  ) {}

  onModuleInit(): void {
    this.connection.on('disconnected', this.onDown);
    this.connection.on('connected', this.onUp);
    this.connection.on('reconnected', this.onUp);
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    // Our own close is no outage: stop listening first.
    this.connection.off('disconnected', this.onDown);
    this.connection.off('connected', this.onUp);
    this.connection.off('reconnected', this.onUp);
    await this.connection.close();
    await this.options.onShutdown?.();
    if (signal) this.logger.log(`${signal}: HTTP server, mongoose connection and database closed`);
  }
}
