import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, ValidateNested } from 'class-validator';
import { OrderItemDto } from './order-item.dto.js';

/** Most lines per order. */
export const MAX_ORDER_ITEMS = 50;

/** Body of `POST /orders`. */
export class CreateOrderDto {
  @ApiProperty({ type: OrderItemDto, isArray: true, minItems: 1, maxItems: MAX_ORDER_ITEMS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ORDER_ITEMS)
  @ArrayUnique((item: Partial<OrderItemDto> | null) => String(item?.productId).toLowerCase(), {
    message: 'items must be a list naming each product once; add up the quantities instead',
  })
  @ValidateNested({ each: true })
  @Type(() => OrderItemDto)
  items!: OrderItemDto[];
}
