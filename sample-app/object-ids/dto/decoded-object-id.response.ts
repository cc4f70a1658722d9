import { ApiProperty } from '@nestjs/swagger';
import { ApiObjectIdProperty } from 'nestjs-objectid/swagger';

/** The parts of an ObjectId, as `decodeObjectId()` returns them. */
export class DecodedObjectIdResponse {
  @ApiObjectIdProperty({ description: 'The id, lowercase' })
  hex!: string;

  @ApiProperty({ example: 1350508407, description: 'Seconds since the Unix epoch (bytes 0-3)' })
  timestamp!: number;

  @ApiProperty({ type: String, format: 'date-time', example: '2012-10-17T21:13:27.000Z' })
  date!: Date;

  @ApiProperty({
    example: 'bcf86cd799',
    description: 'Random value of the generating process, 10 hex digits (bytes 4-8)',
  })
  processUnique!: string;

  @ApiProperty({ example: 4427793, description: 'Counter, incremented per id by the generating process (bytes 9-11)' })
  counter!: number;
}
