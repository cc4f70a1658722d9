import type { ObjectIdPipeDefaults } from './pipes/index.js';

/**
 * Options of {@link ObjectIdModule.forRoot}: `errorHttpStatusCode`,
 * `exceptionFactory` and `allowNil` become the defaults of every ObjectId pipe that Nest
 * creates in modules importing it (`@Param('id', ParseObjectIdPipe)`).
 */
export type ObjectIdModuleOptions = ObjectIdPipeDefaults;
