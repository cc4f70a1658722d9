/**
 * `nestjs-objectid/swagger`: OpenAPI documentation of ObjectId parameters and
 * properties for `@nestjs/swagger` (an optional peer dependency that only this
 * entry point imports).
 */
export {
  ApiObjectIdParam,
  ApiObjectIdProperty,
  ApiObjectIdQuery,
  type ApiObjectIdParamOptions,
  type ApiObjectIdPropertyOptions,
  type ApiObjectIdQueryOptions,
} from './api-object-id.decorators.js';
export { OBJECT_ID_EXAMPLE, OBJECT_ID_PATTERN, OBJECT_ID_SCHEMA, objectIdSchema } from './object-id.schema.js';
