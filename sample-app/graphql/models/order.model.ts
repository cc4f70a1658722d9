import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import type { Types } from 'mongoose';
import { ObjectIdScalar } from 'nestjs-objectid/graphql';

/** One line of an order. */
@ObjectType('OrderItem')
export class OrderItemModel {
  @Field(() => ObjectIdScalar)
  productId!: Types.ObjectId;

  @Field(() => Int)
  quantity!: number;

  @Field(() => Float, { description: 'Price of the product when the order was placed' })
  unitPrice!: number;
}

/** An order as GraphQL returns it: the fields of `POST /orders`. */
@ObjectType('Order')
export class OrderModel {
  @Field(() => ObjectIdScalar)
  id!: Types.ObjectId;

  @Field({ description: 'e.g. ORD-2026-000042: consecutive within a year' })
  number!: string;

  @Field(() => [OrderItemModel])
  items!: OrderItemModel[];

  @Field(() => Float)
  total!: number;

  @Field({ description: 'When the id was generated (whole seconds)' })
  createdAt!: Date;
}
