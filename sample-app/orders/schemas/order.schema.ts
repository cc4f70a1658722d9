import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, type HydratedDocument, type Types } from 'mongoose';

/** One line of an order, with the price the product had when the order was placed. */
@Schema({ _id: false, versionKey: false })
export class OrderItem {
  @Prop({ type: MongooseSchema.Types.ObjectId, ref: 'Product', required: true })
  productId!: Types.ObjectId;

  @Prop({ required: true, min: 1 })
  quantity!: number;

  @Prop({ required: true, min: 0 })
  unitPrice!: number;
}

export const OrderItemSchema = SchemaFactory.createForClass(OrderItem);

/** An order. `number` (`ORD-2026-000042`) comes from `SequenceService` and is unique. */
@Schema({ collection: 'orders', versionKey: false })
export class Order {
  _id!: Types.ObjectId;

  @Prop({ required: true, unique: true })
  number!: string;

  @Prop({ type: [OrderItemSchema], required: true })
  items!: OrderItem[];

  @Prop({ required: true, min: 0 })
  total!: number;
}

export type OrderDocument = HydratedDocument<Order>;
export const OrderSchema = SchemaFactory.createForClass(Order);
