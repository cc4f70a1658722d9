import { Types } from 'mongoose';
import { parseObjectId } from './parse-object-id.js';
import { ObjectId } from './bson.cjs';

describe('the ObjectId class the library uses', () => {
  it('should be the one mongoose uses, so ids it makes pass instanceof Types.ObjectId', () => {
    expect(ObjectId).toBe(Types.ObjectId);
    expect(parseObjectId('507f1f77bcf86cd799439011')).toBeInstanceOf(Types.ObjectId);
  });
});
