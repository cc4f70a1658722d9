import {
  BadRequestException,
  Injectable,
  NotFoundException,
  UnprocessableEntityException,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model, Types } from 'mongoose';
import {
  type IdCondition,
  KeysetPaginationError,
  type KeysetSort,
  keysetQuery,
  mergeIdConditions,
  objectIdRange,
  toKeysetPage,
  tryParseObjectId,
} from 'nestjs-objectid';
import { CategoriesService } from '../categories/categories.service.js';
import type { DateFilter } from '../common/pipes/date-filter.js';
import { backfillSlugs, updateWithSlugHistory } from '../common/slug-history.js';
import { slugOrDerive, withUniqueSlug } from '../common/unique-slug.js';
import type { CreateProductDto } from './dto/create-product.dto.js';
import type { ProductPageResponse, ProductResponse } from './dto/product.response.js';
import type { UpdateProductDto } from './dto/update-product.dto.js';
import { Product } from './schemas/product.schema.js';

/** Filters and page of `GET /products`, already parsed by the controller's pipes. */
export interface ListProductsOptions {
  limit: number;
  /** The order (`_id` ascending unless asked), from ParseProductSortPipe. */
  sort: KeysetSort;
  /** `nextCursor` of the previous page as the client sent it (any value: the library checks it). */
  after?: unknown;
  /** `previousCursor` of the following page, likewise. */
  before?: unknown;
  categoryId?: Types.ObjectId;
  ids?: Types.ObjectId[];
  /** Inclusive lower bound of the creation time: an instant, or a day from its midnight in `timeZone`. */
  createdFrom?: DateFilter;
  /** Exclusive upper bound of the creation time: an instant, or a day from its midnight in `timeZone`. */
  createdTo?: DateFilter;
  /** A whole day `YYYY-MM-DD` in `timeZone`. */
  createdOn?: DateFilter;
  /** IANA zone of every day in the filters above. */
  timeZone: string;
}

interface ProductFilter {
  _id?: IdCondition;
  categoryId?: Types.ObjectId;
}

const UPDATABLE_FIELDS = ['name', 'slug', 'price', 'categoryId', 'relatedIds'] as const;

/**
 * Products: CRUD with a unique slug and slug history, keyset pages, and time
 * filters read from `_id`.
 */
@Injectable()
export class ProductsService implements OnModuleInit {
  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly categories: CategoriesService,
  ) {}

  /** The unique slug indexes must exist before the first insert, or duplicates could slip in. */
  async onModuleInit(): Promise<void> {
    await this.products.init();
    await backfillSlugs(this.products);
  }

  async create(dto: CreateProductDto): Promise<ProductResponse> {
    const slug = slugOrDerive(dto.slug, dto.name);
    const relatedIds = dto.relatedIds ?? [];
    await this.assertReferencesExist(dto.categoryId, relatedIds);
    const created = await withUniqueSlug(slug, () =>
      this.products.create({
        name: dto.name,
        slug,
        slugs: [slug],
        price: dto.price,
        categoryId: dto.categoryId,
        relatedIds,
      }),
    );
    // The plain object, as the lean reads give: one mapping, one response shape whatever the load path.
    return toProductResponse(created.toObject());
  }

  async findById(id: Types.ObjectId): Promise<ProductResponse> {
    const product = await this.products.findById(id).lean();
    if (product === null) throw productNotFound(id);
    return toProductResponse(product);
  }

  /**
   * The product that has or had this slug: its `slug` is the current one,
   * which the caller compares to redirect an old one. One look-up in the
   * unique `slugs` index.
   */
  async findBySlug(slug: string): Promise<ProductResponse> {
    const product = await this.products.findOne({ slugs: slug }).lean();
    if (product === null) throw new NotFoundException(`product with slug ${JSON.stringify(slug)} not found`);
    return toProductResponse(product);
  }

  /**
   * One page in the asked order, after or before a cursor. Every time filter
   * becomes bounds on `_id`; in `_id` order they are merged with the cursor
   * into a single `_id` condition, so the query is one range scan of the `_id`
   * index (or of `{ categoryId, _id }`); in another order it walks
   * `{ field, _id }` (or `{ categoryId, field, _id }`).
   */
  async list(options: ListProductsOptions): Promise<ProductPageResponse> {
    return this.listPage(this.pageQuery(options));
  }

  /**
   * The query of a page, checked: a bad sort or cursor is a 400 here, so a
   * caller can refuse it before asking the database anything else.
   */
  pageQuery(options: ListProductsOptions): ProductPageQuery {
    const filter: ProductFilter = {};
    if (options.categoryId) filter.categoryId = options.categoryId;
    const _id = mergeIdConditions(
      options.ids && { $in: options.ids },
      createdBetween(options.createdFrom, options.createdTo, options.timeZone),
      options.createdOn === undefined ? undefined : createdOn(options.createdOn, options.timeZone),
    );
    if (_id) filter._id = _id;
    return productPageQuery(filter, options);
  }

  /** Runs a query of `pageQuery()`: one `find`, limit + 1 documents, cursors both ways. */
  async listPage(query: ProductPageQuery): Promise<ProductPageResponse> {
    const documents = await this.products.find(query.filter).sort(query.sort).limit(query.limit).lean<Product[]>();
    const page = toKeysetPage(documents, query);
    return { ...page, items: page.items.map(toProductResponse) };
  }

  async update(id: Types.ObjectId, dto: UpdateProductDto): Promise<ProductResponse> {
    // Only known fields, copied one by one: nothing from the body reaches the update as an operator.
    const $set: Partial<Pick<Product, (typeof UPDATABLE_FIELDS)[number]>> = {};
    for (const field of UPDATABLE_FIELDS) {
      const value = dto[field];
      if (value === null) {
        throw new BadRequestException(`${field} cannot be null; leave it out to keep the current value`);
      }
      if (value !== undefined) Object.assign($set, { [field]: value });
    }
    await this.assertReferencesExist($set.categoryId, $set.relatedIds ?? [], id);
    // A new name brings a new slug; the old one stays in the history and redirects.
    const updated = await updateWithSlugHistory(this.products, id, $set, 'product');
    if (updated === null) throw productNotFound(id);
    return toProductResponse(updated);
  }

  async remove(id: Types.ObjectId): Promise<void> {
    const { deletedCount } = await this.products.deleteOne({ _id: id });
    if (deletedCount === 0) throw productNotFound(id);
  }

  /** Loads products by id for an order; the caller decides what a missing one means. */
  async findMany(ids: Types.ObjectId[]): Promise<Pick<Product, '_id' | 'price' | 'name'>[]> {
    return this.products.find({ _id: { $in: ids } }, { _id: 1, price: 1, name: 1 }).lean();
  }

  /** 422 when the category or a related product does not exist: the body is well-formed but points nowhere. */
  private async assertReferencesExist(
    categoryId: Types.ObjectId | undefined,
    relatedIds: Types.ObjectId[],
    self?: Types.ObjectId,
  ): Promise<void> {
    if (categoryId && !(await this.categories.exists(categoryId))) {
      throw new UnprocessableEntityException(
        `category ${categoryId.toHexString()} does not exist; create it with POST /categories or pick one from GET /categories`,
      );
    }
    if (self && relatedIds.some((related) => related.equals(self))) {
      throw new UnprocessableEntityException('relatedIds must not contain the product itself');
    }
    if (relatedIds.length === 0) return;
    const found = await this.products.find({ _id: { $in: relatedIds } }, { _id: 1 }).lean();
    const missing = relatedIds.filter((id) => !found.some((product) => product._id.equals(id)));
    if (missing.length > 0) {
      throw new UnprocessableEntityException(
        `related products do not exist: ${missing.map((id) => id.toHexString()).join(', ')}`,
      );
    }
  }
}

/** A checked page query of `ProductsService.pageQuery()`. */
export type ProductPageQuery = ReturnType<typeof keysetQuery>;

/**
 * The library's keyset query for a page (limit + 1 documents, the cursor
 * merged into the filter), with a bad sort or cursor as a 400. In `_id` order
 * a bare product id still works as `after`/`before`: it is the whole position
 * there, and links made before cursors were opaque keep working.
 */
function productPageQuery(filter: ProductFilter, options: ListProductsOptions): ProductPageQuery {
  const position = (value: unknown) => {
    if (value === undefined || value === '') return undefined;
    return (options.sort.field === '_id' && tryParseObjectId(value, { allowInstance: false })) || (value as string);
  };
  try {
    return keysetQuery(
      { ...filter },
      { sort: options.sort, after: position(options.after), before: position(options.before), limit: options.limit },
    );
  } catch (error) {
    throw error instanceof KeysetPaginationError ? new BadRequestException(error.message) : error;
  }
}

function productNotFound(id: Types.ObjectId): NotFoundException {
  return new NotFoundException(`product ${id.toHexString()} not found`);
}

/** The last second a 4-byte ObjectId timestamp can hold. */
const LAST_OBJECT_ID_SECOND = new Date('2106-02-07T06:28:15Z');

/**
 * `[from, to)` as `_id` bounds; either side may be open. A day stands for its
 * midnight in `timeZone`; each bound is one an ObjectId can hold (400 otherwise,
 * from DateFilter), so only their order is left to check.
 */
function createdBetween(
  from: DateFilter | undefined,
  to: DateFilter | undefined,
  timeZone: string,
): IdCondition | undefined {
  if (from === undefined && to === undefined) return undefined;
  const start = from?.startIn(timeZone);
  const end = to?.startIn(timeZone);
  if (start && end && end < start) {
    throw new BadRequestException(
      `createdFrom must not be after createdTo: ${start.toISOString()} is after ${end.toISOString()}`,
    );
  }
  const range = objectIdRange(start ?? 0, end ?? LAST_OBJECT_ID_SECOND);
  return { ...(start && { $gte: range.$gte }), ...(end && { $lt: range.$lt }) };
}

/** The day's `_id` bounds in `timeZone` (400 from DateFilter for a day no ObjectId can hold). */
function createdOn(day: DateFilter, timeZone: string): IdCondition {
  return objectIdRange(day.startIn(timeZone), day.endIn(timeZone));
}

/** Canonical URL of a product: `/products/<id>/<slug>`, relative. */
export function productUrl(id: Types.ObjectId, slug: string): string {
  return `/products/${id.toHexString()}/${slug}`;
}

/**
 * Maps a stored product (a lean result or `toObject()`) to the response:
 * exactly these fields, so stored extras (`__v`, `slugs`) never leak and a
 * document stored before `relatedIds` existed answers `[]`, as a hydrated one
 * would; `createdAt` comes from the `_id`.
 */
export function toProductResponse(product: Product): ProductResponse {
  return {
    id: product._id,
    name: product.name,
    slug: product.slug,
    url: productUrl(product._id, product.slug),
    price: product.price,
    categoryId: product.categoryId,
    relatedIds: product.relatedIds ?? [],
    createdAt: product._id.getTimestamp(),
  };
}
