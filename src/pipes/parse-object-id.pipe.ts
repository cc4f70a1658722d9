import { Inject, Injectable, Optional, type PipeTransform, type Type } from '@nestjs/common';
import {
  ObjectId,
  describeInvalidObjectId,
  isObjectIdHex,
  isParsableObjectId,
  tryParseObjectId,
} from '../core/index.js';
import { OBJECT_ID_MODULE_OPTIONS } from '../object-id.constants.js';
import { configurePipe } from './configure-pipe.js';
import { createObjectIdException } from './object-id-exception.js';
import type { ObjectIdPipeDefaults, ObjectIdPipeOptions } from './object-id-pipe-options.interface.js';

/** Options of {@link ParseObjectIdPipe}. */
export type ParseObjectIdPipeOptions = ObjectIdPipeOptions;

/**
 * Turns a route, query or body value into a `ObjectId`, or answers 400
 * with a message that says what was wrong. Strict: exactly 24 hex characters,
 * nothing else (see `isObjectIdHex`); `allowNil: false` also refuses the nil id
 * and `allowExtendedJson` also takes `{"$oid": "<24 hex>"}`.
 *
 * Use it by class, `findOne(@Param('id', ParseObjectIdPipe) id: ObjectId)`,
 * or with options, `@Query('owner', new ParseObjectIdPipe({ optional: true }))`.
 */
@Injectable()
export class ParseObjectIdPipe implements PipeTransform<unknown, ObjectId | undefined> {
  protected readonly options: ParseObjectIdPipeOptions;
  /**
   * Whether every 24-hex string passes without asking `isObjectId`: no subclass
   * replaced the check and the nil id is allowed. Read once per request, so the
   * options cost the common path one boolean.
   */
  private readonly acceptsEveryHex: boolean;

  constructor(
    @Optional() options?: ParseObjectIdPipeOptions,
    // Injected when the pipe is used by class (`@Param('id', ParseObjectIdPipe)`)
    // in a module that imports ObjectIdModule: its options are the defaults.
    @Optional() @Inject(OBJECT_ID_MODULE_OPTIONS) moduleOptions?: ObjectIdPipeDefaults,
  ) {
    this.options = { ...pickPipeDefaults(moduleOptions), ...options };
    this.acceptsEveryHex =
      this.isObjectId === ParseObjectIdPipe.prototype.isObjectId && this.options.allowNil !== false;
  }

  /**
   * A pipe class with these options baked in that still receives the module's
   * defaults through injection, for `@Param('id', ParseObjectIdPipe.with({ optional: true }))`.
   * (`new ParseObjectIdPipe(options)` works too, but sees no module defaults.)
   */
  static with(options: ParseObjectIdPipeOptions): Type<ParseObjectIdPipe> {
    return configurePipe(ParseObjectIdPipe, options);
  }

  transform(value: unknown): ObjectId | undefined {
    // The common case first, with a single check, so the strict pipe costs no
    // more than @nestjs/mongoose's lenient one (see bench/pipe.bench.ts).
    if (this.acceptsEveryHex) {
      if (typeof value === 'string' && value.length === 24) {
        // bson's constructor checks that the 24 characters are hex (and throws
        // otherwise), so checking them here first would do that work twice.
        // Its error is dropped: built without stack frames, it costs little.
        const stackTraceLimit = Error.stackTraceLimit;
        Error.stackTraceLimit = 0;
        try {
          return new ObjectId(value);
        } catch {
          // Not hex: refused and explained below.
        } finally {
          Error.stackTraceLimit = stackTraceLimit;
        }
      }
    } else if (isObjectIdHex(value) && this.isObjectId(value)) {
      return new ObjectId(value);
    }
    if (this.options.optional && isMissing(value)) {
      return undefined;
    }
    const id = this.isObjectId(value) ? tryParseObjectId(value, this.options) : undefined;
    if (id === undefined) {
      throw createObjectIdException(this.options, describeInvalidObjectId(value, this.options));
    }
    return id;
  }

  /** The check; override it in a subclass to narrow or widen what is accepted. */
  protected isObjectId(value: unknown): boolean {
    return isParsableObjectId(value, this.options);
  }
}

/** `undefined`, `null` and `''` count as "no value" for `optional`. */
export function isMissing(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

/** The part of the module options that are pipe defaults. */
export function pickPipeDefaults(moduleOptions?: ObjectIdPipeDefaults): ObjectIdPipeOptions {
  if (!moduleOptions) return {};
  const { errorHttpStatusCode, exceptionFactory, allowNil } = moduleOptions;
  return {
    ...(errorHttpStatusCode !== undefined && { errorHttpStatusCode }),
    ...(exceptionFactory !== undefined && { exceptionFactory }),
    ...(allowNil !== undefined && { allowNil }),
  };
}
