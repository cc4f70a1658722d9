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

/** One page of `GET /products`. */
export class ProductPageResponse {
  @ApiProperty({ type: ProductResponse, isArray: true })
  items!: ProductResponse[];

  @ApiObjectIdProperty({
    nullable: true,
    description: 'Pass as `after` to get the next page; null on the last page',
  })
  nextCursor!: Types.ObjectId | null;
}
