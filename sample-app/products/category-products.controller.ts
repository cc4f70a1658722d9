import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiMovedPermanentlyResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { type KeysetSort, ParseObjectIdPipe } from 'nestjs-objectid';
import { ApiObjectIdParam } from 'nestjs-objectid/swagger';
import { CategoriesService } from '../categories/categories.service.js';
import { errorExample, ErrorResponse } from '../common/error.response.js';
import { ApiDatabaseUnavailableResponse } from '../common/api-database-unavailable-response.decorator.js';
import { movedPermanently } from '../common/moved-permanently.js';
import { ParseIntInRangePipe } from '../common/pipes/parse-int-in-range.pipe.js';
import { ApiProductPageQuery } from './api-product-page-query.decorator.js';
import { ProductPageResponse } from './dto/product.response.js';
import { ParseProductSortPipe } from './parse-product-sort.pipe.js';
import { MAX_PAGE_SIZE } from './products.controller.js';
import { ProductsService } from './products.service.js';

/** What this controller reads of the request, on Express (`originalUrl`) and Fastify (`url`) alike. */
interface RequestUrl {
  url: string;
  originalUrl?: string;
}

/**
 * The products of a category, under the category's canonical URL:
 * `GET /categories/:id/:slug/products`. Chosen over `GET /products?category=<slug>`
 * because the id decides here as on every canonical URL: ParseObjectIdPipe
 * guards it, a renamed category's old links redirect like its own, and the
 * page is one look-up by `_id` and one range scan of `{ categoryId, _id }`.
 * It lives with the products, which it lists: CategoriesModule cannot import
 * ProductsModule, which imports it.
 */
@ApiTags('categories')
@ApiDatabaseUnavailableResponse()
@Controller('categories')
export class CategoryProductsController {
  constructor(
    private readonly categories: CategoriesService,
    private readonly products: ProductsService,
  ) {}

  @Get(':id/:slug/products')
  @ApiObjectIdParam()
  @ApiParam({ name: 'slug', description: "Any text; only the category's current slug answers 200", example: 'kitchen' })
  @ApiOkResponse({ type: ProductPageResponse, description: 'Sorted as asked (by id unless told), keyset-paginated' })
  @ApiMovedPermanentlyResponse({
    description: 'Not the canonical URL (an old slug, an id in capitals): see Location, which keeps the query',
  })
  @ApiBadRequestResponse({
    type: ErrorResponse,
    description: 'An invalid id, limit, sort or cursor (the database is not asked)',
    example: errorExample(
      400,
      `Validation failed (integer from 1 to ${MAX_PAGE_SIZE} is expected): limit "0x10" must be written in digits 0-9 only, e.g. 20`,
    ),
  })
  @ApiNotFoundResponse({
    type: ErrorResponse,
    description: 'No category has this id',
    example: errorExample(404, 'category 507f1f77bcf86cd799439011 not found'),
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
  })
  @ApiProductPageQuery()
  async list(
    @Param('id', ParseObjectIdPipe) id: Types.ObjectId,
    @Param() path: { id: string; slug: string },
    @Query('limit', new ParseIntInRangePipe({ min: 1, max: MAX_PAGE_SIZE, defaultValue: 20 })) limit: number,
    @Query('sort', ParseProductSortPipe) sort: KeysetSort,
    // Checked by the library against the sort (ProductsService.pageQuery): a bad one is a 400 there.
    @Query('after') after: unknown,
    @Query('before') before: unknown,
    @Req() request: RequestUrl,
  ): Promise<ProductPageResponse | Response> {
    // A bad sort or cursor is a 400 before any query, also under an old slug (as a bad limit is, by its pipe).
    const query = this.products.pageQuery({ limit, sort, after, before, categoryId: id, timeZone: 'UTC' });
    const category = await this.categories.findById(id);
    const canonical = `${category.url}/products`;
    if (canonical !== `/categories/${path.id}/${path.slug}/products`) {
      return movedPermanently(`${canonical}${queryOf(request)}`);
    }
    return this.products.listPage(query);
  }
}

/** `?…` of the request as it was sent, or `''`: a redirect keeps the page the client asked for. */
function queryOf(request: RequestUrl): string {
  const url = request.originalUrl ?? request.url;
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at);
}
