// The face of the pipes, for the module and the entry point.
export type {
  ObjectIdExceptionFactory,
  ObjectIdPipeDefaults,
  ObjectIdPipeOptions,
} from './object-id-pipe-options.interface.js';
export { ObjectIdValidationPipe } from './object-id-validation.pipe.js';
export { ObjectIdTransportExceptionInterceptor } from './object-id-transport-exception.interceptor.js';
export { ParseObjectIdArrayPipe, type ParseObjectIdArrayPipeOptions } from './parse-object-id-array.pipe.js';
export { ParseObjectIdPipe, type ParseObjectIdPipeOptions } from './parse-object-id.pipe.js';
export { ValidateObjectIdPipe, type ValidateObjectIdPipeOptions } from './validate-object-id.pipe.js';
