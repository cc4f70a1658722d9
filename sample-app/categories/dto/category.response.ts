import { ApiProperty } from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { ApiObjectIdProperty } from 'nestjs-objectid/swagger';

/**
 * A category as the API returns it. `id` is a `Types.ObjectId` here; the
 * global `ObjectIdSerializerInterceptor` writes it as lowercase hex.
 */
export class CategoryResponse {
  @ApiObjectIdProperty()
  id!: Types.ObjectId;

  @ApiProperty({ example: 'Kitchen' })
  name!: string;

  @ApiProperty({ example: 'kitchen' })
  slug!: string;

  @ApiProperty({
    example: '/categories/507f1f77bcf86cd799439011/kitchen',
    description: 'Canonical URL, relative: the id decides, the slug is for people and search engines',
  })
  url!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the _id was generated (whole seconds)' })
  createdAt!: Date;
}
