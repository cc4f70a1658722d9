import { PartialType } from '@nestjs/swagger';
import { CreateProductDto } from './create-product.dto.js';

/**
 * Body of `PATCH /products/:id`: any subset of the create body. A new name
 * brings a new slug derived from it (unless `slug` is sent too); the old slug
 * keeps working as a redirect to the new canonical URL.
 */
export class UpdateProductDto extends PartialType(CreateProductDto) {}
