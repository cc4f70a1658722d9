import { Body, Controller, Get, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CategoriesService } from './categories.service.js';
import { CategoryResponse } from './dto/category.response.js';
import { CreateCategoryDto } from './dto/create-category.dto.js';

@ApiTags('categories')
@Controller('categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Post()
  @ApiCreatedResponse({ type: CategoryResponse })
  @ApiBadRequestResponse({ description: 'Invalid body, or no slug could be derived from the name' })
  @ApiConflictResponse({ description: 'The slug is already taken' })
  create(@Body() dto: CreateCategoryDto): Promise<CategoryResponse> {
    return this.categories.create(dto);
  }

  @Get()
  @ApiOkResponse({ type: CategoryResponse, isArray: true, description: 'Sorted by id, i.e. creation order' })
  findAll(): Promise<CategoryResponse[]> {
    return this.categories.findAll();
  }
}
