import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { PRODUCT_SORTS } from './parse-product-sort.pipe.js';

/** Longest cursor a product list accepts (the library's default), documented as such. */
const MAX_CURSOR_LENGTH = 1024;

/** Swagger docs of `sort`, `after` and `before`, shared by both product lists. */
export function ApiProductPageQuery(): MethodDecorator {
  const cursor = { type: 'string', maxLength: MAX_CURSOR_LENGTH, pattern: '^[A-Za-z0-9_-]+$' };
  return applyDecorators(
    ApiQuery({
      name: 'sort',
      required: false,
      description:
        'Order of the list: a field, descending with a leading "-"; ties are broken by id in the same direction',
      schema: { type: 'string', enum: PRODUCT_SORTS, default: '_id' },
    }),
    ApiQuery({
      name: 'after',
      required: false,
      description:
        'nextCursor of the previous page (the page after it); send the same sort. In id order a product id works too',
      schema: cursor,
    }),
    ApiQuery({
      name: 'before',
      required: false,
      description: 'previousCursor of the following page (the page before it); send the same sort',
      schema: cursor,
    }),
  );
}
