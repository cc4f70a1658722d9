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

  /**
   * Every slug the category has had, the current one last: old links
   * redirect. One array, so that one unique index keeps a slug, current or
   * old, to one category (see `Product.slugs`).
   */
  @Prop({ type: [String], default: undefined })
  slugs!: string[];
}

export type CategoryDocument = HydratedDocument<Category>;
export const CategorySchema = SchemaFactory.createForClass(Category);
// Sparse: documents stored before slug history have no `slugs` until the start-up backfill gives them one.
CategorySchema.index({ slugs: 1 }, { unique: true, sparse: true });
