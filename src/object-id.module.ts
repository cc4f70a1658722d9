import { Module } from '@nestjs/common';
import { OBJECT_ID_MODULE_OPTIONS, ObjectIdConfigurableModuleClass } from './object-id.module-definition.js';
import { ParseObjectIdArrayPipe } from './pipes/parse-object-id-array.pipe.js';
import { ParseObjectIdPipe } from './pipes/parse-object-id.pipe.js';
import { SequenceService } from './sequence/sequence.service.js';
import { ObjectIdSerializerInterceptor } from './serialization/object-id-serializer.interceptor.js';

/**
 * Provides the ObjectId pipes with shared defaults, the hex serializer and
 * `SequenceService` (which finds its mongoose connection on first use, so an
 * app that only uses the pipes needs none):
 * `ObjectIdModule.forRoot({ isGlobal: true, errorHttpStatusCode: 422, serializer: { global: true } })`,
 * or `forRootAsync({ useFactory, inject, serializer })` for options from configuration.
 * The pipes and the interceptor also work without the module.
 */
@Module({
  providers: [ParseObjectIdPipe, ParseObjectIdArrayPipe, ObjectIdSerializerInterceptor, SequenceService],
  exports: [
    ParseObjectIdPipe,
    ParseObjectIdArrayPipe,
    ObjectIdSerializerInterceptor,
    SequenceService,
    OBJECT_ID_MODULE_OPTIONS,
  ],
})
export class ObjectIdModule extends ObjectIdConfigurableModuleClass {}
