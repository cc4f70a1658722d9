// The face of the DTO decorators.
export { IS_OBJECT_ID, IsObjectId, isObjectId, type IsObjectIdOptions } from './is-object-id.decorator.js';
export { ToObjectId, type ToObjectIdOptions } from './to-object-id.decorator.js';
