import type { ErrorHttpStatusCode } from '@nestjs/common/utils/http-error-by-code.util.js';
import type { ObjectIdExceptionFactory } from './pipes/object-id-pipe-options.interface.js';
import type { SequenceModuleOptions } from './sequence/sequence-options.interface.js';

/** Options of {@link ObjectIdModule.forRoot}; they become the defaults of every pipe the module provides. */
export interface ObjectIdModuleOptions {
  /**
   * HTTP status of the error thrown for an invalid id.
   * @default 400
   */
  errorHttpStatusCode?: ErrorHttpStatusCode;
  /** Replaces the default `HttpException` of every pipe with an error of your own. */
  exceptionFactory?: ObjectIdExceptionFactory;
  /** Options of the injectable `SequenceService`. */
  sequences?: SequenceModuleOptions;
}
