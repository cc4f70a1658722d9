import { buildMessage, ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { NIL_OBJECT_ID, isParsableObjectId } from '../core/index.js';

/** Name of the class-validator constraint, as in `ValidationError.constraints`. */
export const IS_OBJECT_ID = 'isObjectId';

/** Options of {@link IsObjectId} and {@link isObjectId}. */
export interface IsObjectIdOptions {
  /**
   * Count ObjectId instances (from any bson copy) as valid, so the validator
   * accepts what `@ToObjectId()` produced and what a service built in code.
   * @default true
   */
  allowInstance?: boolean;
  /**
   * Count the nil ObjectId `000000000000000000000000` as valid. `false` refuses
   * it (string or instance) with `$property must not be the nil ObjectId …`,
   * for references that must name a real document.
   * @default true
   */
  allowNil?: boolean;
  /**
   * Also count MongoDB extended JSON `{"$oid": "<24 hex>"}` as valid (strictly:
   * a plain object with `$oid` as its only key). Pair it with
   * `@ToObjectId({ allowExtendedJson: true })`, which converts it.
   * @default false
   */
  allowExtendedJson?: boolean;
}

/**
 * Whether `value` is a 24-character hex string or (by default) an ObjectId
 * instance. Unlike class-validator's `isMongoId` it refuses `0x` + 22 hex
 * characters and accepts real ObjectIds.
 */
export function isObjectId(value: unknown, options: IsObjectIdOptions = {}): boolean {
  return isParsableObjectId(value, options);
}

/**
 * Checks that a DTO property is an ObjectId (24 hex characters or an instance).
 * Pass `{ each: true }` as validation options for arrays, sets and maps.
 * Typical use, with conversion: `@IsObjectId() @ToObjectId() customerId!: Types.ObjectId`.
 */
export function IsObjectId(options?: IsObjectIdOptions, validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: IS_OBJECT_ID,
      constraints: [options],
      validator: {
        validate: (value: unknown): boolean => isObjectId(value, options),
        defaultMessage: buildMessage(
          (eachPrefix, args) => `${eachPrefix}$property ${expectation(options, args)}`,
          validationOptions,
        ),
      },
    },
    validationOptions,
  );
}

/** What the message asks for: unchanged unless an option widened or narrowed what passes. */
function expectation(options: IsObjectIdOptions = {}, args?: ValidationArguments): string {
  if (options.allowNil === false && containsNil(args?.value, options)) {
    return `must not be the nil ObjectId ${NIL_OBJECT_ID}, expected the id of a real document`;
  }
  return options.allowExtendedJson
    ? 'must be a 24-character hex ObjectId or {"$oid": "<24 hex characters>"}'
    : 'must be a 24-character hex ObjectId';
}

/** Whether `value`, or with `each` one of its items, is the nil id in a form the options accept. */
function containsNil(value: unknown, options: IsObjectIdOptions): boolean {
  const items = Array.isArray(value)
    ? value
    : value instanceof Set || value instanceof Map
      ? [...value.values()]
      : [value];
  return items.some(
    (item) => isParsableObjectId(item, { ...options, allowNil: true }) && !isParsableObjectId(item, options),
  );
}
