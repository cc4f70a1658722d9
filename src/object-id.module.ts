import { Module } from '@nestjs/common';
import { OBJECT_ID_MODULE_OPTIONS, ObjectIdConfigurableModuleClass } from './object-id.module-definition.js';
import { ParseObjectIdArrayPipe } from './pipes/parse-object-id-array.pipe.js';
import { ParseObjectIdPipe } from './pipes/parse-object-id.pipe.js';

/**
 * Provides the ObjectId pipes with shared defaults.
 * `ObjectIdModule.forRoot({ errorHttpStatusCode: 422, isGlobal: true })`, or
 * `forRootAsync({ useFactory, inject })` for options from configuration.
 * The pipes also work without the module (`new ParseObjectIdPipe()`).
 */
@Module({
  providers: [ParseObjectIdPipe, ParseObjectIdArrayPipe],
  exports: [ParseObjectIdPipe, ParseObjectIdArrayPipe, OBJECT_ID_MODULE_OPTIONS],
})
export class ObjectIdModule extends ObjectIdConfigurableModuleClass {}
