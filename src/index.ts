/**
 * `nestjs-objectid`: strict ObjectId pipes, DTO decorators, time helpers and
 * keyset pagination. Needs `@nestjs/common`, `bson` (mongoose brings it) and,
 * for the decorators, `class-validator` / `class-transformer`; nothing here
 * loads mongoose, `@nestjs/mongoose` or the serializer.
 * Subpaths: `nestjs-objectid/serialization`, `nestjs-objectid/sequence`, `nestjs-objectid/swagger`,
 * `nestjs-objectid/graphql`.
 */
export {
  isDatabaseUnavailableError,
  isNilObjectId,
  NIL_OBJECT_ID,
  ObjectIdParseError,
  parseObjectId,
  tryParseObjectId,
  type ObjectIdParseErrorReason,
  type ParseObjectIdOptions,
} from './core/index.js';
export { ObjectIdModule } from './object-id.module.js';
export type { ObjectIdModuleAsyncOptions, ObjectIdModuleForRootOptions } from './object-id.module-definition.js';
export type { ObjectIdModuleOptions } from './object-id-module-options.interface.js';
export {
  KeysetPaginationError,
  keysetQuery,
  mergeIdConditions,
  parseKeysetSort,
  toKeysetPage,
  type IdCondition,
  type KeysetCursorPage,
  type KeysetPage,
  type KeysetQueryOptions,
  type KeysetSort,
} from './pagination/index.js';
export {
  ObjectIdTransportExceptionInterceptor,
  ObjectIdValidationPipe,
  ParseObjectIdArrayPipe,
  ParseObjectIdPipe,
  type ObjectIdExceptionFactory,
  type ParseObjectIdArrayPipeOptions,
  type ParseObjectIdPipeOptions,
  ValidateObjectIdPipe,
  type ValidateObjectIdPipeOptions,
} from './pipes/index.js';
export {
  dayRange,
  decodeObjectId,
  generateObjectIdAt,
  generateObjectIds,
  objectIdFromDate,
  objectIdRange,
  type DecodedObjectId,
  type ObjectIdRange,
} from './time/index.js';
export {
  IS_OBJECT_ID,
  IsObjectId,
  isObjectId,
  ToObjectId,
  type IsObjectIdOptions,
  type ToObjectIdOptions,
} from './validation/index.js';
