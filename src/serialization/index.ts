export { ExposeId, type ExposeIdOptions } from './expose-id.decorator.js';
export { ObjectIdSerializationError } from './object-id-serialization.error.js';
export {
  OBJECT_ID_SERIALIZER_OPTIONS,
  ObjectIdSerializerInterceptor,
  type ObjectIdSerializerInterceptorOptions,
} from './object-id-serializer.interceptor.js';
export {
  createObjectIdSerializerProviders,
  OBJECT_ID_SERIALIZER_GLOBAL_PROVIDER,
} from './object-id-serializer.providers.js';
export {
  createObjectIdTransformer,
  objectIdTransformer,
  type ObjectIdTransformerPackage,
} from './object-id.transformer.js';
export {
  serializeObjectIds,
  type ClassTransformerLike,
  type SerializeObjectIdsOptions,
} from './serialize-object-ids.js';
