import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { ParseObjectIdArrayPipe, ParseObjectIdPipe } from 'nestjs-objectid';
import { ApiObjectIdParam, ApiObjectIdQuery } from 'nestjs-objectid/swagger';
import { ParseDayPipe } from '../common/pipes/parse-day.pipe.js';
import { ParseIntInRangePipe } from '../common/pipes/parse-int-in-range.pipe.js';
import { ParseIsoDatePipe } from '../common/pipes/parse-iso-date.pipe.js';
import { ParseTimeZonePipe } from '../common/pipes/parse-time-zone.pipe.js';
import { CreateProductDto } from './dto/create-product.dto.js';
import { ProductPageResponse, ProductResponse } from './dto/product.response.js';
import { UpdateProductDto } from './dto/update-product.dto.js';
import { ProductsService } from './products.service.js';

/** Largest page of `GET /products`. */
export const MAX_PAGE_SIZE = 100;

@ApiTags('products')
@Controller('products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @ApiCreatedResponse({ type: ProductResponse })
  @ApiBadRequestResponse({ description: 'Invalid body, or no slug could be derived from the name' })
  @ApiConflictResponse({ description: 'The slug is already taken' })
  @ApiUnprocessableEntityResponse({ description: 'The category or a related product does not exist' })
  create(@Body() dto: CreateProductDto): Promise<ProductResponse> {
    return this.products.create(dto);
  }

  @Get()
  @ApiOkResponse({ type: ProductPageResponse, description: 'Sorted by id (creation order), keyset-paginated' })
  @ApiBadRequestResponse({ description: 'An invalid limit, cursor, id, date or time zone' })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
  })
  @ApiObjectIdQuery('after', { description: 'nextCursor of the previous page' })
  @ApiObjectIdQuery('categoryId', { description: 'Only products of this category' })
  @ApiObjectIdQuery('ids', { isArray: true, description: 'Only these products (comma-separated, at most 100)' })
  @ApiQuery({
    name: 'createdFrom',
    required: false,
    description: 'Created at or after (ISO date or date-time)',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({
    name: 'createdTo',
    required: false,
    description: 'Created before (ISO date or date-time)',
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
    description: 'IANA time zone of createdOn',
    schema: { type: 'string', default: 'UTC', example: 'Europe/Prague' },
  })
  list(
    @Query('limit', new ParseIntInRangePipe({ min: 1, max: MAX_PAGE_SIZE, defaultValue: 20 })) limit: number,
    @Query('after', ParseObjectIdPipe.with({ optional: true })) after?: Types.ObjectId,
    @Query('categoryId', ParseObjectIdPipe.with({ optional: true })) categoryId?: Types.ObjectId,
    @Query('ids', ParseObjectIdArrayPipe.with({ optional: true, maxItems: 100 })) ids?: Types.ObjectId[],
    @Query('createdFrom', ParseIsoDatePipe) createdFrom?: Date,
    @Query('createdTo', ParseIsoDatePipe) createdTo?: Date,
    @Query('createdOn', ParseDayPipe) createdOn?: string,
    @Query('tz', ParseTimeZonePipe) timeZone = 'UTC',
  ): Promise<ProductPageResponse> {
    return this.products.list({ limit, after, categoryId, ids, createdFrom, createdTo, createdOn, timeZone });
  }

  @Get('by-slug/:slug')
  @ApiOkResponse({ type: ProductResponse })
  @ApiNotFoundResponse({ description: 'No product has this slug' })
  findBySlug(@Param('slug') slug: string): Promise<ProductResponse> {
    return this.products.findBySlug(slug);
  }

  @Get(':id')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: ProductResponse })
  @ApiBadRequestResponse({ description: 'The id is not 24 hex characters (the database is not asked)' })
  @ApiNotFoundResponse({ description: 'No product has this id' })
  findOne(@Param('id', ParseObjectIdPipe) id: Types.ObjectId): Promise<ProductResponse> {
    return this.products.findById(id);
  }

  @Patch(':id')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: ProductResponse })
  @ApiNotFoundResponse({ description: 'No product has this id' })
  @ApiConflictResponse({ description: 'The new slug is already taken' })
  @ApiUnprocessableEntityResponse({ description: 'The category or a related product does not exist' })
  update(@Param('id', ParseObjectIdPipe) id: Types.ObjectId, @Body() dto: UpdateProductDto): Promise<ProductResponse> {
    return this.products.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiObjectIdParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'No product has this id' })
  remove(@Param('id', ParseObjectIdPipe) id: Types.ObjectId): Promise<void> {
    return this.products.remove(id);
  }
}
