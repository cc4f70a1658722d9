import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ProductsModule } from '../products/products.module.js';
import { OrdersController } from './orders.controller.js';
import { OrdersService } from './orders.service.js';
import { Order, OrderSchema } from './schemas/order.schema.js';

@Module({
  imports: [MongooseModule.forFeature([{ name: Order.name, schema: OrderSchema }]), ProductsModule],
  controllers: [OrdersController],
  // SequenceService comes from the global ObjectIdModule (AppModule), with the `orders` sequence defined there.
  providers: [OrdersService],
  // For the GraphQL resolver (sample-app/graphql).
  exports: [OrdersService],
})
export class OrdersModule {}
