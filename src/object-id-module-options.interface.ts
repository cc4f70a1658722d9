import type { ObjectIdPipeDefaults } from './pipes/index.js';

/**
 * Options of {@link ObjectIdModule.forRoot}: `errorHttpStatusCode` and
 * `exceptionFactory` become the defaults of every ObjectId pipe that Nest
 * creates in modules importing it (`@Param('id', ParseObjectIdPipe)`).
 */
export type ObjectIdModuleOptions = ObjectIdPipeDefaults;
