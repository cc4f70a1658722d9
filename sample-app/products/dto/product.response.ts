import { ApiProperty } from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { ApiObjectIdProperty } from 'nestjs-objectid/swagger';

/**
 * A product as the API returns it. The ids are `Types.ObjectId` here; the
 * global `ObjectIdSerializerInterceptor` writes them as lowercase hex.
 */
export class ProductResponse {
  @ApiObjectIdProperty()
  id!: Types.ObjectId;

  @ApiProperty({ example: 'Crème Brûlée Set' })
  name!: string;

  @ApiProperty({ example: 'creme-brulee-set' })
  slug!: string;

  @ApiProperty({
    example: '/products/507f1f77bcf86cd799439011/creme-brulee-set',
    description: 'Canonical URL, relative: the id decides, the slug is for people and search engines',
  })
  url!: string;

  @ApiProperty({ example: 24.9 })
  price!: number;

  @ApiObjectIdProperty()
  categoryId!: Types.ObjectId;

  @ApiObjectIdProperty({ isArray: true })
  relatedIds!: Types.ObjectId[];

  @ApiProperty({ type: String, format: 'date-time', description: 'When the _id was generated (whole seconds)' })
  createdAt!: Date;
}

/** One page of a product list, with opaque cursors both ways. */
export class ProductPageResponse {
  @ApiProperty({ type: ProductResponse, isArray: true })
  items!: ProductResponse[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'eyJ2IjoxLCJzIjoiX2lkIiwiaSI6IjUwN2YxZjc3YmNmODZjZDc5OTQzOTAxMSJ9',
    description: 'Pass as `after` (with the same sort) to get the next page; null on the last page',
  })
  nextCursor!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Pass as `before` (with the same sort) to get the previous page; null on the first page',
  })
  previousCursor!: string | null;

  @ApiProperty({ description: 'Whether a page follows: nextCursor is not null' })
  hasNext!: boolean;

  @ApiProperty({ description: 'Whether a page precedes: previousCursor is not null' })
  hasPrevious!: boolean;
}
