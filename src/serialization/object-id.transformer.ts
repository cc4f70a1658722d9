import type { ClassSerializerInterceptorOptions } from '@nestjs/common';
import {
  defaultClassTransformer,
  serializeWith,
  type ClassTransformerLike,
  type SerializeObjectIdsOptions,
} from './serialize-object-ids.js';
import { walk } from './object-id-walker.js';

type Constructor<T> = new (...args: never[]) => T;
/** Nest's `TransformerPackage` interface (not exported from `@nestjs/common`'s root). */
type TransformerPackage = NonNullable<ClassSerializerInterceptorOptions['transformerPackage']>;

/**
 * A `transformerPackage` for Nest's `ClassSerializerInterceptor` (Nest 12
 * calls `classToPlain` and `plainToInstance`) that serializes every ObjectId
 * as its hex string. `plainToClass` is the same function, for code written
 * against older Nest versions.
 */
export interface ObjectIdTransformerPackage extends TransformerPackage {
  classToPlain(
    object: unknown,
    options?: SerializeObjectIdsOptions,
  ): Record<string, unknown> | Record<string, unknown>[];
  plainToInstance<T>(cls: Constructor<T>, plain: unknown, options?: SerializeObjectIdsOptions): T | T[];
  plainToClass<T>(cls: Constructor<T>, plain: unknown, options?: SerializeObjectIdsOptions): T | T[];
}

/**
 * Builds an {@link ObjectIdTransformerPackage} that hands class instances to
 * `delegate` (class-transformer by default; e.g. a fork with the same API)
 * after ObjectIds, mongoose documents and other BSON values are converted, so
 * that the delegate never sees an ObjectId (class-transformer rebuilds one
 * with `new ObjectId()`, i.e. a different random id, or copies its `i0`…`i3`
 * fields: typestack/class-transformer#494, #991, #1023, #1050).
 */
export function createObjectIdTransformer(
  delegate: ClassTransformerLike = defaultClassTransformer,
): ObjectIdTransformerPackage {
  const plainToInstance = <T>(cls: Constructor<T>, plain: unknown, options: SerializeObjectIdsOptions = {}): T | T[] =>
    delegate.plainToInstance(cls, walk(plain, options).value, options) as T | T[];
  return {
    classToPlain: (object, options = {}) => serializeWith(delegate, object, options) as Record<string, unknown>,
    plainToInstance,
    plainToClass: plainToInstance,
  };
}

/**
 * The ObjectId-aware transformer for Nest's own interceptor:
 *
 * ```ts
 * new ClassSerializerInterceptor(app.get(Reflector), { transformerPackage: objectIdTransformer })
 * ```
 *
 * Prefer `ObjectIdSerializerInterceptor`: Nest keeps the package of the
 * interceptor created last in a module-level variable shared by all
 * `ClassSerializerInterceptor` instances, so two of them with different
 * packages use the same one.
 */
export const objectIdTransformer: ObjectIdTransformerPackage = createObjectIdTransformer();
