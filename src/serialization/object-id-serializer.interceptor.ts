import {
  ClassSerializerInterceptor,
  Inject,
  Injectable,
  Optional,
  type CallHandler,
  type ClassSerializerContextOptions,
  type ClassSerializerInterceptorOptions,
  type ExecutionContext,
  type PlainLiteralObject,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Readable } from 'node:stream';
import { from, lastValueFrom, map, mergeMap, of, type Observable } from 'rxjs';
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
  /**
   * The merged options of each route (handler, then its controller class).
   * `@SerializeOptions()` metadata is fixed once the classes are defined, so
   * it is read once per route, not on every request.
   */
  private readonly routeOptions = new WeakMap<object, WeakMap<object, ClassSerializerContextOptions>>();

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

  /**
   * Nest's `intercept` with the route's options cached and nothing awaited:
   * Nest 12's awaits class-transformer's loading (which this interceptor does
   * not use) and merges the options on every request, which together cost
   * more than serializing a small response.
   */
  override intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const options = this.optionsOf(context);
    const isHttp = context.getType() === 'http';
    const serialized = next
      .handle()
      .pipe(
        map((response: unknown) =>
          isHttp && isStreamingBody(response)
            ? this.streamed(context, response)
            : this.serialize(response as PlainLiteralObject, options),
        ),
      );
    // A resolved Promise, as Nest 12's signature says; Nest 11 accepts it too.
    return Promise.resolve(serialized);
  }

  /**
   * A streaming body (an async iterable the router sends as lines of JSON),
   * whose items Nest's own interceptor maps as the installed Nest version
   * does. Nest 12's answers asynchronously, so the body returned here asks
   * it on the router's first read; bodies that yield only text or bytes (a
   * web `Response`, a `Readable` not in object mode) pass unchanged, as there.
   */
  private streamed(context: ExecutionContext, body: object): unknown {
    const readable = body as { readableObjectMode?: unknown; locked?: unknown };
    if (
      Object.prototype.toString.call(body) === '[object Response]' ||
      readable.readableObjectMode === false ||
      // Read already: left for the router to refuse, as Nest does.
      readable.locked === true ||
      Readable.isDisturbed(body as Readable)
    ) {
      return body;
    }
    let mapped: Promise<AsyncIterator<unknown>> | undefined;
    const open = (): Promise<AsyncIterator<unknown>> =>
      (mapped ??= lastValueFrom(
        from(Promise.resolve(super.intercept(context, { handle: () => of(body) }) as unknown)).pipe(
          mergeMap((result) => result as Observable<unknown>),
        ),
      ).then((result) => (result as AsyncIterable<unknown>)[Symbol.asyncIterator]()));
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      next: async () => (await open()).next(),
      return: async (value?: unknown) => {
        const iterator = await open();
        return iterator.return ? iterator.return(value) : { done: true, value };
      },
      throw: async (error?: unknown) => {
        const iterator = await open();
        if (iterator.throw) return iterator.throw(error);
        throw error;
      },
    };
  }

  private optionsOf(context: ExecutionContext): ClassSerializerContextOptions {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byClass = this.routeOptions.get(handler);
    if (byClass === undefined) {
      byClass = new WeakMap();
      this.routeOptions.set(handler, byClass);
    }
    let options = byClass.get(controller);
    if (options === undefined) {
      options = { ...this.defaultOptions, ...this.getContextOptions(context) } as ClassSerializerContextOptions;
      byClass.set(controller, options);
    }
    return options;
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

/**
 * What Nest's router streams instead of serializing (Nest 12's
 * `isStreamingBody`, not exported): a web `Response`, or an async iterable
 * that is not also a thenable.
 */
function isStreamingBody(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { [Symbol.asyncIterator]?: unknown; then?: unknown };
  return (
    (typeof candidate[Symbol.asyncIterator] === 'function' && typeof candidate.then !== 'function') ||
    Object.prototype.toString.call(value) === '[object Response]'
  );
}
