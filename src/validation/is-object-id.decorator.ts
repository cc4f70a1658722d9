import { buildMessage, ValidateBy, type ValidationOptions } from 'class-validator';
import { isObjectIdLike, isObjectIdHex } from '../core/index.js';

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
}

/**
 * Whether `value` is a 24-character hex string or (by default) an ObjectId
 * instance. Unlike class-validator's `isMongoId` it refuses `0x` + 22 hex
 * characters and accepts real ObjectIds.
 */
export function isObjectId(value: unknown, options: IsObjectIdOptions = {}): boolean {
  return isObjectIdHex(value) || (options.allowInstance !== false && isObjectIdLike(value));
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
          (eachPrefix) => `${eachPrefix}$property must be a 24-character hex ObjectId`,
          validationOptions,
        ),
      },
    },
    validationOptions,
  );
}
