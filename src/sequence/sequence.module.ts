import { type DynamicModule, Global, Module } from '@nestjs/common';
import { SEQUENCE_MODULE_OPTIONS } from '../object-id.constants.js';
import { SequenceConfigurableModuleClass, type SequenceModuleForRootOptions } from './sequence.module-definition.js';
import { SequenceService } from './sequence.service.js';

/**
 * Provides `SequenceService` on the app's mongoose connection (or
 * `connectionName`), once for the whole app:
 * `SequenceModule.forRoot({ definitions: { orders: { format: 'ORD-{YYYY}-{seq:6}' } } })`,
 * or `forRootAsync({ useFactory, inject })` for options from configuration.
 * Imported bare (`imports: [SequenceModule]`) it uses the defaults. Global,
 * like `MongooseModule`: every feature module injects the same service (one
 * set of definitions, one cache of reserved numbers) without importing it.
 * To keep the counters elsewhere, provide a `SequenceCounterStore` under
 * `SEQUENCE_COUNTER_STORE` from a global module (or through `forRootAsync({ imports })`).
 */
@Global()
@Module({
  // Defaults for a bare `imports: [SequenceModule]`; forRoot()'s own options provider replaces it.
  providers: [{ provide: SEQUENCE_MODULE_OPTIONS, useValue: {} }, SequenceService],
  exports: [SequenceService],
})
export class SequenceModule extends SequenceConfigurableModuleClass {
  /** Registers the module with `options` (all optional). */
  static override forRoot(options: SequenceModuleForRootOptions = {}): DynamicModule {
    return super.forRoot(options);
  }
}
