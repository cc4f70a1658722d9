import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiMovedPermanentlyResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { ParseObjectIdPipe } from 'nestjs-objectid';
import { ApiObjectIdParam } from 'nestjs-objectid/swagger';
import { errorExample, ErrorResponse, INVALID_ID_DESCRIPTION, INVALID_ID_EXAMPLE } from '../common/error.response.js';
import { ApiDatabaseUnavailableResponse } from '../common/api-database-unavailable-response.decorator.js';
import { movedPermanently } from '../common/moved-permanently.js';
import { CategoriesService } from './categories.service.js';
import { CategoryResponse } from './dto/category.response.js';
import { CreateCategoryDto } from './dto/create-category.dto.js';
import { UpdateCategoryDto } from './dto/update-category.dto.js';

// Examples of the error bodies in the API docs (real messages; the id is UNKNOWN_ID of the tests).
const NOT_FOUND = errorExample(404, 'category 507f1f77bcf86cd799439011 not found');

@ApiTags('categories')
@ApiDatabaseUnavailableResponse()
@Controller('categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Post()
  @ApiCreatedResponse({ type: CategoryResponse })
  @ApiBadRequestResponse({
    type: ErrorResponse,
    description: 'Invalid body, or no slug could be derived from the name',
    example: errorExample(400, ['name should not be empty']),
  })
  @ApiConflictResponse({
    type: ErrorResponse,
    description: 'The slug is already taken',
    example: errorExample(409, 'slug "kitchen" is already taken'),
  })
  create(@Body() dto: CreateCategoryDto): Promise<CategoryResponse> {
    return this.categories.create(dto);
  }

  @Get()
  @ApiOkResponse({ type: CategoryResponse, isArray: true, description: 'Sorted by id, i.e. creation order' })
  findAll(): Promise<CategoryResponse[]> {
    return this.categories.findAll();
  }

  // Before ':id/:slug': Express tries routes in order, and "by-slug" would be taken for an id.
  @Get('by-slug/:slug')
  @ApiOkResponse({ type: CategoryResponse })
  @ApiMovedPermanentlyResponse({ description: 'An old slug of the category: Location is its canonical URL' })
  @ApiNotFoundResponse({
    type: ErrorResponse,
    description: 'No category has or had this slug',
    example: errorExample(404, 'category with slug "kitchen" not found'),
  })
  async findBySlug(@Param('slug') slug: string): Promise<CategoryResponse | Response> {
    const category = await this.categories.findBySlug(slug);
    return category.slug === slug ? category : movedPermanently(category.url);
  }

  @Get(':id')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: CategoryResponse })
  @ApiBadRequestResponse({ type: ErrorResponse, description: INVALID_ID_DESCRIPTION, example: INVALID_ID_EXAMPLE })
  @ApiNotFoundResponse({ type: ErrorResponse, description: 'No category has this id', example: NOT_FOUND })
  findOne(@Param('id', ParseObjectIdPipe) id: Types.ObjectId): Promise<CategoryResponse> {
    return this.categories.findById(id);
  }

  /** The canonical URL, `/categories/:id/:slug`, chosen as `/products/:id/:slug` is (see ProductsController). */
  @Get(':id/:slug')
  @ApiObjectIdParam()
  @ApiParam({ name: 'slug', description: 'Any text; only the current slug answers 200', example: 'kitchen' })
  @ApiOkResponse({ type: CategoryResponse })
  @ApiMovedPermanentlyResponse({ description: 'Not the canonical URL (an old slug, an id in capitals): see Location' })
  @ApiBadRequestResponse({ type: ErrorResponse, description: INVALID_ID_DESCRIPTION, example: INVALID_ID_EXAMPLE })
  @ApiNotFoundResponse({ type: ErrorResponse, description: 'No category has this id', example: NOT_FOUND })
  async findCanonical(
    @Param('id', ParseObjectIdPipe) id: Types.ObjectId,
    @Param() path: { id: string; slug: string },
  ): Promise<CategoryResponse | Response> {
    const category = await this.categories.findById(id);
    return category.url === `/categories/${path.id}/${path.slug}` ? category : movedPermanently(category.url);
  }

  @Patch(':id')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: CategoryResponse, description: 'A new name brings a new slug; the old one redirects' })
  @ApiBadRequestResponse({
    type: ErrorResponse,
    description: `${INVALID_ID_DESCRIPTION}, an invalid body, or no slug could be derived from the new name`,
    example: INVALID_ID_EXAMPLE,
  })
  @ApiNotFoundResponse({ type: ErrorResponse, description: 'No category has this id', example: NOT_FOUND })
  @ApiConflictResponse({
    type: ErrorResponse,
    description: 'The new slug is taken, now or in the history of another category',
    example: errorExample(409, 'slug "kitchen" is already taken'),
  })
  update(
    @Param('id', ParseObjectIdPipe) id: Types.ObjectId,
    @Body() dto: UpdateCategoryDto,
  ): Promise<CategoryResponse> {
    return this.categories.update(id, dto);
  }
}
