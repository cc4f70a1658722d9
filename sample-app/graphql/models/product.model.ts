import { Field, Float, ObjectType } from '@nestjs/graphql';
import type { Types } from 'mongoose';
import { ObjectIdScalar } from 'nestjs-objectid/graphql';

/** A product as GraphQL returns it: the fields of `GET /products/:id`, ids as the `ObjectId` scalar. */
@ObjectType('Product')
export class ProductModel {
  @Field(() => ObjectIdScalar)
  id!: Types.ObjectId;

  @Field()
  name!: string;

  @Field()
  slug!: string;

  @Field({ description: 'Canonical URL of the product page, relative' })
  url!: string;

  @Field(() => Float)
  price!: number;

  @Field(() => ObjectIdScalar)
  categoryId!: Types.ObjectId;

  @Field(() => [ObjectIdScalar])
  relatedIds!: Types.ObjectId[];

  @Field({ description: 'When the id was generated (whole seconds)' })
  createdAt!: Date;
}
