import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import { KeysetPaginationError, parseKeysetSort, type KeysetSort } from 'nestjs-objectid';

/**
 * Fields a product list can be sorted by, besides `_id`, with the type each
 * holds. Each leads an index `{ field: 1, _id: 1 }` (and `{ categoryId: 1, field: 1, _id: 1 }`
 * for a category's list, see product.schema.ts): an unindexed sort would read
 * the whole collection for every page.
 */
export const PRODUCT_SORT_FIELDS = { price: 'number', name: 'string' } as const;

/** Every `sort=` a product list accepts, as written. */
export const PRODUCT_SORTS = ['_id', ...Object.keys(PRODUCT_SORT_FIELDS)].flatMap((field) => [field, `-${field}`]);

/**
 * Reads `?sort=` of a product list: `_id` (the default, oldest first), `-_id`
 * (newest first), `price`, `-price`, `name`, `-name`; anything else is a 400
 * naming the choices. An empty value is the default, as for the other filters.
 */
@Injectable()
export class ParseProductSortPipe implements PipeTransform<unknown, KeysetSort> {
  transform(value: unknown): KeysetSort {
    try {
      return parseKeysetSort(value === undefined || value === '' ? '_id' : value, PRODUCT_SORT_FIELDS);
    } catch (error) {
      throw error instanceof KeysetPaginationError ? new BadRequestException(error.message) : error;
    }
  }
}
