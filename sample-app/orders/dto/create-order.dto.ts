import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsObject, ValidateNested } from 'class-validator';
import { distinctIdKey } from '../../common/distinct-id-key.js';
import { OrderItemDto } from './order-item.dto.js';

function isObject(value: unknown): value is { productId?: unknown } {
  return typeof value === 'object' && value !== null;
}

/** Most lines per order. */
export const MAX_ORDER_ITEMS = 50;

/** Body of `POST /orders`. */
export class CreateOrderDto {
  @ApiProperty({ type: OrderItemDto, isArray: true, minItems: 1, maxItems: MAX_ORDER_ITEMS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ORDER_ITEMS)
  @ArrayUnique((item: unknown) => distinctIdKey(isObject(item) ? item.productId : item), {
    message: 'items must be a list naming each product once; add up the quantities instead',
  })
  // Each item must itself be an object: `@ValidateNested({ each: true })` alone
  // would validate the elements of a nested array and let `[[{…}]]` through.
  @IsObject({ each: true, message: 'each item must be an object { productId, quantity }' })
  @ValidateNested({ each: true })
  @Type(() => OrderItemDto)
  items!: OrderItemDto[];
}
