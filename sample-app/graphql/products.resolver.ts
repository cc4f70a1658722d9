import { NotFoundException } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import type { Types } from 'mongoose';
import { ObjectIdScalar } from 'nestjs-objectid/graphql';
import type { ProductResponse } from '../products/dto/product.response.js';
import { ProductsService } from '../products/products.service.js';
import { ProductModel } from './models/product.model.js';

/**
 * Products over GraphQL, from the same service as the REST routes. The `id`
 * argument is the `ObjectId` scalar: an invalid id is refused before the
 * resolver runs, with the message `ParseObjectIdPipe` gives on REST.
 */
@Resolver(() => ProductModel)
export class ProductsResolver {
  constructor(private readonly products: ProductsService) {}

  @Query(() => ProductModel, { nullable: true, description: 'The product with this id, or null' })
  product(@Args('id', { type: () => ObjectIdScalar }) id: Types.ObjectId): Promise<ProductResponse | null> {
    return nullIfNotFound(this.products.findById(id));
  }

  @Query(() => ProductModel, {
    nullable: true,
    description: 'The product that has or had this slug (its current slug is in the result), or null',
  })
  productBySlug(@Args('slug') slug: string): Promise<ProductResponse | null> {
    return nullIfNotFound(this.products.findBySlug(slug));
  }
}

/** GraphQL's way to say "no such product": `null`, not an error (REST answers 404). */
async function nullIfNotFound<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFoundException) return null;
    throw error;
  }
}
