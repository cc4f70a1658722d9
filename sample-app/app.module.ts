import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { MongooseModule } from '@nestjs/mongoose';
import { ObjectIdModule } from 'nestjs-objectid';
import { SequenceModule } from 'nestjs-objectid/sequence';
import { ObjectIdSerializerModule } from 'nestjs-objectid/serialization';
import type { CatalogAppOptions } from './catalog-options.interface.js';
import { CatalogOptionsModule } from './catalog-options.module.js';
import { CategoriesModule } from './categories/categories.module.js';
import { HttpErrorShapeFilter } from './common/filters/http-error-shape.filter.js';
import { BodyShapePipe } from './common/pipes/body-shape.pipe.js';
import { RawParamsValidationPipe } from './common/pipes/raw-params-validation.pipe.js';
import { DatabaseLifecycle } from './database/database-lifecycle.service.js';
import { DatabaseUnavailableFilter } from './database/database-unavailable.filter.js';
import { DatabaseUnavailableInterceptor } from './database/database-unavailable.interceptor.js';
import { mongoUrlDatabase } from './database/mongo-url.js';
import { CatalogGraphqlModule } from './graphql/catalog-graphql.module.js';
import { HealthModule } from './health/health.module.js';
import { ObjectIdsModule } from './object-ids/object-ids.module.js';
import { OrdersModule } from './orders/orders.module.js';
import { ORDER_SEQUENCE } from './orders/orders.service.js';
import { ProductsModule } from './products/products.module.js';

/** Fail fast rather than queue: a request during an outage gets a 503 within this time. */
export const SERVER_SELECTION_TIMEOUT_MS = 2000;

/**
 * The catalog: categories, products, orders, ObjectId tools and a health check
 * on one MongoDB connection, with every part of nestjs-objectid wired in:
 * the ObjectId pipes and validators, the serializer, `SequenceService`, the
 * time helpers and the Swagger helpers.
 */
@Module({})
export class AppModule {
  static forRoot(options: CatalogAppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        MongooseModule.forRoot(options.mongoUri, {
          dbName: options.dbName ?? mongoUrlDatabase(options.mongoUri) ?? 'catalog',
          serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
          // Without a connection mongoose would queue commands for 10 s; fail (503) at once instead.
          bufferCommands: false,
          // One more attempt at startup, then a clear error rather than minutes of retries.
          retryAttempts: 1,
          retryDelay: 500,
          ...options.mongoose,
        }),
        // The options the app was created with, for any module that reads them (orders: their numbering).
        CatalogOptionsModule.forRoot(options),
        ObjectIdModule.forRoot({ isGlobal: true }),
        // ObjectIdSerializerInterceptor for every route: mappers return ObjectIds, clients get lowercase hex.
        ObjectIdSerializerModule,
        // One SequenceService for the whole app (the module is global).
        SequenceModule.forRoot({
          clock: options.clock,
          definitions: { [ORDER_SEQUENCE]: { format: 'ORD-{YYYY}-{seq:6}', resetEvery: 'year' } },
        }),
        CategoriesModule,
        ProductsModule,
        OrdersModule,
        ObjectIdsModule,
        HealthModule,
        // GraphQL at /graphql: products by id and by slug, createOrder.
        CatalogGraphqlModule,
      ],
      providers: [
        DatabaseLifecycle,
        // First, before validation: a bound on the body's depth, list lengths and size (400/413).
        { provide: APP_PIPE, useValue: new BodyShapePipe() },
        // Unknown keys (`$where`, `price.$gt`) are refused, not stripped: the client learns of its mistake.
        // (Prototype keys such as `__proto__` and `constructor` are removed by the pipe before that check.)
        // Named query and path parameters reach their own strict pipes as sent: `?limit=0x10` stays text.
        {
          provide: APP_PIPE,
          useValue: new RawParamsValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }),
        },
        // Nest asks global filters last-registered first: the specific database filter must come last.
        { provide: APP_FILTER, useClass: HttpErrorShapeFilter },
        { provide: APP_FILTER, useClass: DatabaseUnavailableFilter },
        { provide: APP_INTERCEPTOR, useClass: DatabaseUnavailableInterceptor },
      ],
    };
  }
}
