import { Exclude, Expose } from 'class-transformer';

/** Options of {@link ExposeId}. */
export interface ExposeIdOptions {
  /**
   * Name of the property the hex id is written to.
   * @default 'id'
   */
  as?: string;
  /**
   * Keep the source property (`_id`) next to the new one.
   * @default false
   */
  keepUnderscoreId?: boolean;
}

/** What {@link ExposeId} recorded for a class. */
export interface ExposeIdMetadata {
  /** The property holding the id, `_id` for the class form. */
  readonly source: string;
  readonly as: string;
  readonly keepUnderscoreId: boolean;
}

const metadataByClass = new WeakMap<object, ExposeIdMetadata>();
const lookupCache = new WeakMap<object, ExposeIdMetadata | null>();

/**
 * Serializes the entity's `_id` as `id` (24-character hex) and, by default,
 * drops `_id`: the usual REST shape without writing `@Transform`. One line,
 * on the class or on the id property:
 *
 * ```ts
 * @ExposeId()
 * class UserEntity { _id!: Types.ObjectId; name!: string; }
 *
 * class PostEntity { @ExposeId({ keepUnderscoreId: true }) _id!: Types.ObjectId; }
 * ```
 *
 * Applies when `ObjectIdSerializerInterceptor`, `objectIdTransformer` or
 * `serializeObjectIds` serializes an instance of the class (subclasses
 * included). For lean results and plain objects, which have no class, use the
 * option `exposeId: true` of the interceptor or of `serializeObjectIds`.
 * The new property is registered with class-transformer as `@Expose()`, so it
 * survives `excludeExtraneousValues` and `strategy: 'excludeAll'`; the dropped
 * `_id` is registered as `@Exclude({ toPlainOnly: true })`.
 */
export function ExposeId(options: ExposeIdOptions = {}): ClassDecorator & PropertyDecorator {
  return (target: object, propertyKey?: string | symbol): void => {
    if (typeof propertyKey === 'symbol') {
      throw new TypeError('@ExposeId() cannot decorate a symbol-keyed property: put it on the class or on `_id`.');
    }
    const ctor = (propertyKey === undefined ? target : target.constructor) as { prototype: object };
    const metadata: ExposeIdMetadata = {
      source: propertyKey ?? '_id',
      as: options.as ?? 'id',
      keepUnderscoreId: options.keepUnderscoreId ?? false,
    };
    if (metadata.as === metadata.source) {
      throw new TypeError(
        `@ExposeId({ as: '${metadata.as}' }) would write the id onto itself: choose another name such as 'id'.`,
      );
    }
    metadataByClass.set(ctor, metadata);
    Expose({ toPlainOnly: true })(ctor.prototype, metadata.as);
    if (!metadata.keepUnderscoreId) {
      Exclude({ toPlainOnly: true })(ctor.prototype, metadata.source);
    }
  };
}

/** The {@link ExposeId} settings of `ctor` or its nearest decorated ancestor. */
export function getExposeIdMetadata(ctor: object): ExposeIdMetadata | undefined {
  let found = lookupCache.get(ctor);
  if (found === undefined) {
    found = null;
    for (let current: object | null = ctor; current !== null; current = Object.getPrototypeOf(current) as object) {
      const own = metadataByClass.get(current);
      if (own !== undefined) {
        found = own;
        break;
      }
    }
    lookupCache.set(ctor, found);
  }
  return found ?? undefined;
}
