// A consumer app compiled with tsc against the packed nestjs-objectid tarball,
// importing it by package name only. The packed-package spec builds and runs it.
import 'reflect-metadata';
import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import mongoose, { Types } from 'mongoose';
import {
  decodeObjectId,
  IsObjectId,
  ObjectIdModule,
  ObjectIdValidationPipe,
  ParseObjectIdPipe,
  ToObjectId,
} from 'nestjs-objectid';
import { EmbeddedMongoServer } from 'nestjs-objectid/testing';

class CreateOrderDto {
  @IsObjectId()
  @ToObjectId()
  customerId!: Types.ObjectId;
}

@Controller('items')
class ItemsController {
  @Get(':id')
  findOne(@Param('id', ParseObjectIdPipe) id: Types.ObjectId) {
    return { id: id.toHexString(), isObjectId: id instanceof Types.ObjectId };
  }

  @Post()
  create(@Body() dto: CreateOrderDto) {
    return { customerId: dto.customerId.toHexString(), isObjectId: dto.customerId instanceof Types.ObjectId };
  }
}

@Module({
  imports: [ObjectIdModule.forRoot({ isGlobal: true, errorHttpStatusCode: 422 })],
  controllers: [ItemsController],
})
class AppModule {}

const results: Record<string, unknown> = {};
const server = await EmbeddedMongoServer.start();
const connection = await mongoose.createConnection(server.uri).asPromise();
const Thing = connection.model('Thing', new mongoose.Schema({ name: String }));
const thing = await Thing.create({ name: 'packed' });
results.storedId = decodeObjectId(thing._id.toHexString()).hex === thing._id.toHexString();

const app = await NestFactory.create(AppModule, { logger: false });
app.useGlobalPipes(new ObjectIdValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }));
await app.listen(0, '127.0.0.1');
const base = await app.getUrl();
const id = thing._id.toHexString();
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
results.badBody = await call('/items', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ customerId: { $gt: '' } }),
});
await app.close();
await connection.close();
await server.stop();
console.log(JSON.stringify(results));
