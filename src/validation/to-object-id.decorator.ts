import { Transform } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { ObjectId, type ParseObjectIdOptions, tryParseObjectId } from '../core/index.js';

/** Options of {@link ToObjectId}. */
export interface ToObjectIdOptions {
  /**
   * Splits a string on this separator first, for query DTOs such as `?ids=a,b`.
   * @default undefined (no splitting)
   */
  split?: string;
  /**
   * Turns `''` into `undefined`, so `?owner=` counts as absent for `@IsOptional()`
   * (as Go's `ObjectID.UnmarshalText` reads an empty string as "not set").
   * @default false
   */
  emptyAsUndefined?: boolean;
  /**
   * Convert the nil ObjectId `000000000000000000000000`. `false` leaves it as it
   * came, for `@IsObjectId({ allowNil: false })` to refuse: give both decorators
   * the same setting.
   * @default true
   */
  allowNil?: boolean;
  /**
   * Also convert MongoDB extended JSON `{"$oid": "<24 hex>"}` (strictly: a plain
   * object with `$oid` as its only key); with `false` it is left as it came.
   * Give `@IsObjectId()` the same setting, so it accepts what this converts.
   * @default false
   */
  allowExtendedJson?: boolean;
}

/**
 * Converts a DTO property to `ObjectId` (or an array / Set of them) when
 * `ValidationPipe({ transform: true })` builds the DTO, so a field typed
 * `ObjectId` really holds one in the handler.
 *
 * Only valid 24-hex strings and ObjectId instances are converted; anything else
 * (objects, numbers, short strings) is left as it came so that `@IsObjectId()`
 * rejects it with a 400. `null`, `undefined` and `''` never become a random id.
 */
export function ToObjectId(options: ToObjectIdOptions = {}): PropertyDecorator {
  // With `enableImplicitConversion`, class-transformer would build the reflected
  // type (ObjectId) for an object input and copy its keys onto it: `{"id": {"id": 1}}`
  // then runs bson's `id` setter, whose BSONError escapes validation as a 500.
  // Declaring the type as Object makes that step a harmless plain copy; the
  // transform below reads the raw input anyway.
  const convert = Transform(
    ({ value, key, obj }) => {
      // Read the raw input, not `value`: with `enableImplicitConversion`
      // class-transformer has already run `new ObjectId()` on an object input
      // (a fresh random id, typestack/class-transformer#991) by the time we see it.
      const raw: unknown =
        obj !== null && typeof obj === 'object' && key in obj ? (obj as Record<string, unknown>)[key] : value;
      return toObjectIdValue(raw, options);
    },
    { toClassOnly: true },
  );
  return (target, propertyKey) => {
    declarePlainObjectType(target, propertyKey as string);
    convert(target, propertyKey);
  };
}

/**
 * What class-transformer's `@Type(() => Object)` records, without its need
 * for `reflect-metadata` at decoration time: the design type is recorded only
 * where reflect-metadata is loaded (it is in every Nest app).
 */
function declarePlainObjectType(target: object, propertyName: string): void {
  const reflect = Reflect as { getMetadata?: (key: string, target: object, property: string) => unknown };
  defaultMetadataStorage.addTypeMetadata({
    target: target.constructor,
    propertyName,
    reflectedType:
      typeof reflect.getMetadata === 'function' ? reflect.getMetadata('design:type', target, propertyName) : undefined,
    typeFunction: () => Object,
    options: {},
  });
}

/** The conversion behind {@link ToObjectId}, usable on its own. */
export function toObjectIdValue(raw: unknown, options: ToObjectIdOptions = {}): unknown {
  if (raw === '' && options.emptyAsUndefined) {
    return undefined;
  }
  const parse: ParseObjectIdOptions = { allowNil: options.allowNil, allowExtendedJson: options.allowExtendedJson };
  const convertOne = (value: unknown): unknown =>
    value instanceof ObjectId ? value : (tryParseObjectId(value, parse) ?? value);
  if (typeof raw === 'string' && options.split !== undefined) {
    return raw.split(options.split).map(convertOne);
  }
  if (Array.isArray(raw)) {
    return raw.map(convertOne);
  }
  if (raw instanceof Set) {
    return new Set([...raw].map(convertOne));
  }
  return convertOne(raw);
}
