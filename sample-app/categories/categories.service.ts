import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model, Types } from 'mongoose';
import { slugOrDerive, withUniqueSlug } from '../common/unique-slug.js';
import type { CategoryResponse } from './dto/category.response.js';
import type { CreateCategoryDto } from './dto/create-category.dto.js';
import { Category } from './schemas/category.schema.js';

/** Categories: creation with a unique slug, listing, existence checks for products. */
@Injectable()
export class CategoriesService implements OnModuleInit {
  constructor(@InjectModel(Category.name) private readonly categories: Model<Category>) {}

  /** The unique slug index must exist before the first insert, or duplicates could slip in. */
  async onModuleInit(): Promise<void> {
    await this.categories.init();
  }

  async create(dto: CreateCategoryDto): Promise<CategoryResponse> {
    const slug = slugOrDerive(dto.slug, dto.name);
    const created = await withUniqueSlug(slug, () => this.categories.create({ name: dto.name, slug }));
    return toCategoryResponse(created);
  }

  /** Every category in creation order (`_id` order). */
  async findAll(): Promise<CategoryResponse[]> {
    const categories = await this.categories.find().sort({ _id: 1 }).limit(1000).lean();
    return categories.map(toCategoryResponse);
  }

  /** Whether a category with this id exists. */
  async exists(id: Types.ObjectId): Promise<boolean> {
    return (await this.categories.exists({ _id: id })) !== null;
  }
}

/** Maps a stored category to the response; `createdAt` comes from the `_id`. */
export function toCategoryResponse(category: Pick<Category, '_id' | 'name' | 'slug'>): CategoryResponse {
  return { id: category._id, name: category.name, slug: category.slug, createdAt: category._id.getTimestamp() };
}
