import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import type { Types } from 'mongoose';
import { IsObjectId, ToObjectId } from 'nestjs-objectid';
import { ApiObjectIdProperty } from 'nestjs-objectid/swagger';
import { distinctIdKey } from '../../common/distinct-id-key.js';
import { IsPrice } from '../../common/is-price.decorator.js';
import { IsPlainText } from '../../common/is-plain-text.decorator.js';
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../../common/slugify.js';

/** Most related products per product. */
export const MAX_RELATED_PRODUCTS = 20;

/** Body of `POST /products`; `PATCH` takes any subset of it. */
export class CreateProductDto {
  @ApiProperty({ example: 'Crème Brûlée Set', maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @IsPlainText()
  name!: string;

  @ApiPropertyOptional({
    example: 'creme-brulee-set',
    pattern: SLUG_PATTERN.source,
    description: 'Derived from name when absent (accents stripped, lowercase, hyphens)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_SLUG_LENGTH)
  @Matches(SLUG_PATTERN, { message: 'slug must be lowercase letters and digits separated by single hyphens' })
  slug?: string;

  @ApiProperty({ example: 24.9, minimum: 0, maximum: 1_000_000, description: 'At most 2 decimals' })
  @IsPrice()
  @Min(0)
  @Max(1_000_000)
  price!: number;

  @ApiObjectIdProperty({ description: 'An existing category' })
  @IsObjectId()
  @ToObjectId()
  categoryId!: Types.ObjectId;

  @ApiObjectIdProperty({
    isArray: true,
    required: false,
    description: `Existing products, at most ${MAX_RELATED_PRODUCTS}`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_RELATED_PRODUCTS)
  @ArrayUnique(distinctIdKey, { message: 'relatedIds must be a list of distinct ids' })
  @IsObjectId(undefined, { each: true })
  @ToObjectId()
  relatedIds?: Types.ObjectId[];
}
