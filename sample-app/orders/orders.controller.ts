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
import { CreateOrderDto } from './dto/create-order.dto.js';
import { OrderResponse } from './dto/order.response.js';
import { OrdersService } from './orders.service.js';

@ApiTags('orders')
@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post()
  @ApiCreatedResponse({ type: OrderResponse })
  @ApiBadRequestResponse({ description: 'Invalid body: 1 to 50 items, quantities 1 to 1000, each product once' })
  @ApiUnprocessableEntityResponse({ description: 'A product does not exist (no order number is used up)' })
  @ApiServiceUnavailableResponse({ description: 'The database cannot be reached' })
  create(@Body() dto: CreateOrderDto): Promise<OrderResponse> {
    return this.orders.create(dto);
  }

  @Get('by-number/:number')
  @ApiOkResponse({ type: OrderResponse })
  @ApiNotFoundResponse({ description: 'No order has this number' })
  findByNumber(@Param('number') number: string): Promise<OrderResponse> {
    return this.orders.findByNumber(number);
  }

  @Get(':id')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: OrderResponse })
  @ApiBadRequestResponse({ description: 'The id is not 24 hex characters' })
  @ApiNotFoundResponse({ description: 'No order has this id' })
  findOne(@Param('id', ParseObjectIdPipe) id: Types.ObjectId): Promise<OrderResponse> {
    return this.orders.findById(id);
  }
}
