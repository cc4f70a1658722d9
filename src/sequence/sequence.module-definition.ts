import { ConfigurableModuleBuilder } from '@nestjs/common';
import { SEQUENCE_MODULE_OPTIONS } from '../object-id.constants.js';
import type { SequenceModuleOptions } from './sequence-options.interface.js';

export const {
  ConfigurableModuleClass: SequenceConfigurableModuleClass,
  // Type carriers only (undefined at run time); see the aliases below.
  OPTIONS_TYPE: SEQUENCE_MODULE_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: SEQUENCE_MODULE_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<SequenceModuleOptions>({
  moduleName: 'Sequence',
  optionsInjectionToken: SEQUENCE_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/** Argument of `SequenceModule.forRoot()`: the options of `SequenceService`. */
export type SequenceModuleForRootOptions = typeof SEQUENCE_MODULE_OPTIONS_TYPE;
/** Argument of `SequenceModule.forRootAsync()`: `useFactory`/`useClass`/`useExisting`, `inject`, `imports`. */
export type SequenceModuleAsyncOptions = typeof SEQUENCE_MODULE_ASYNC_OPTIONS_TYPE;
