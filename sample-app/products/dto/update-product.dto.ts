import { PartialType } from '@nestjs/swagger';
import { CreateProductDto } from './create-product.dto.js';

/**
 * Body of `PATCH /products/:id`: any subset of the create body. The slug is
 * not re-derived when only the name changes (links keep working); send `slug`
 * to change it.
 */
export class UpdateProductDto extends PartialType(CreateProductDto) {}
