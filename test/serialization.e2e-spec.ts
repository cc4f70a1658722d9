import 'reflect-metadata';
import {
  ClassSerializerInterceptor,
  Controller,
  Get,
  Module,
  SerializeOptions,
  StreamableFile,
  type INestApplication,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Exclude, Expose } from 'class-transformer';
import mongoose, { Schema, Types } from 'mongoose';
import request from 'supertest';
import { ExposeId, ObjectIdSerializerModule } from '../src/serialization/index.js';

const hex = (n: number): string => n.toString(16).padStart(24, '0');
const oid = (n: number): Types.ObjectId => new Types.ObjectId(hex(n));
const HEX_A = '64b7f0c2a1b2c3d4e5f60718';
const A = new Types.ObjectId(HEX_A);

const connection = mongoose.createConnection();
const Line = new Schema({ sku: String, productId: Schema.Types.ObjectId });
const Order = connection.model(
  'E2eOrder',
  new Schema({ name: String, ownerId: Schema.Types.ObjectId, lines: [Line] }, { toJSON: { virtuals: true } }),
);

function order(n: number): InstanceType<typeof Order> {
  return Order.hydrate({
    _id: oid(n),
    name: `order ${n}`,
    ownerId: oid(n + 1_000_000),
    lines: [{ _id: oid(n + 2_000_000), sku: 's', productId: oid(7) }],
    __v: 1,
  });
}
const orderJson = (n: number): string =>
  `{"_id":"${hex(n)}","name":"order ${n}","ownerId":"${hex(n + 1_000_000)}","lines":[{"_id":"${hex(n + 2_000_000)}","sku":"s","productId":"${hex(7)}"}],"id":"${hex(n)}"}`;

class UserEntity {
  _id = A;
  name = 'ann';
  @Exclude() password = 'secret';
  @Expose({ groups: ['admin'] }) email = 'ann@example.com';
  teamIds = [oid(1), oid(2)];
}

class UserDto {
  @Expose() _id!: string;
  @Expose() name!: string;
}

@ExposeId()
class ProductEntity {
  _id = oid(42);
  title = 'lamp';
}

@Controller()
class FixtureController {
  @Get('doc') doc() {
    return order(1);
  }
  @Get('lean') lean() {
    return { _id: A, tags: ['a'], ownerId: oid(9), nested: { refs: [oid(10), oid(11)] } };
  }
  @Get('user') user() {
    return new UserEntity();
  }
  @Get('user/admin') @SerializeOptions({ groups: ['admin'] }) admin() {
    return new UserEntity();
  }
  @Get('typed') @SerializeOptions({ type: UserDto, excludeExtraneousValues: true }) typed() {
    return { _id: A, name: 'bob', password: 'leak' };
  }
  @Get('exposed') exposed() {
    return [new ProductEntity()];
  }
  @Get('page') page() {
    return { items: [order(1), order(2)], nextCursor: oid(2) };
  }
  @Get('many') many() {
    return Array.from({ length: 1000 }, (_, i) => order(i));
  }
  @Get('file') file() {
    return new StreamableFile(Buffer.from('raw bytes'));
  }
  @Get('number') number() {
    return 42;
  }
  // Nest 12 streams an async iterable as lines of JSON, each item serialized as the interceptor yields it.
  @Get('stream') async *stream() {
    yield { _id: oid(1), refs: [oid(2)] };
    yield order(3);
  }
  @Get('response') response() {
    return new Response('plain body', { headers: { 'content-type': 'text/plain' } });
  }
}

@Module({ imports: [ObjectIdSerializerModule], controllers: [FixtureController] })
class SerializedModule {}

@Module({
  controllers: [FixtureController],
  providers: [{ provide: APP_INTERCEPTOR, useClass: ClassSerializerInterceptor }],
})
class PlainNestModule {}

const FORBIDDEN = ['"buffer"', '"i0"', '"$__"', '"_doc"', '"__v"', 'secret'];

describe.each<[string, () => FastifyAdapter | undefined]>([
  ['express', () => undefined],
  ['fastify', () => new FastifyAdapter()],
])('ObjectIdSerializerInterceptor on %s', (kind, adapter) => {
  async function start(module: object, quiet = false): Promise<INestApplication> {
    const ref = await Test.createTestingModule({ imports: [module as never] }).compile();
    const httpAdapter = adapter();
    const app = httpAdapter === undefined ? ref.createNestApplication() : ref.createNestApplication(httpAdapter);
    // The plain-Nest app logs the stack overflow it runs into; that is the point, not noise to read.
    if (quiet) app.useLogger(false);
    await app.init();
    if (kind === 'fastify') await (app.getHttpAdapter().getInstance() as { ready(): Promise<void> }).ready();
    return app;
  }

  describe('with the serializer', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await start(SerializedModule);
    });
    afterAll(async () => {
      await app.close();
    });

    it.each<[string, string]>([
      ['/doc', orderJson(1)],
      ['/lean', `{"_id":"${HEX_A}","tags":["a"],"ownerId":"${hex(9)}","nested":{"refs":["${hex(10)}","${hex(11)}"]}}`],
      ['/user', `{"_id":"${HEX_A}","name":"ann","teamIds":["${hex(1)}","${hex(2)}"]}`],
      ['/user/admin', `{"_id":"${HEX_A}","name":"ann","email":"ann@example.com","teamIds":["${hex(1)}","${hex(2)}"]}`],
      ['/typed', `{"_id":"${HEX_A}","name":"bob"}`],
      ['/exposed', `[{"id":"${hex(42)}","title":"lamp"}]`],
      ['/page', `{"items":[${orderJson(1)},${orderJson(2)}],"nextCursor":"${hex(2)}"}`],
      ['/many', `[${Array.from({ length: 1000 }, (_, i) => orderJson(i)).join(',')}]`],
    ])('should answer GET %s with exactly the expected JSON', async (path, expected) => {
      const res = await request(app.getHttpServer()).get(path).expect(200);
      expect(res.text).toBe(expected);
      for (const token of FORBIDDEN) expect(res.text).not.toContain(token);
    });

    it('should answer with the stored ids, never new ones', async () => {
      const res = await request(app.getHttpServer()).get('/many').expect(200);
      const body = JSON.parse(res.text) as { _id: string; lines: { _id: string }[] }[];
      expect(body.map((o) => o._id)).toEqual(Array.from({ length: 1000 }, (_, i) => hex(i)));
      expect(body.map((o) => o.lines[0]._id)).toEqual(Array.from({ length: 1000 }, (_, i) => hex(i + 2_000_000)));
    });

    it('should serialize each item of a streamed body as Nest streams it, line by line', async () => {
      const res = await request(app.getHttpServer()).get('/stream').buffer(true).expect(200);
      const lines = String(res.text).trim().split('\n');
      expect(lines).toEqual([`{"_id":"${hex(1)}","refs":["${hex(2)}"]}`, orderJson(3)]);
    });

    it('should pass a web Response through unchanged', async () => {
      const res = await request(app.getHttpServer()).get('/response').buffer(true).expect(200);
      expect(res.text).toBe('plain body');
    });

    it('should pass a StreamableFile and a number through', async () => {
      const file = await request(app.getHttpServer()).get('/file').buffer(true).expect(200);
      expect(Buffer.from(file.body as Buffer).toString()).toBe('raw bytes');
      const number = await request(app.getHttpServer()).get('/number').expect(200);
      expect(number.text).toBe('42');
    });
  });

  describe("with Nest's ClassSerializerInterceptor and class-transformer (the bug)", () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await start(PlainNestModule, true);
    });
    afterAll(async () => {
      await app.close();
    });

    it('should copy the fields of ObjectIds instead of their hex', async () => {
      const res = await request(app.getHttpServer()).get('/lean').expect(200);
      expect(res.text).toMatch(/^\{"_id":\{"i0":\d+,"i1":\d+,"i2":\d+,"i3":\d+\},"tags":\["a"\],"ownerId":\{"i0"/);
    });

    it('should fail on a hydrated document with a subdocument array', async () => {
      // class-transformer recurses into the subdocument array's parent links: "Maximum call stack size exceeded".
      await request(app.getHttpServer()).get('/doc').expect(500);
    });
  });
});
