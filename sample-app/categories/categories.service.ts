import { BadRequestException, Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model, Types } from 'mongoose';
import { backfillSlugs, updateWithSlugHistory } from '../common/slug-history.js';
import { slugOrDerive, withUniqueSlug } from '../common/unique-slug.js';
import type { CategoryResponse } from './dto/category.response.js';
import type { CreateCategoryDto } from './dto/create-category.dto.js';
import type { UpdateCategoryDto } from './dto/update-category.dto.js';
import { Category } from './schemas/category.schema.js';

const UPDATABLE_FIELDS = ['name', 'slug'] as const;

/**
 * Categories: creation and renaming with a unique slug and slug history,
 * look-ups, existence checks for products.
 */
@Injectable()
export class CategoriesService implements OnModuleInit {
  constructor(@InjectModel(Category.name) private readonly categories: Model<Category>) {}

  /** The unique slug indexes must exist before the first insert, or duplicates could slip in. */
  async onModuleInit(): Promise<void> {
    await this.categories.init();
    await backfillSlugs(this.categories);
  }

  async create(dto: CreateCategoryDto): Promise<CategoryResponse> {
    const slug = slugOrDerive(dto.slug, dto.name);
    const created = await withUniqueSlug(slug, () => this.categories.create({ name: dto.name, slug, slugs: [slug] }));
    // The plain object, as the lean reads give: one mapping, one response shape whatever the load path.
    return toCategoryResponse(created.toObject());
  }

  /** Every category in creation order (`_id` order). */
  async findAll(): Promise<CategoryResponse[]> {
    const categories = await this.categories.find().sort({ _id: 1 }).limit(1000).lean();
    return categories.map(toCategoryResponse);
  }

  async findById(id: Types.ObjectId): Promise<CategoryResponse> {
    const category = await this.categories.findById(id).lean();
    if (category === null) throw categoryNotFound(id);
    return toCategoryResponse(category);
  }

  /**
   * The category that has or had this slug: its `slug` is the current one,
   * which the caller compares to redirect an old one.
   */
  async findBySlug(slug: string): Promise<CategoryResponse> {
    const category = await this.categories.findOne({ slugs: slug }).lean();
    if (category === null) throw new NotFoundException(`category with slug ${JSON.stringify(slug)} not found`);
    return toCategoryResponse(category);
  }

  async update(id: Types.ObjectId, dto: UpdateCategoryDto): Promise<CategoryResponse> {
    // Only known fields, copied one by one: nothing from the body reaches the update as an operator.
    const $set: Partial<Pick<Category, (typeof UPDATABLE_FIELDS)[number]>> = {};
    for (const field of UPDATABLE_FIELDS) {
      const value = dto[field];
      if (value === null) {
        throw new BadRequestException(`${field} cannot be null; leave it out to keep the current value`);
      }
      if (value !== undefined) $set[field] = value;
    }
    // A new name brings a new slug; the old one stays in the history and redirects.
    const updated = await updateWithSlugHistory(this.categories, id, $set, 'category');
    if (updated === null) throw categoryNotFound(id);
    return toCategoryResponse(updated);
  }

  /** Whether a category with this id exists. */
  async exists(id: Types.ObjectId): Promise<boolean> {
    return (await this.categories.exists({ _id: id })) !== null;
  }
}

function categoryNotFound(id: Types.ObjectId): NotFoundException {
  return new NotFoundException(`category ${id.toHexString()} not found`);
}

/** Canonical URL of a category: `/categories/<id>/<slug>`, relative. */
export function categoryUrl(id: Types.ObjectId, slug: string): string {
  return `/categories/${id.toHexString()}/${slug}`;
}

/**
 * Maps a stored category (a lean result or `toObject()`) to the response:
 * exactly these fields, so stored extras (`__v`, `slugs`) never leak;
 * `createdAt` comes from the `_id`.
 */
export function toCategoryResponse(category: Pick<Category, '_id' | 'name' | 'slug'>): CategoryResponse {
  return {
    id: category._id,
    name: category.name,
    slug: category.slug,
    url: categoryUrl(category._id, category.slug),
    createdAt: category._id.getTimestamp(),
  };
}
