import { ConfigurableModuleBuilder } from '@nestjs/common';
import { OBJECT_ID_MODULE_OPTIONS } from './object-id.constants.js';
import type { ObjectIdModuleOptions } from './object-id-module-options.interface.js';

/** Extra, non-provider options of `ObjectIdModule.forRoot()` / `forRootAsync()`. */
export interface ObjectIdModuleExtras {
  /**
   * Registers the module globally, so feature modules need not import it.
   * @default false
   */
  isGlobal?: boolean;
}

export const {
  ConfigurableModuleClass: ObjectIdConfigurableModuleClass,
  // Type carriers only (undefined at run time); see the aliases below.
  OPTIONS_TYPE: OBJECT_ID_MODULE_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: OBJECT_ID_MODULE_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ObjectIdModuleOptions>({
  moduleName: 'ObjectId',
  optionsInjectionToken: OBJECT_ID_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras<ObjectIdModuleExtras>({ isGlobal: false }, (definition, { isGlobal }) => ({
    ...definition,
    global: isGlobal,
  }))
  .build();

/** Argument of `ObjectIdModule.forRoot()`: the module options plus `isGlobal`. */
export type ObjectIdModuleForRootOptions = typeof OBJECT_ID_MODULE_OPTIONS_TYPE;
/** Argument of `ObjectIdModule.forRootAsync()`: `useFactory`/`useClass`/`useExisting`, `inject`, `imports`, `isGlobal`. */
export type ObjectIdModuleAsyncOptions = typeof OBJECT_ID_MODULE_ASYNC_OPTIONS_TYPE;
