import { type DynamicModule, Module } from '@nestjs/common';
import { OBJECT_ID_MODULE_OPTIONS } from './object-id.constants.js';
import { ObjectIdConfigurableModuleClass, type ObjectIdModuleForRootOptions } from './object-id.module-definition.js';
import { ParseObjectIdArrayPipe, ParseObjectIdPipe } from './pipes/index.js';

/**
 * Shared defaults for the ObjectId pipes: `imports: [ObjectIdModule]`,
 * `ObjectIdModule.forRoot({ isGlobal: true, errorHttpStatusCode: 422 })`, or
 * `forRootAsync({ useFactory, inject })` for options from configuration.
 * The pipes also work without it. The serializer and `SequenceService` have
 * modules of their own (`nestjs-objectid/serialization`, `nestjs-objectid/sequence`),
 * so an app that only validates ids loads neither.
 */
@Module({
  // Defaults for a bare `imports: [ObjectIdModule]`; forRoot()'s own options provider replaces it.
  providers: [{ provide: OBJECT_ID_MODULE_OPTIONS, useValue: {} }, ParseObjectIdPipe, ParseObjectIdArrayPipe],
  exports: [OBJECT_ID_MODULE_OPTIONS, ParseObjectIdPipe, ParseObjectIdArrayPipe],
})
export class ObjectIdModule extends ObjectIdConfigurableModuleClass {
  /** Registers the module with `options` (all optional). */
  static override forRoot(options: ObjectIdModuleForRootOptions = {}): DynamicModule {
    return super.forRoot(options);
  }
}
