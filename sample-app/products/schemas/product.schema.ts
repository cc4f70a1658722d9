import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, type HydratedDocument, type Types } from 'mongoose';
import { Category } from '../../categories/schemas/category.schema.js';

/**
 * A product. `_id` is an ObjectId (12 bytes, never a hex string), so it sorts
 * by creation time and `createdOn=`/`createdFrom=` read the `_id` index.
 */
@Schema({ collection: 'products', versionKey: false })
export class Product {
  _id!: Types.ObjectId;

  @Prop({ required: true, trim: true })
  name!: string;

  @Prop({ required: true, unique: true })
  slug!: string;

  /**
   * Every slug the product has had, the current one last (see `nextSlugs`):
   * old links redirect to the current one. One array rather than `slug` plus
   * `previousSlugs`, because a unique index spans one field only: on this
   * array it keeps a slug, current or old, to one product, checked by the
   * write itself.
   */
  @Prop({ type: [String], default: undefined })
  slugs!: string[];

  @Prop({ required: true, min: 0 })
  price!: number;

  @Prop({ type: MongooseSchema.Types.ObjectId, ref: Category.name, required: true })
  categoryId!: Types.ObjectId;

  @Prop({ type: [MongooseSchema.Types.ObjectId], ref: 'Product', default: [] })
  relatedIds!: Types.ObjectId[];
}

export type ProductDocument = HydratedDocument<Product>;
export const ProductSchema = SchemaFactory.createForClass(Product);
// Serve the keyset pages of every offered sort (PRODUCT_SORT_FIELDS), both ways (MongoDB walks an index
// backwards for `-price`): the sort field, then `_id` as the tie-break; a category's list has it first.
ProductSchema.index({ categoryId: 1, _id: 1 });
ProductSchema.index({ price: 1, _id: 1 });
ProductSchema.index({ name: 1, _id: 1 });
ProductSchema.index({ categoryId: 1, price: 1, _id: 1 });
ProductSchema.index({ categoryId: 1, name: 1, _id: 1 });
// Sparse: documents stored before slug history have no `slugs` until the start-up backfill gives them one.
ProductSchema.index({ slugs: 1 }, { unique: true, sparse: true });
