import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { OBJECT_ID_SERIALIZER_OPTIONS } from '../object-id.constants.js';
import { ObjectIdSerializerConfigurableModuleClass } from './object-id-serializer.module-definition.js';
import {
  ObjectIdSerializerInterceptor,
  type ObjectIdSerializerInterceptorOptions,
} from './object-id-serializer.interceptor.js';

/**
 * Registers {@link ObjectIdSerializerInterceptor} for the whole application,
 * so every ObjectId in every response leaves as hex:
 * `imports: [ObjectIdSerializerModule]`, `ObjectIdSerializerModule.forRoot({ exposeId: true })`,
 * or `forRootAsync({ useFactory, inject })`. Import it once, in the root module.
 */
@Module({
  providers: [
    // Defaults for a bare `imports: [ObjectIdSerializerModule]`; forRoot()'s own options provider replaces it.
    { provide: OBJECT_ID_SERIALIZER_OPTIONS, useValue: {} },
    { provide: APP_INTERCEPTOR, useClass: ObjectIdSerializerInterceptor },
  ],
  exports: [OBJECT_ID_SERIALIZER_OPTIONS],
})
export class ObjectIdSerializerModule extends ObjectIdSerializerConfigurableModuleClass {
  /** Registers the interceptor with `options` (Nest's `ClassSerializerInterceptorOptions` plus the ObjectId ones). */
  static override forRoot(options: ObjectIdSerializerInterceptorOptions = {}): DynamicModule {
    return super.forRoot(options);
  }
}
