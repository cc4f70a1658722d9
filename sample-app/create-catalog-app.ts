import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyHelmet from '@fastify/helmet';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { AppModule } from './app.module.js';
import type { CatalogAppOptions } from './catalog-options.interface.js';
import { answerClientError } from './common/platform/client-error-answer.js';
import { answerRouterError } from './common/platform/router-error-answer.js';

/** Largest JSON body accepted; bigger ones get 413 before any code of ours runs. */
export const BODY_LIMIT_BYTES = 100 * 1024;

/**
 * Longest path parameter Fastify's router passes on (its default, 100, answers
 * longer ones with its own 414 before Nest); an over-long id is then the
 * pipe's clear 400, as on Express.
 */
export const FASTIFY_MAX_PARAM_LENGTH = 1000;

/**
 * helmet's headers (nosniff, frame-ancestors, a same-origin CSP, …) on both
 * platforms. `upgrade-insecure-requests` is left out: the app is served over
 * plain http on localhost, where it would make the browser fetch the Swagger
 * UI's scripts over https and fail.
 */
const SECURITY_HEADERS = { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } };

/** Path of the Swagger UI; the OpenAPI document is at `${DOCS_PATH}-json`. */
export const DOCS_PATH = 'docs';

/**
 * Builds the catalog app on Express (default) or Fastify, initialised but not
 * listening: `main.ts` and the e2e tests call `listen()`. Shutdown hooks are
 * enabled, so SIGINT/SIGTERM close HTTP, the mongoose connection and then
 * `options.onShutdown`.
 */
export async function createCatalogApp(options: CatalogAppOptions): Promise<INestApplication> {
  const platform = options.platform ?? 'express';
  // abortOnError: false — a failed start throws (main.ts then stops the embedded server) instead of exiting.
  const nestOptions = { logger: options.logger, abortOnError: false };
  const module = AppModule.forRoot(options);
  let app: INestApplication;
  if (platform === 'fastify') {
    app = await NestFactory.create<NestFastifyApplication>(
      module,
      new FastifyAdapter({
        bodyLimit: BODY_LIMIT_BYTES,
        maxParamLength: FASTIFY_MAX_PARAM_LENGTH,
        // What the router and Node's HTTP parser refuse is answered in the app's error shape too.
        frameworkErrors: answerRouterError,
        clientErrorHandler: answerClientError,
      }),
      nestOptions,
    );
    await (app as NestFastifyApplication).register(fastifyHelmet, SECURITY_HEADERS);
  } else {
    const express = await NestFactory.create<NestExpressApplication>(module, nestOptions);
    express.disable('x-powered-by');
    express.use(helmet(SECURITY_HEADERS));
    express.useBodyParser('json', { limit: BODY_LIMIT_BYTES });
    // Node answers a request head it refuses (431 past 16 KB) without a body; give it the app's shape.
    express.getHttpServer().on('clientError', answerClientError);
    app = express;
  }
  app.enableShutdownHooks();
  setUpDocs(app);
  await app.init();
  if (platform === 'fastify') await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  return app;
}

/**
 * Swagger UI at `/docs` and the OpenAPI document at `/docs-json`, on both
 * platforms: on Fastify, @nestjs/swagger serves the UI's assets through
 * `@fastify/static` (a dev dependency here; an app on Fastify installs it too).
 */
function setUpDocs(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('nestjs-objectid sample catalog')
    .setDescription(
      'Categories, products and orders on MongoDB. Every id is a 24-character hex ObjectId; ' +
        'an invalid one is answered with 400 before the database is asked.',
    )
    .setVersion('1.0')
    .build();
  SwaggerModule.setup(DOCS_PATH, app, () => SwaggerModule.createDocument(app, config));
}
