/**
 * `nestjs-objectid/serialization`: every ObjectId in a response as its 24-hex
 * string. Loads `@nestjs/core` and `class-transformer`, nothing of mongoose.
 */
export { ExposeId, type ExposeIdOptions } from './expose-id.decorator.js';
export { ObjectIdSerializationError } from './object-id-serialization.error.js';
export {
  ObjectIdSerializerInterceptor,
  type ObjectIdSerializerInterceptorOptions,
} from './object-id-serializer.interceptor.js';
export type { ObjectIdSerializerModuleAsyncOptions } from './object-id-serializer.module-definition.js';
export { ObjectIdSerializerModule } from './object-id-serializer.module.js';
export { objectIdTransformer, type ObjectIdTransformerPackage } from './object-id.transformer.js';
export { serializeObjectIds, type SerializeObjectIdsOptions } from './serialize-object-ids.js';
export { OBJECT_ID_SERIALIZER_OPTIONS } from '../object-id.constants.js';
