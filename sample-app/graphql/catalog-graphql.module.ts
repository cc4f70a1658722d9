import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { formatObjectIdError } from 'nestjs-objectid/graphql';
import { OrdersModule } from '../orders/orders.module.js';
import { ProductsModule } from '../products/products.module.js';

import { OrdersResolver } from './orders.resolver.js';
import { ProductsResolver } from './products.resolver.js';

/** Path of the GraphQL endpoint. */
export const GRAPHQL_PATH = '/graphql';

/**
 * A GraphQL endpoint at `/graphql` beside the REST routes, code first: the
 * schema is built from the models' decorators and kept in memory
 * (`autoSchemaFile: true`), with ids as the library's `ObjectId` scalar.
 * Apollo Server on Express, or on Fastify through `@as-integrations/fastify`.
 */
@Module({
  imports: [
    GraphQLModule.forRoot<ApolloDriverConfig>({
      driver: ApolloDriver,
      path: GRAPHQL_PATH,
      autoSchemaFile: true,
      // GraphiQL loads its scripts from a CDN, which the app's Content-Security-Policy blocks.
      graphiql: false,
      // An invalid id written in the query is BAD_USER_INPUT, as one in a variable is.
      formatError: formatObjectIdError,
    }),
    ProductsModule,
    OrdersModule,
  ],
  providers: [ProductsResolver, OrdersResolver],
})
export class CatalogGraphqlModule {}
