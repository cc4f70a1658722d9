import { ConfigurableModuleBuilder } from '@nestjs/common';
import { OBJECT_ID_SERIALIZER_OPTIONS } from '../object-id.constants.js';
import type { ObjectIdSerializerInterceptorOptions } from './object-id-serializer.interceptor.js';

export const {
  ConfigurableModuleClass: ObjectIdSerializerConfigurableModuleClass,
  // Type carrier only (undefined at run time); see the alias below.
  ASYNC_OPTIONS_TYPE: OBJECT_ID_SERIALIZER_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ObjectIdSerializerInterceptorOptions>({
  moduleName: 'ObjectIdSerializer',
  optionsInjectionToken: OBJECT_ID_SERIALIZER_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/** Argument of `ObjectIdSerializerModule.forRootAsync()`: `useFactory`/`useClass`/`useExisting`, `inject`, `imports`. */
export type ObjectIdSerializerModuleAsyncOptions = typeof OBJECT_ID_SERIALIZER_ASYNC_OPTIONS_TYPE;
