import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { ObjectIdModuleOptions } from './object-id-module-options.interface.js';
import type { ObjectIdSerializerInterceptorOptions } from './serialization/object-id-serializer.interceptor.js';
import { createObjectIdSerializerProviders } from './serialization/object-id-serializer.providers.js';

/** `ObjectIdModule.forRoot({ serializer })`: hex serialization of every ObjectId in responses. */
export interface ObjectIdSerializerModuleOptions extends ObjectIdSerializerInterceptorOptions {
  /**
   * Registers `ObjectIdSerializerInterceptor` for the whole application (`APP_INTERCEPTOR`).
   * Without it, the options still apply where you use
   * `@UseInterceptors(ObjectIdSerializerInterceptor)` in modules that import this one.
   * @default false
   */
  global?: boolean;
}

/** Extra, non-provider options of `ObjectIdModule.forRoot()` / `forRootAsync()`. */
export interface ObjectIdModuleExtras {
  /**
   * Registers the module globally, so feature modules need not import it.
   * @default false
   */
  isGlobal?: boolean;
  /**
   * Hex serialization of ObjectIds in responses. An extra rather than an
   * option so that `forRootAsync()` can register the global interceptor too:
   * providers are fixed before an async factory runs.
   */
  serializer?: ObjectIdSerializerModuleOptions;
}

export const {
  ConfigurableModuleClass: ObjectIdConfigurableModuleClass,
  MODULE_OPTIONS_TOKEN: OBJECT_ID_MODULE_OPTIONS,
  // Type carriers only (undefined at run time); see the aliases below.
  OPTIONS_TYPE: OBJECT_ID_MODULE_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: OBJECT_ID_MODULE_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ObjectIdModuleOptions>({ moduleName: 'ObjectId' })
  .setClassMethodName('forRoot')
  .setExtras<ObjectIdModuleExtras>({ isGlobal: false }, (definition, { isGlobal, serializer }) => {
    if (!serializer) {
      return { ...definition, global: isGlobal };
    }
    const { global: registerGlobally, ...interceptorOptions } = serializer;
    const [optionsProvider, globalInterceptor] = createObjectIdSerializerProviders(interceptorOptions);
    return {
      ...definition,
      global: isGlobal,
      providers: [...(definition.providers ?? []), optionsProvider, ...(registerGlobally ? [globalInterceptor] : [])],
      exports: [...(definition.exports ?? []), optionsProvider],
    };
  })
  .build();

/** Argument of `ObjectIdModule.forRoot()`: the module options plus `isGlobal`. */
export type ObjectIdModuleForRootOptions = typeof OBJECT_ID_MODULE_OPTIONS_TYPE;
/** Argument of `ObjectIdModule.forRootAsync()`: `useFactory`/`useClass`/`useExisting`, `inject`, `imports`, `isGlobal`. */
export type ObjectIdModuleAsyncOptions = typeof OBJECT_ID_MODULE_ASYNC_OPTIONS_TYPE;
