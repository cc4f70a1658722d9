import type { Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import {
  OBJECT_ID_SERIALIZER_OPTIONS,
  ObjectIdSerializerInterceptor,
  type ObjectIdSerializerInterceptorOptions,
} from './object-id-serializer.interceptor.js';

/** Registers {@link ObjectIdSerializerInterceptor} for the whole application with default options. */
export const OBJECT_ID_SERIALIZER_GLOBAL_PROVIDER: Provider = {
  provide: APP_INTERCEPTOR,
  useClass: ObjectIdSerializerInterceptor,
};

/**
 * Providers that register {@link ObjectIdSerializerInterceptor} globally with
 * `options` (for `ObjectIdModule.forRoot({ serializer: { global: true, ...options } })`).
 */
export function createObjectIdSerializerProviders(options: ObjectIdSerializerInterceptorOptions = {}): Provider[] {
  return [{ provide: OBJECT_ID_SERIALIZER_OPTIONS, useValue: options }, OBJECT_ID_SERIALIZER_GLOBAL_PROVIDER];
}
