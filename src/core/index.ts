// The face of the ObjectId core, for the other folders of the library.
export { ObjectId } from './bson.cjs';
export { isDatabaseUnavailableError } from './database-unavailable.js';
export { isObjectIdLike, type ObjectIdLike } from './object-id-like.js';
export { ObjectIdParseError, type ObjectIdParseErrorReason } from './object-id-parse.error.js';
export {
  describeInvalidObjectId,
  isObjectIdHex,
  parseObjectId,
  previewString,
  tryParseObjectId,
  type ObjectIdProblem,
  type ParseObjectIdOptions,
} from './parse-object-id.js';
