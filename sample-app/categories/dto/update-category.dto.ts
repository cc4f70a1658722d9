import { PartialType } from '@nestjs/swagger';
import { CreateCategoryDto } from './create-category.dto.js';

/**
 * Body of `PATCH /categories/:id`: a new `name`, a new `slug`, or both. A new
 * name brings a new slug derived from it (unless `slug` is sent too); the old
 * slug keeps working as a redirect to the new canonical URL.
 */
export class UpdateCategoryDto extends PartialType(CreateCategoryDto) {}
