import { ApiProperty } from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { ApiObjectIdProperty } from 'nestjs-objectid/swagger';

/** One line of an order response. */
export class OrderItemResponse {
  @ApiObjectIdProperty()
  productId!: Types.ObjectId;

  @ApiProperty({ example: 2 })
  quantity!: number;

  @ApiProperty({ example: 24.9, description: 'Price of the product when the order was placed' })
  unitPrice!: number;
}

/** An order as the API returns it; the serializer writes the ids as hex. */
export class OrderResponse {
  @ApiObjectIdProperty()
  id!: Types.ObjectId;

  @ApiProperty({
    example: 'ORD-2026-000042',
    description: 'Consecutive within a year, restarting at 000001 every January',
  })
  number!: string;

  @ApiProperty({ type: OrderItemResponse, isArray: true })
  items!: OrderItemResponse[];

  @ApiProperty({ example: 49.8 })
  total!: number;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the _id was generated (whole seconds)' })
  createdAt!: Date;
}
