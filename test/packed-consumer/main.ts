// A consumer app compiled with tsc against the packed nestjs-objectid tarball,
// importing it by package name only. The packed-package spec builds and runs it.
import 'reflect-metadata';
import { Body, Controller, Get, Injectable, Module, Param, Post } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { NestFactory } from '@nestjs/core';
import mongoose, { Types } from 'mongoose';
import {
  decodeObjectId,
  IsObjectId,
  ObjectIdModule,
  ObjectIdValidationPipe,
  ParseObjectIdPipe,
  SequenceService,
  ToObjectId,
} from 'nestjs-objectid';
import { EmbeddedMongoServer } from 'nestjs-objectid/testing';

class CreateOrderDto {
  @IsObjectId()
  @ToObjectId()
  customerId!: Types.ObjectId;
}

@Injectable()
class OrdersService {
  constructor(private readonly sequences: SequenceService) {}

  nextNumber(): Promise<string> {
    return this.sequences.nextFormatted('orders');
  }
}

@Controller('items')
class ItemsController {
  constructor(private readonly orders: OrdersService) {}

  @Get(':id')
  findOne(@Param('id', ParseObjectIdPipe) id: Types.ObjectId) {
    // Returned as an ObjectId (and a Decimal128): the serializer hook writes both as strings.
    return { _id: id, price: Types.Decimal128.fromString('9.99'), isObjectId: id instanceof Types.ObjectId };
  }

  @Post()
  async create(@Body() dto: CreateOrderDto) {
    return {
      customerId: dto.customerId,
      isObjectId: dto.customerId instanceof Types.ObjectId,
      number: await this.orders.nextNumber(),
    };
  }
}

const server = await EmbeddedMongoServer.start();

@Module({
  imports: [
    MongooseModule.forRoot(server.uri, { dbName: 'consumer' }),
    ObjectIdModule.forRoot({
      isGlobal: true,
      errorHttpStatusCode: 422,
      serializer: { global: true },
      sequences: { definitions: { orders: { format: 'ORD-{seq:4}' } } },
    }),
  ],
  controllers: [ItemsController],
  providers: [OrdersService],
})
class AppModule {}

const results: Record<string, unknown> = {};
const connection = await mongoose.createConnection(server.uri).asPromise();
const Thing = connection.model('Thing', new mongoose.Schema({ name: String }));
const thing = await Thing.create({ name: 'packed' });
results.storedId = decodeObjectId(thing._id.toHexString()).hex === thing._id.toHexString();

const app = await NestFactory.create(AppModule, { logger: false });
app.useGlobalPipes(new ObjectIdValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }));
await app.listen(0, '127.0.0.1');
const base = await app.getUrl();
const id = thing._id.toHexString();
results.sentId = id;
const call = async (path: string, init?: RequestInit) => {
  const res = await fetch(base + path, init);
  return { status: res.status, body: await res.json() };
};
results.param = await call(`/items/${id}`);
results.badParam = await call('/items/abc');
results.body = await call('/items', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ customerId: id }),
});
results.secondBody = await call('/items', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ customerId: id }),
});
results.badBody = await call('/items', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ customerId: { $gt: '' } }),
});
await app.close();
await connection.close();
await server.stop();
console.log(JSON.stringify(results));
