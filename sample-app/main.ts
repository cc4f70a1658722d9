import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { CatalogPlatform, OrderNumbering } from './catalog-options.interface.js';
import { startDatabase } from './database/start-database.js';

/**
 * `npm start`: the sample catalog on http://localhost:3000.
 * Environment: `MONGO_URL` (default: embedded in-memory server), `PORT` (3000),
 * `PLATFORM` (`express` or `fastify`), `ORDER_NUMBERS` (`fast` or `gap-free`).
 */
async function bootstrap(): Promise<void> {
  const logger = new Logger('Catalog');
  const port = Number(process.env.PORT ?? 3000);
  const platform = (process.env.PLATFORM ?? 'express') as CatalogPlatform;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number (0-65535), got "${process.env.PORT}"`);
  }
  if (platform !== 'express' && platform !== 'fastify') {
    throw new Error(`PLATFORM must be "express" or "fastify", got "${platform}"`);
  }
  const orderNumbers = (process.env.ORDER_NUMBERS ?? 'fast') as OrderNumbering;
  if (orderNumbers !== 'fast' && orderNumbers !== 'gap-free') {
    throw new Error(`ORDER_NUMBERS must be "fast" or "gap-free", got "${orderNumbers}"`);
  }

  if (process.env.MONGO_URL) logger.log('Database: connecting to MONGO_URL…');
  const database = await startDatabase();
  logger.log(`Database: ${database.description}`);
  // The app (Nest's platforms, GraphQL, Swagger: seconds of CPU to load) is loaded once the
  // environment and the database are known good, so that a mistyped PORT or an unreachable
  // MONGO_URL is reported without that wait.
  const { createCatalogApp, DOCS_PATH } = await import('./create-catalog-app.js');
  logger.log(`HTTP: ${platform} on port ${port}; API docs at http://localhost:${port}/${DOCS_PATH}`);

  let app;
  try {
    app = await createCatalogApp({
      mongoUri: database.uri,
      platform,
      orderNumbers,
      onShutdown: () => database.stop(),
    });
  } catch (error) {
    await database.stop();
    throw error;
  }
  try {
    // Fastify listens on 127.0.0.1 only unless told otherwise; Express on every interface.
    if (platform === 'fastify') await app.listen(port, '0.0.0.0');
    else await app.listen(port);
  } catch (error) {
    await app.close();
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      throw new Error(
        `port ${port} is already in use; stop what runs there or pick another, e.g. PORT=3001 npm start`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  const url = (await app.getUrl()).replace('[::1]', 'localhost').replace('127.0.0.1', 'localhost');
  // performance.now() counts from process start: module loading and TypeScript compilation included.
  logger.log(`Ready in ${Math.round(performance.now())} ms: ${url} — try ${url}/health, docs at ${url}/${DOCS_PATH}`);
}

bootstrap().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const hint = process.env.MONGO_URL
    ? ' With MONGO_URL set, check that MongoDB runs there; unset it to use the embedded in-memory server.'
    : '';
  new Logger('Catalog').error(`Could not start: ${message}.${hint}`);
  process.exit(1);
});
