/**
 * The server half of `npm run load`'s overhead measurement, run in its own
 * process so that autocannon (in the parent) does not share its event loop:
 * one in-memory handler, served with and without ParseObjectIdPipe +
 * ObjectIdSerializerInterceptor, and with a no-op pipe + no-op interceptor
 * (what Nest's pipeline itself costs). Prints `READY <url>` when it listens.
 * `GET /cpu` answers this process's CPU time so far (µs), so that the parent
 * can divide each run's CPU by its requests: a figure that a busy machine
 * moves far less than requests/s, since autocannon shares the same cores.
 */
import 'reflect-metadata';
import {
  type CallHandler,
  Controller,
  Get,
  Injectable,
  Module,
  type NestInterceptor,
  NotFoundException,
  Param,
  type PipeTransform,
  UseInterceptors,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Types } from 'mongoose';
import { ParseObjectIdPipe } from 'nestjs-objectid';
import { ObjectIdSerializerInterceptor } from 'nestjs-objectid/serialization';

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

/** Does nothing: what any pipe costs in Nest's request pipeline, for comparison. */
@Injectable()
class NoopPipe implements PipeTransform {
  transform(value: unknown) {
    return value;
  }
}

/** Does nothing: what any interceptor costs in Nest's request pipeline, for comparison. */
@Injectable()
class NoopInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler) {
    return next.handle();
  }
}

@Controller()
class OverheadController {
  @Get('cpu')
  cpu() {
    const { user, system } = process.cpuUsage();
    return { micros: user + system };
  }

  @Get('without/:id')
  without(@Param('id') id: string) {
    const product = PRODUCTS.get(id.toLowerCase());
    if (!product) throw new NotFoundException();
    return product; // ObjectId#toJSON writes hex: the same JSON as the other route
  }

  @Get('noop/:id')
  @UseInterceptors(NoopInterceptor)
  noop(@Param('id', NoopPipe) id: string) {
    return this.without(id);
  }

  @Get('with/:id')
  @UseInterceptors(ObjectIdSerializerInterceptor)
  with(@Param('id', ParseObjectIdPipe) id: Types.ObjectId) {
    const product = PRODUCTS.get(id.toHexString());
    if (!product) throw new NotFoundException();
    return product;
  }
}

@Module({ controllers: [OverheadController], providers: [NoopPipe, NoopInterceptor] })
class OverheadModule {}

const app = await NestFactory.create(OverheadModule, { logger: false });
await app.listen(0, '127.0.0.1');
console.log(`READY ${(await app.getUrl()).replace('[::1]', '127.0.0.1')}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void app.close().then(() => process.exit(0)));
