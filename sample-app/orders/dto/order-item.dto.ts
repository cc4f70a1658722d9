import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import type { Types } from 'mongoose';
import { IsObjectId, ToObjectId } from 'nestjs-objectid';
import { ApiObjectIdProperty } from 'nestjs-objectid/swagger';

/** Most pieces of one product per order line. */
export const MAX_QUANTITY = 1000;

/** One line of `POST /orders`. */
export class OrderItemDto {
  @ApiObjectIdProperty({ description: 'An existing product' })
  @IsObjectId()
  @ToObjectId()
  productId!: Types.ObjectId;

  @ApiProperty({ example: 2, minimum: 1, maximum: MAX_QUANTITY })
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity!: number;
}
