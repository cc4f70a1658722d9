import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiMovedPermanentlyResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiParam,
  ApiQuery,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { type KeysetSort, ParseObjectIdArrayPipe, ParseObjectIdPipe } from 'nestjs-objectid';
import { ApiObjectIdParam, ApiObjectIdQuery } from 'nestjs-objectid/swagger';
import { errorExample, ErrorResponse, INVALID_ID_DESCRIPTION, INVALID_ID_EXAMPLE } from '../common/error.response.js';
import { ApiDatabaseUnavailableResponse } from '../common/api-database-unavailable-response.decorator.js';
import { movedPermanently } from '../common/moved-permanently.js';
import type { DateFilter } from '../common/pipes/date-filter.js';
import { ParseDayPipe } from '../common/pipes/parse-day.pipe.js';
import { ParseIntInRangePipe } from '../common/pipes/parse-int-in-range.pipe.js';
import { ParseIsoDatePipe } from '../common/pipes/parse-iso-date.pipe.js';
import { ParseTimeZonePipe } from '../common/pipes/parse-time-zone.pipe.js';
import { CreateProductDto } from './dto/create-product.dto.js';
import { ProductPageResponse, ProductResponse } from './dto/product.response.js';
import { UpdateProductDto } from './dto/update-product.dto.js';
import { ApiProductPageQuery } from './api-product-page-query.decorator.js';
import { ParseProductSortPipe } from './parse-product-sort.pipe.js';
import { ProductsService } from './products.service.js';

/** Largest page of `GET /products`. */
export const MAX_PAGE_SIZE = 100;

// Error bodies shown in the API docs: real messages of this API, for an id that no product has.
const NOT_FOUND = errorExample(404, 'product 507f1f77bcf86cd799439011 not found');
const SLUG_TAKEN = errorExample(409, 'slug "creme-brulee-set" is already taken');
const NO_SUCH_CATEGORY = errorExample(
  422,
  'category 507f1f77bcf86cd799439011 does not exist; create it with POST /categories or pick one from GET /categories',
);

@ApiTags('products')
@ApiDatabaseUnavailableResponse()
@Controller('products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @ApiCreatedResponse({ type: ProductResponse })
  @ApiBadRequestResponse({
    type: ErrorResponse,
    description: 'Invalid body, or no slug could be derived from the name',
    example: errorExample(400, ['categoryId must be a 24-character hex ObjectId']),
  })
  @ApiConflictResponse({ type: ErrorResponse, description: 'The slug is already taken', example: SLUG_TAKEN })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponse,
    description: 'The category or a related product does not exist',
    example: NO_SUCH_CATEGORY,
  })
  create(@Body() dto: CreateProductDto): Promise<ProductResponse> {
    return this.products.create(dto);
  }

  @Get()
  @ApiOkResponse({ type: ProductPageResponse, description: 'Sorted as asked (by id unless told), keyset-paginated' })
  @ApiBadRequestResponse({
    type: ErrorResponse,
    description: 'An invalid limit, sort, cursor (or one of another sort), id, date or time zone',
    example: errorExample(
      400,
      `Validation failed (integer from 1 to ${MAX_PAGE_SIZE} is expected): limit "0x10" must be written in digits 0-9 only, e.g. 20`,
    ),
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
  })
  @ApiProductPageQuery()
  @ApiObjectIdQuery('categoryId', { description: 'Only products of this category' })
  @ApiObjectIdQuery('ids', { isArray: true, description: 'Only these products (comma-separated, at most 100)' })
  @ApiQuery({
    name: 'createdFrom',
    required: false,
    description: 'Created at or after (ISO date-time with offset, or a date: its midnight in tz)',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({
    name: 'createdTo',
    required: false,
    description: 'Created before (ISO date-time with offset, or a date: its midnight in tz)',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({
    name: 'createdOn',
    required: false,
    description: 'Created on this day (in tz)',
    schema: { type: 'string', format: 'date', example: '2026-12-02' },
  })
  @ApiQuery({
    name: 'tz',
    required: false,
    description: 'IANA time zone of the dates in createdFrom, createdTo and createdOn',
    schema: { type: 'string', default: 'UTC', example: 'Europe/Prague' },
  })
  list(
    @Query('limit', new ParseIntInRangePipe({ min: 1, max: MAX_PAGE_SIZE, defaultValue: 20 })) limit: number,
    @Query('sort', ParseProductSortPipe) sort: KeysetSort,
    // Checked by the library against the sort (ProductsService.pageQuery): a bad one is a 400 there.
    @Query('after') after: unknown,
    @Query('before') before: unknown,
    @Query('categoryId', ParseObjectIdPipe.with({ optional: true })) categoryId?: Types.ObjectId,
    @Query('ids', ParseObjectIdArrayPipe.with({ optional: true, maxItems: 100 })) ids?: Types.ObjectId[],
    @Query('createdFrom', ParseIsoDatePipe) createdFrom?: DateFilter,
    @Query('createdTo', ParseIsoDatePipe) createdTo?: DateFilter,
    @Query('createdOn', ParseDayPipe) createdOn?: DateFilter,
    @Query('tz', ParseTimeZonePipe) timeZone = 'UTC',
  ): Promise<ProductPageResponse> {
    return this.products.list({
      limit,
      sort,
      after,
      before,
      categoryId,
      ids,
      createdFrom,
      createdTo,
      createdOn,
      timeZone,
    });
  }

  @Get('by-slug/:slug')
  @ApiOkResponse({ type: ProductResponse })
  @ApiNotFoundResponse({
    type: ErrorResponse,
    description: 'No product has or had this slug',
    example: errorExample(404, 'product with slug "creme-brulee-set" not found'),
  })
  @ApiMovedPermanentlyResponse({ description: 'An old slug of the product: Location is its canonical URL' })
  async findBySlug(@Param('slug') slug: string): Promise<ProductResponse | Response> {
    const product = await this.products.findBySlug(slug);
    return product.slug === slug ? product : movedPermanently(product.url);
  }

  @Get(':id')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: ProductResponse })
  @ApiBadRequestResponse({ type: ErrorResponse, description: INVALID_ID_DESCRIPTION, example: INVALID_ID_EXAMPLE })
  @ApiNotFoundResponse({ type: ErrorResponse, description: 'No product has this id', example: NOT_FOUND })
  findOne(@Param('id', ParseObjectIdPipe) id: Types.ObjectId): Promise<ProductResponse> {
    return this.products.findById(id);
  }

  /**
   * The canonical URL, `/products/:id/:slug`, as Stack Overflow's
   * `/questions/:id/:slug`: the id decides and the slug is for people and
   * search engines. Chosen over `/products/:slug--:id` because the id is then
   * a whole path segment, which ParseObjectIdPipe checks as on every other
   * route (400 before any query), with no splitting of a slug that may hold
   * hyphens itself. Any other spelling (an old or mistyped slug, an id not in
   * lowercase) is a 301 to the canonical URL.
   */
  @Get(':id/:slug')
  @ApiObjectIdParam()
  @ApiParam({ name: 'slug', description: 'Any text; only the current slug answers 200', example: 'creme-brulee-set' })
  @ApiOkResponse({ type: ProductResponse })
  @ApiMovedPermanentlyResponse({ description: 'Not the canonical URL (an old slug, an id in capitals): see Location' })
  @ApiBadRequestResponse({ type: ErrorResponse, description: INVALID_ID_DESCRIPTION, example: INVALID_ID_EXAMPLE })
  @ApiNotFoundResponse({ type: ErrorResponse, description: 'No product has this id', example: NOT_FOUND })
  async findCanonical(
    @Param('id', ParseObjectIdPipe) id: Types.ObjectId,
    @Param() path: { id: string; slug: string },
  ): Promise<ProductResponse | Response> {
    const product = await this.products.findById(id);
    return product.url === `/products/${path.id}/${path.slug}` ? product : movedPermanently(product.url);
  }

  @Patch(':id')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: ProductResponse })
  @ApiBadRequestResponse({
    type: ErrorResponse,
    description: `${INVALID_ID_DESCRIPTION}, or an invalid body`,
    example: INVALID_ID_EXAMPLE,
  })
  @ApiNotFoundResponse({ type: ErrorResponse, description: 'No product has this id', example: NOT_FOUND })
  @ApiConflictResponse({ type: ErrorResponse, description: 'The new slug is already taken', example: SLUG_TAKEN })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponse,
    description: 'The category or a related product does not exist',
    example: NO_SUCH_CATEGORY,
  })
  update(@Param('id', ParseObjectIdPipe) id: Types.ObjectId, @Body() dto: UpdateProductDto): Promise<ProductResponse> {
    return this.products.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiObjectIdParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiBadRequestResponse({ type: ErrorResponse, description: INVALID_ID_DESCRIPTION, example: INVALID_ID_EXAMPLE })
  @ApiNotFoundResponse({ type: ErrorResponse, description: 'No product has this id', example: NOT_FOUND })
  remove(@Param('id', ParseObjectIdPipe) id: Types.ObjectId): Promise<void> {
    return this.products.remove(id);
  }
}
