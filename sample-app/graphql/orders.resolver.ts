import { Args, Mutation, Resolver } from '@nestjs/graphql';
import type { OrderResponse } from '../orders/dto/order.response.js';
import { OrdersService } from '../orders/orders.service.js';
import { CreateOrderInput } from './models/create-order.input.js';
import { OrderModel } from './models/order.model.js';

/** Orders over GraphQL, from the same service (and the same numbering) as `POST /orders`. */
@Resolver(() => OrderModel)
export class OrdersResolver {
  constructor(private readonly orders: OrdersService) {}

  @Mutation(() => OrderModel, {
    description: 'Places an order; an unknown product is BAD_USER_INPUT and uses up no order number',
  })
  createOrder(@Args('input') input: CreateOrderInput): Promise<OrderResponse> {
    return this.orders.create(input);
  }
}
