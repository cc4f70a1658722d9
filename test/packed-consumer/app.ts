// A consumer app that uses every entry point of the packed nestjs-objectid
// tarball, by package name only, against the packed embedded server. The
// packed-package spec compiles it twice: as an ES module app (NestJS 12,
// mongoose 9) and as a CommonJS one (NestJS 11, mongoose 8, Nest's default
// tsconfig), and runs each with node and, for CommonJS, with Jest + ts-jest.
import 'reflect-metadata';
import { Body, Controller, Get, Injectable, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MongooseModule } from '@nestjs/mongoose';
import { createConnection, Schema, Types } from 'mongoose';
import {
  decodeObjectId,
  IsObjectId,
  ObjectIdModule,
  ObjectIdValidationPipe,
  ParseObjectIdPipe,
  ToObjectId,
} from 'nestjs-objectid';
import { SequenceModule, SequenceService } from 'nestjs-objectid/sequence';
import { ObjectIdSerializerModule } from 'nestjs-objectid/serialization';
import { ApiObjectIdProperty } from 'nestjs-objectid/swagger';
import { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';

class CreateOrderDto {
  @ApiObjectIdProperty()
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
    // Returned as an ObjectId (and a Decimal128): the serializer writes both as strings.
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

/** Starts the server and the app, sends the requests, stops everything and returns what it saw. */
export async function run(): Promise<Record<string, unknown>> {
  const server = await EmbeddedMongoServer.start();

  @Module({
    imports: [
      MongooseModule.forRoot(server.uri, { dbName: 'consumer' }),
      ObjectIdModule.forRoot({ isGlobal: true, errorHttpStatusCode: 422 }),
      ObjectIdSerializerModule,
      SequenceModule.forRoot({ definitions: { orders: { format: 'ORD-{seq:4}' } } }),
    ],
    controllers: [ItemsController],
    providers: [OrdersService],
  })
  class AppModule {}

  const results: Record<string, unknown> = {};
  const connection = await createConnection(server.uri).asPromise();
  const Thing = connection.model('Thing', new Schema({ name: String }));
  const thing = await Thing.create({ name: 'packed' });
  results.storedId = decodeObjectId(thing._id.toHexString()).hex === thing._id.toHexString();

  const app = await NestFactory.create(AppModule, { logger: false });
  app.useGlobalPipes(new ObjectIdValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }));
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const id = thing._id.toHexString();
  results.sentId = id;
  const call = async (path: string, body?: unknown) => {
    const res = await fetch(
      base + path,
      body === undefined
        ? undefined
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    return { status: res.status, body: await res.json() };
  };
  try {
    results.param = await call(`/items/${id}`);
    results.badParam = await call('/items/abc');
    results.body = await call('/items', { customerId: id });
    results.secondBody = await call('/items', { customerId: id });
    results.badBody = await call('/items', { customerId: { $gt: '' } });
  } finally {
    await app.close();
    await connection.close();
    await server.stop();
  }
  return results;
}
