import { plainToInstance, type ClassTransformOptions } from 'class-transformer';
import { chunkedInstanceToPlain } from './chunked-instance-to-plain.js';
import type { ExposeIdOptions } from './expose-id.decorator.js';
import { walk } from './object-id-walker.js';

/** The ObjectId-specific options, shared by the function, the transformer and the interceptor. */
export interface ObjectIdSerializationOptions {
  /**
   * Keep mongoose's version key (`__v`) in hydrated documents.
   * @default false
   */
  versionKey?: boolean;
  /**
   * Write every `_id` of plain objects, lean results and documents as `id`
   * (and drop `_id`, unless `keepUnderscoreId`). For classes prefer the
   * `@ExposeId()` decorator, which also works with `excludeExtraneousValues`.
   * @default false
   */
  exposeId?: boolean | ExposeIdOptions;
}

/**
 * Options of {@link serializeObjectIds} and `objectIdTransformer`. The
 * class-transformer options apply to class instances exactly as with Nest's
 * `ClassSerializerInterceptor`.
 */
export interface SerializeObjectIdsOptions extends ClassTransformOptions, ObjectIdSerializationOptions {}

/** The two functions of class-transformer the serializer hands class instances to. */
export interface ClassTransformerLike {
  classToPlain(object: unknown, options?: ClassTransformOptions): unknown;
  plainToInstance(cls: new (...args: never[]) => unknown, plain: unknown, options?: ClassTransformOptions): unknown;
}

/** class-transformer itself; its `instanceToPlain` run in chunks, so that depth cannot overflow the stack. */
export const defaultClassTransformer: ClassTransformerLike = {
  classToPlain: (object, options) => chunkedInstanceToPlain(object, options),
  plainToInstance: (cls, plain, options) => plainToInstance(cls, plain, options),
};

/**
 * Whether class-transformer changes plain objects under `options` (it drops
 * every key of a class-less object under `excludeAll`, and prefixed keys).
 */
function optionsAffectPlainObjects(options: ClassTransformOptions): boolean {
  return (
    options.strategy === 'excludeAll' || (options.excludePrefixes !== undefined && options.excludePrefixes.length > 0)
  );
}

/** `serializeObjectIds` with a chosen class-transformer. */
export function serializeWith(
  delegate: ClassTransformerLike,
  value: unknown,
  options: SerializeObjectIdsOptions,
): unknown {
  const walked = walk(value, options);
  if (
    walked.hasClassInstances ||
    (optionsAffectPlainObjects(options) && walked.value !== null && typeof walked.value === 'object')
  ) {
    return delegate.classToPlain(walked.value, options);
  }
  return walked.value;
}

/**
 * Turns `value` into JSON-ready data in which every ObjectId (from any bson
 * copy) is its 24-character lowercase hex string, like the Go driver's
 * marshalling. Usable outside Nest: in a stream, a custom interceptor, a
 * message producer.
 *
 * - plain objects, arrays, lean results: copied, ids converted; class-transformer is not called;
 * - hydrated mongoose documents: read as `toJSON()` would give them (schema
 *   virtuals and transforms apply), without `$__`/`_doc` and, unless
 *   `versionKey: true`, without `__v`;
 * - class instances: class-transformer's `instanceToPlain` with `options`
 *   (`@Exclude`, `@Expose`, `@Transform`, `@Type`, groups); inside them the
 *   ids are already hex strings, also for `@Transform` functions and getters;
 * - `Map` → object, `Set` → array, `Date` kept (JSON gives ISO 8601),
 *   Decimal128 → string, Long and bigint → number when safe else string,
 *   Buffer/Binary → base64 (UUID subtype → dashed UUID);
 * - a value that contains itself throws `ObjectIdSerializationError` naming
 *   the path, unless `enableCircularCheck: true` (then it is left out).
 *   Depth is not limited by the call stack: the walk is iterative and
 *   class-transformer runs in chunks (see `chunkedInstanceToPlain`), up to
 *   100,000 levels through class-transformer. A `transformerPackage` given
 *   to the interceptor is called as it is, with its own limit.
 *
 * @example
 * res.write(JSON.stringify(serializeObjectIds(await Model.find().lean(), { exposeId: true })));
 */
export function serializeObjectIds(value: unknown, options: SerializeObjectIdsOptions = {}): unknown {
  return serializeWith(defaultClassTransformer, value, options);
}
