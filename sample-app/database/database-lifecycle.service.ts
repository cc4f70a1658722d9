import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { CATALOG_OPTIONS, type CatalogAppOptions } from '../catalog-options.interface.js';

/**
 * Closes the mongoose connection and then runs `onShutdown` (which stops the
 * embedded server in `main.ts`) when the app shuts down — on `app.close()` or,
 * with `enableShutdownHooks()`, on SIGINT/SIGTERM. Closing the connection
 * first lets the driver end its sessions while the server still listens; the
 * later close by `MongooseModule` is then a no-op.
 */
@Injectable()
export class DatabaseLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');

  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Inject(CATALOG_OPTIONS) private readonly options: CatalogAppOptions,
  ) {}

  async onApplicationShutdown(signal?: string): Promise<void> {
    await this.connection.close();
    await this.options.onShutdown?.();
    if (signal) this.logger.log(`${signal}: HTTP server, mongoose connection and database closed`);
  }
}
