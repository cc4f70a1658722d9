/**
 * `nestjs-objectid/sequence`: atomic, formatted, scoped counters. Loads
 * `@nestjs/mongoose` and `mongoose`, which the main entry point does not need.
 */
export type { SequenceModuleAsyncOptions, SequenceModuleForRootOptions } from './sequence.module-definition.js';
export { SequenceModule } from './sequence.module.js';
export { SequenceService } from './sequence.service.js';
export { SEQUENCE_COUNTER_STORE } from '../object-id.constants.js';
export type { SequenceCounterSnapshot, SequenceCounterStore } from './sequence-counter-store.interface.js';
export { MongoSequenceCounterStore } from './mongo-sequence-counter-store.js';
export { SequenceBlock } from './sequence-block.js';
export { sequencePlugin, type SequenceDocument, type SequencePluginOptions } from './sequence.plugin.js';
export { applySequenceFields, SequenceField, type SequenceFieldOptions } from './sequence-field.decorator.js';
export type { SequenceDateParts, SequenceFormatValues } from './sequence-format.js';
export type { SequenceModuleOptions } from './sequence-options.interface.js';
export type { SequenceDefinition } from './sequence-definition.interface.js';
export type { SequenceScopeOptions, SequenceSetOptions } from './sequence-call-options.interface.js';
export type { SequenceResetPeriod, SequenceScope, SequenceScopeValue } from './sequence-key.js';
export type { SequenceValue } from './sequence-value.js';
export { SequenceConfigError } from './sequence-config.error.js';
export { SequenceFormatError } from './sequence-format.error.js';
export { SequenceOverflowError } from './sequence-overflow.error.js';
export { SequenceBackwardsError } from './sequence-backwards.error.js';
export { SequenceUnavailableError } from './sequence-unavailable.error.js';
