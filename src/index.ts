export { isObjectIdLike, type ObjectIdLike } from './core/object-id-like.js';
export { ObjectIdParseError, type ObjectIdParseErrorReason } from './core/object-id-parse.error.js';
export {
  describeInvalidObjectId,
  explainInvalidObjectId,
  isObjectIdHex,
  parseObjectId,
  previewString,
  tryParseObjectId,
  type ObjectIdProblem,
  type ParseObjectIdOptions,
} from './core/parse-object-id.js';
export { ObjectIdModule } from './object-id.module.js';
export {
  OBJECT_ID_MODULE_OPTIONS,
  type ObjectIdModuleAsyncOptions,
  type ObjectIdModuleExtras,
  type ObjectIdModuleForRootOptions,
  type ObjectIdSerializerModuleOptions,
} from './object-id.module-definition.js';
export type { ObjectIdModuleOptions } from './object-id-module-options.interface.js';
export { createObjectIdException, OBJECT_ID_EXPECTED } from './pipes/object-id-exception.js';
export type { ObjectIdExceptionFactory, ObjectIdPipeOptions } from './pipes/object-id-pipe-options.interface.js';
export { isObjectIdClass, ObjectIdValidationPipe } from './pipes/object-id-validation.pipe.js';
export { ParseObjectIdArrayPipe, type ParseObjectIdArrayPipeOptions } from './pipes/parse-object-id-array.pipe.js';
export { ParseObjectIdPipe, type ParseObjectIdPipeOptions } from './pipes/parse-object-id.pipe.js';
export {
  dayBounds,
  dayRange,
  decodeObjectId,
  generateObjectIds,
  MAX_GENERATED_OBJECT_IDS,
  MAX_OBJECT_ID_SECONDS,
  objectIdFromDate,
  objectIdRange,
  type DecodedObjectId,
  type ObjectIdRange,
} from './time/object-id-time.js';
export { IS_OBJECT_ID, IsObjectId, isObjectId, type IsObjectIdOptions } from './validation/is-object-id.decorator.js';
export { ToObjectId, toObjectIdValue, type ToObjectIdOptions } from './validation/to-object-id.decorator.js';
export {
  keysetQuery,
  MAX_KEYSET_LIMIT,
  toKeysetPage,
  type KeysetPage,
  type KeysetQuery,
  type KeysetQueryOptions,
} from './pagination/keyset-pagination.js';
export { mergeIdConditions, type IdCondition } from './pagination/merge-id-conditions.js';
export {
  createObjectIdSerializerProviders,
  createObjectIdTransformer,
  ExposeId,
  OBJECT_ID_SERIALIZER_GLOBAL_PROVIDER,
  OBJECT_ID_SERIALIZER_OPTIONS,
  ObjectIdSerializationError,
  ObjectIdSerializerInterceptor,
  objectIdTransformer,
  serializeObjectIds,
  type ClassTransformerLike,
  type ExposeIdOptions,
  type ObjectIdSerializerInterceptorOptions,
  type ObjectIdTransformerPackage,
  type SerializeObjectIdsOptions,
} from './serialization/index.js';
export * from './sequence/index.js';
