import { Inject, Injectable, Optional, type PipeTransform, type Type } from '@nestjs/common';
import { describeInvalidObjectId, isObjectIdHex, isParsableObjectId, tryParseObjectId } from '../core/index.js';
import { OBJECT_ID_MODULE_OPTIONS } from '../object-id.constants.js';
import { configurePipe } from './configure-pipe.js';
import { createObjectIdException } from './object-id-exception.js';
import type { ObjectIdPipeDefaults, ObjectIdPipeOptions } from './object-id-pipe-options.interface.js';
import { isMissing, pickPipeDefaults } from './parse-object-id.pipe.js';

/** Options of {@link ValidateObjectIdPipe}: the same as `ParseObjectIdPipe`'s. */
export type ValidateObjectIdPipeOptions = ObjectIdPipeOptions;

/**
 * Checks an id as strictly as `ParseObjectIdPipe` (same options, same messages)
 * but hands the handler a **string**, for handlers that pass the id on (to another
 * service, a queue, a URL) without querying with it. A string comes back as it
 * came; an ObjectId instance or, with `allowExtendedJson`, `{"$oid": …}` comes
 * back as its lowercase hex.
 *
 * Named apart from `@nestjs/mongoose`'s `IsObjectIdPipe`, which returns the
 * string too but follows the lenient `ObjectId.isValid` (12-character strings
 * and numbers pass), so the two are not mistaken for each other in imports.
 */
@Injectable()
export class ValidateObjectIdPipe implements PipeTransform<unknown, string | undefined> {
  protected readonly options: ValidateObjectIdPipeOptions;
  /** Whether any 24-hex string passes without asking `isObjectId` (see `ParseObjectIdPipe`). */
  private readonly acceptsEveryHex: boolean;

  constructor(
    @Optional() options?: ValidateObjectIdPipeOptions,
    @Optional() @Inject(OBJECT_ID_MODULE_OPTIONS) moduleOptions?: ObjectIdPipeDefaults,
  ) {
    this.options = { ...pickPipeDefaults(moduleOptions), ...options };
    this.acceptsEveryHex =
      this.isObjectId === ValidateObjectIdPipe.prototype.isObjectId && this.options.allowNil !== false;
  }

  /** Like `ParseObjectIdPipe.with()`: options baked in, module defaults injected. */
  static with(options: ValidateObjectIdPipeOptions): Type<ValidateObjectIdPipe> {
    return configurePipe(ValidateObjectIdPipe, options);
  }

  transform(value: unknown): string | undefined {
    if (isObjectIdHex(value) && (this.acceptsEveryHex || this.isObjectId(value))) {
      return value;
    }
    if (this.options.optional && isMissing(value)) {
      return undefined;
    }
    const id = this.isObjectId(value) ? tryParseObjectId(value, this.options) : undefined;
    if (id === undefined) {
      throw createObjectIdException(this.options, describeInvalidObjectId(value, this.options));
    }
    return typeof value === 'string' ? value : id.toHexString();
  }

  /** The check; override it in a subclass to narrow or widen what is accepted. */
  protected isObjectId(value: unknown): boolean {
    return isParsableObjectId(value, this.options);
  }
}
