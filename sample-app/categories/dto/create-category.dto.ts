import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsPlainText } from '../../common/is-plain-text.decorator.js';
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../../common/slugify.js';

/** Body of `POST /categories`. */
export class CreateCategoryDto {
  @ApiProperty({ example: 'Kitchen', maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @IsPlainText()
  name!: string;

  @ApiPropertyOptional({
    example: 'kitchen',
    pattern: SLUG_PATTERN.source,
    description: 'Derived from name when absent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_SLUG_LENGTH)
  @Matches(SLUG_PATTERN, { message: 'slug must be lowercase letters and digits separated by single hyphens' })
  slug?: string;
}
