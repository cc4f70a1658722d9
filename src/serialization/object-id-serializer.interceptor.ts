import {
  ClassSerializerInterceptor,
  Inject,
  Injectable,
  Optional,
  type ClassSerializerContextOptions,
  type ClassSerializerInterceptorOptions,
  type PlainLiteralObject,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { OBJECT_ID_SERIALIZER_OPTIONS } from '../object-id.constants.js';
import {
  createObjectIdTransformer,
  objectIdTransformer,
  type ObjectIdTransformerPackage,
} from './object-id.transformer.js';
import type {
  ClassTransformerLike,
  ObjectIdSerializationOptions,
  SerializeObjectIdsOptions,
} from './serialize-object-ids.js';

/**
 * Options of {@link ObjectIdSerializerInterceptor}: Nest's
 * `ClassSerializerInterceptorOptions` plus the ObjectId options. A given
 * `transformerPackage` receives class instances after ObjectIds are converted.
 */
export interface ObjectIdSerializerInterceptorOptions
  extends ClassSerializerInterceptorOptions, ObjectIdSerializationOptions {}

/**
 * Nest's `ClassSerializerInterceptor` with every ObjectId serialized as its
 * 24-character lowercase hex string (nestjs/nest#10402, #3807, #4225;
 * nestjs/mongoose#1663): plain objects, lean results, hydrated mongoose
 * documents, class instances (with `@Exclude`/`@Expose`/`@Transform`/`@Type`
 * and `@SerializeOptions` as before), arrays, Maps and Sets.
 *
 * ```ts
 * imports: [ObjectIdSerializerModule.forRoot({ exposeId: true })] // the whole app
 * // or
 * @UseInterceptors(ObjectIdSerializerInterceptor) // one controller or route
 * ```
 *
 * Streams, `StreamableFile` and non-objects pass through as with Nest's interceptor.
 */
@Injectable()
export class ObjectIdSerializerInterceptor extends ClassSerializerInterceptor {
  /**
   * Nest's interceptor reads its package from a module-level variable that
   * the last-created `ClassSerializerInterceptor` sets; this one keeps its own
   * so that another interceptor in the app cannot swap it.
   */
  private readonly transformer: ObjectIdTransformerPackage;

  constructor(
    reflector: Reflector,
    @Optional() @Inject(OBJECT_ID_SERIALIZER_OPTIONS) defaultOptions: ObjectIdSerializerInterceptorOptions = {},
  ) {
    const { transformerPackage, ...options } = defaultOptions;
    // No `transformerPackage` to the parent: it would become the package of
    // every other ClassSerializerInterceptor in the process as well.
    super(reflector, options);
    this.transformer =
      transformerPackage === undefined
        ? objectIdTransformer
        : createObjectIdTransformer(transformerPackage as ClassTransformerLike);
  }

  /** Same contract as Nest's, with the ObjectId-aware transformer. */
  override transformToPlain(plainOrClass: unknown, options: ClassSerializerContextOptions): PlainLiteralObject {
    if (!plainOrClass) {
      return plainOrClass as PlainLiteralObject;
    }
    // Nest's and class-transformer's copies of `ClassTransformOptions` differ only in `targetMaps` typing.
    const transformOptions = options as SerializeObjectIdsOptions;
    if (!options.type || plainOrClass instanceof options.type) {
      return this.transformer.classToPlain(plainOrClass, transformOptions);
    }
    const instance = this.transformer.plainToInstance(options.type, plainOrClass, transformOptions);
    return this.transformer.classToPlain(instance, transformOptions);
  }
}
