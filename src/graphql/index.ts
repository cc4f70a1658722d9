/**
 * `nestjs-objectid/graphql`: the `ObjectId` scalar for GraphQL (code-first and
 * schema-first @nestjs/graphql, or any graphql-js server). Only this entry
 * point imports `graphql`, an optional peer dependency.
 */
export { formatObjectIdError } from './format-object-id-error.js';
export { ObjectIdScalar } from './object-id.scalar.js';
