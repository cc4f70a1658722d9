import { Inject, Injectable, Optional, type Type } from '@nestjs/common';
import { OBJECT_ID_MODULE_OPTIONS } from '../object-id.constants.js';
import type { ObjectIdPipeDefaults } from './object-id-pipe-options.interface.js';

/** The constructor shape every ObjectId pipe has: its own options, then the injected module options. */
type ObjectIdPipeClass<O, P> = new (options?: O, moduleOptions?: ObjectIdPipeDefaults) => P;

/**
 * A subclass of `Base` with `options` baked in that Nest can still construct,
 * so the module's defaults are injected (behind the pipes' static `with()`).
 */
export function configurePipe<O extends object, P>(Base: ObjectIdPipeClass<O, P>, options: O): Type<P> {
  @Injectable()
  class ConfiguredPipe extends (Base as ObjectIdPipeClass<O, object>) {
    // Same parameters as the parent: Nest merges inherited injection metadata
    // by index, so a different arity would misplace the module options.
    constructor(
      @Optional() overrides?: O,
      @Optional() @Inject(OBJECT_ID_MODULE_OPTIONS) moduleOptions?: ObjectIdPipeDefaults,
    ) {
      super({ ...options, ...overrides }, moduleOptions);
    }
  }
  Object.defineProperty(ConfiguredPipe, 'name', { value: `Configured${Base.name}` });
  return ConfiguredPipe as unknown as Type<P>;
}
