/**
 * The server half of `npm run load`'s overhead measurement, run in its own
 * process so that autocannon (in the parent) does not share its event loop:
 * one in-memory handler, served with and without ParseObjectIdPipe +
 * ObjectIdSerializerInterceptor. Prints `READY <url>` when it listens.
 */
import 'reflect-metadata';
import { Controller, Get, Module, NotFoundException, Param, UseInterceptors } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Types } from 'mongoose';
import { ObjectIdSerializerInterceptor, ParseObjectIdPipe } from 'nestjs-objectid';

/** 100 products keyed by hex; ids are derived from an index so the parent can name them. */
export const PRODUCTS = new Map(
  Array.from({ length: 100 }, (_, i) => {
    const _id = new Types.ObjectId(i.toString(16).padStart(24, '0'));
    const product = {
      _id,
      name: 'Lamp',
      slug: `lamp-${i}`,
      price: 25,
      categoryId: new Types.ObjectId('6553f1003f2a91c8d4003039'),
      relatedIds: [new Types.ObjectId('6553f1003f2a91c8d400303a'), new Types.ObjectId('6553f1003f2a91c8d400303b')],
    };
    return [_id.toHexString(), product] as const;
  }),
);

@Controller()
class OverheadController {
  @Get('without/:id')
  without(@Param('id') id: string) {
    const product = PRODUCTS.get(id.toLowerCase());
    if (!product) throw new NotFoundException();
    return product; // ObjectId#toJSON writes hex: the same JSON as the other route
  }

  @Get('with/:id')
  @UseInterceptors(ObjectIdSerializerInterceptor)
  with(@Param('id', ParseObjectIdPipe) id: Types.ObjectId) {
    const product = PRODUCTS.get(id.toHexString());
    if (!product) throw new NotFoundException();
    return product;
  }
}

@Module({ controllers: [OverheadController] })
class OverheadModule {}

const app = await NestFactory.create(OverheadModule, { logger: false });
await app.listen(0, '127.0.0.1');
console.log(`READY ${(await app.getUrl()).replace('[::1]', '127.0.0.1')}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void app.close().then(() => process.exit(0)));
