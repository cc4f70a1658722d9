import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { ParseObjectIdPipe } from 'nestjs-objectid';
import { ApiObjectIdParam } from 'nestjs-objectid/swagger';
import { errorExample, ErrorResponse, INVALID_ID_DESCRIPTION, INVALID_ID_EXAMPLE } from '../common/error.response.js';
import { ApiDatabaseUnavailableResponse } from '../common/api-database-unavailable-response.decorator.js';
import { ParseOrderNumberPipe } from '../common/pipes/parse-order-number.pipe.js';
import { CreateOrderDto } from './dto/create-order.dto.js';
import { OrderResponse } from './dto/order.response.js';
import { ORDER_NUMBERS_BUSY_MESSAGE, OrdersService } from './orders.service.js';

@ApiTags('orders')
@ApiDatabaseUnavailableResponse()
@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post()
  @ApiCreatedResponse({ type: OrderResponse })
  @ApiBadRequestResponse({
    type: ErrorResponse,
    description: 'Invalid body: 1 to 50 items, quantities 1 to 1000, each product once',
    example: errorExample(400, ['items must contain at least 1 elements']),
  })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponse,
    description: 'A product does not exist (no order number is used up)',
    example: errorExample(422, 'products do not exist: 507f1f77bcf86cd799439011'),
  })
  @ApiServiceUnavailableResponse({
    type: ErrorResponse,
    description: 'The database cannot be reached, or (gap-free numbering) no order number could be taken within 5 s',
    example: errorExample(503, ORDER_NUMBERS_BUSY_MESSAGE),
  })
  create(@Body() dto: CreateOrderDto): Promise<OrderResponse> {
    return this.orders.create(dto);
  }

  @Get('by-number/:number')
  @ApiOkResponse({ type: OrderResponse })
  @ApiNotFoundResponse({
    type: ErrorResponse,
    description: 'No order has this number',
    example: errorExample(404, 'order "ORD-2026-000042" not found'),
  })
  @ApiBadRequestResponse({
    type: ErrorResponse,
    description: 'Not an order number such as ORD-2026-000042 (the database is not asked)',
    example: errorExample(
      400,
      'Validation failed (order number is expected): number "ORD-2026-42" must be ORD-, the year, - and a number of at least 6 digits 0-9, e.g. ORD-2026-000042',
    ),
  })
  findByNumber(@Param('number', ParseOrderNumberPipe) number: string): Promise<OrderResponse> {
    return this.orders.findByNumber(number);
  }

  @Get(':id')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: OrderResponse })
  @ApiBadRequestResponse({ type: ErrorResponse, description: INVALID_ID_DESCRIPTION, example: INVALID_ID_EXAMPLE })
  @ApiNotFoundResponse({
    type: ErrorResponse,
    description: 'No order has this id',
    example: errorExample(404, 'order 507f1f77bcf86cd799439011 not found'),
  })
  findOne(@Param('id', ParseObjectIdPipe) id: Types.ObjectId): Promise<OrderResponse> {
    return this.orders.findById(id);
  }
}
