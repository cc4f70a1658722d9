import type { Types } from 'mongoose';
import { ApiObjectIdProperty } from 'nestjs-objectid/swagger';

/** Freshly generated ids; the serializer writes them as hex. */
export class GeneratedObjectIdsResponse {
  @ApiObjectIdProperty({ isArray: true, description: 'Same process-unique part, consecutive counters' })
  ids!: Types.ObjectId[];
}
