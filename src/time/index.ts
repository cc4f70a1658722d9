// The face of the time helpers.
export {
  dayRange,
  decodeObjectId,
  generateObjectIdAt,
  generateObjectIds,
  objectIdFromDate,
  objectIdRange,
  zonedParts,
  type DecodedObjectId,
  type ObjectIdRange,
} from './object-id-time.js';
