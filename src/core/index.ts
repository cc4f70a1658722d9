// The face of the ObjectId core, for the other folders of the library.
export { Decimal128, Long, ObjectId } from './bson.cjs';
export { isDatabaseUnavailableError } from './database-unavailable.js';
export { NIL_OBJECT_ID, isNilObjectId } from './nil-object-id.js';
export { isObjectIdLike, type ObjectIdLike } from './object-id-like.js';
export { ObjectIdParseError, type ObjectIdParseErrorReason } from './object-id-parse.error.js';
export {
  describeInvalidObjectId,
  isObjectIdHex,
  isParsableObjectId,
  parseObjectId,
  previewString,
  tryParseObjectId,
  type ObjectIdProblem,
  type ParseObjectIdOptions,
} from './parse-object-id.js';
