import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument, Types } from 'mongoose';

/**
 * A product category. No `createdAt` field: the `_id` (an ObjectId, 12 bytes)
 * already holds the creation second, and sorting by `_id` is creation order.
 */
@Schema({ collection: 'categories', versionKey: false })
export class Category {
  _id!: Types.ObjectId;

  @Prop({ required: true, trim: true })
  name!: string;

  @Prop({ required: true, unique: true })
  slug!: string;
}

export type CategoryDocument = HydratedDocument<Category>;
export const CategorySchema = SchemaFactory.createForClass(Category);
