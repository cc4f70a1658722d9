import type { ErrorHttpStatusCode } from '@nestjs/common/utils/http-error-by-code.util.js';
import type { ObjectIdParseError } from '../core/index.js';

/**
 * Builds the exception a pipe throws. It receives the full message
 * (`Validation failed (ObjectId is expected): …`), like the factories of Nest's
 * own `Parse*Pipe`s, and the structured error as a second argument.
 */
export type ObjectIdExceptionFactory = (message: string, error: ObjectIdParseError) => unknown;

/** Options every ObjectId pipe shares; `ObjectIdModule.forRoot()` sets their defaults. */
export interface ObjectIdPipeOptions {
  /**
   * HTTP status of the error thrown for an invalid id.
   * @default 400
   */
  errorHttpStatusCode?: ErrorHttpStatusCode;
  /** Replaces the default `HttpException` with an error of your own. */
  exceptionFactory?: ObjectIdExceptionFactory;
  /**
   * A missing value (`undefined`, `null` or `''`) passes as `undefined`
   * instead of failing.
   * @default false
   */
  optional?: boolean;
  /**
   * Accept ObjectId instances (from any bson copy) as well as strings, e.g. for
   * values that a previous pipe or a guard already converted.
   * @default true
   */
  allowInstance?: boolean;
  /**
   * Accept the nil ObjectId `000000000000000000000000`. It is a valid id, so
   * the default keeps accepting it (as before this option existed); set `false`
   * where it can only be a placeholder or a bug, such as a route parameter or a
   * reference, to answer 400 "received the nil ObjectId …".
   * @default true
   */
  allowNil?: boolean;
  /**
   * Also accept MongoDB extended JSON `{"$oid": "<24 hex>"}`, as mongoexport,
   * Compass and EJSON clients send it in bodies: a plain object with `$oid` as
   * its only key and 24 hex characters as its value; anything else stays a 400.
   * @default false
   */
  allowExtendedJson?: boolean;
}

/** The pipe options that `ObjectIdModule.forRoot()` sets for every pipe it provides. */
export type ObjectIdPipeDefaults = Pick<ObjectIdPipeOptions, 'errorHttpStatusCode' | 'exceptionFactory' | 'allowNil'>;
