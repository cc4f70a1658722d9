import type { ObjectIdPipeOptions } from './pipes/object-id-pipe-options.interface.js';
import type { SequenceModuleOptions } from './sequence/sequence-options.interface.js';

/**
 * Options of {@link ObjectIdModule.forRoot}. `errorHttpStatusCode` and
 * `exceptionFactory` become the defaults of every pipe the module provides.
 */
export interface ObjectIdModuleOptions extends Pick<ObjectIdPipeOptions, 'errorHttpStatusCode' | 'exceptionFactory'> {
  /** Options of the injectable `SequenceService`. */
  sequences?: SequenceModuleOptions;
}
