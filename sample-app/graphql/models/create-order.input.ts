import { Field, InputType, Int } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import type { Types } from 'mongoose';
import { ObjectIdScalar } from 'nestjs-objectid/graphql';
import { CreateOrderDto } from '../../orders/dto/create-order.dto.js';
import { OrderItemDto } from '../../orders/dto/order-item.dto.js';

/**
 * One line of `createOrder`: `OrderItemDto` with GraphQL types, so both
 * transports check the same limits (the app's global ValidationPipe runs on
 * GraphQL arguments too).
 */
@InputType('OrderItemInput')
export class OrderItemInput extends OrderItemDto {
  @Field(() => ObjectIdScalar, { description: 'An existing product' })
  override productId!: Types.ObjectId;

  @Field(() => Int, { description: 'From 1 to 1000' })
  override quantity!: number;
}

/** The argument of `createOrder`: `CreateOrderDto` with GraphQL types. */
@InputType('CreateOrderInput')
export class CreateOrderInput extends CreateOrderDto {
  @Field(() => [OrderItemInput], { description: '1 to 50 lines, each product once' })
  @Type(() => OrderItemInput)
  override items!: OrderItemInput[];
}
