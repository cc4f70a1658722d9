import 'reflect-metadata';
import { Controller, Get, type INestApplication, UseInterceptors } from '@nestjs/common';
import { Types } from 'mongoose';

// Values whose JSON differs with and without the serializer: plain JSON.stringify
// writes Decimal128 as {"$numberDecimal":…} and a Set as {}.
const PRICE = Types.Decimal128.fromString('9.99');
import request from 'supertest';
import { ObjectIdModule, ObjectIdSerializerInterceptor } from '../src/index.js';
import { createApp, PLATFORMS } from './fixtures/create-app.js';

const ID = new Types.ObjectId('507f1f77bcf86cd799439011');

@Controller()
class PlainController {
  @Get('plain')
  plain() {
    return { _id: ID, price: PRICE, tags: new Set([ID]), __v: 3 };
  }
}

@Controller()
@UseInterceptors(ObjectIdSerializerInterceptor)
class ScopedController {
  @Get('scoped')
  scoped() {
    return { _id: ID, price: PRICE, __v: 3 };
  }
}

describe.each(PLATFORMS)('ObjectIdModule serializer on %s', (platform) => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('should register the interceptor globally with forRoot({ serializer: { global: true } })', async () => {
    app = await createApp(platform, {
      imports: [ObjectIdModule.forRoot({ serializer: { global: true } })],
      controllers: [PlainController],
    });
    const res = await request(app.getHttpServer()).get('/plain').expect(200);
    expect(res.text).toBe(
      '{"_id":"507f1f77bcf86cd799439011","price":"9.99","tags":["507f1f77bcf86cd799439011"],"__v":3}',
    );
  });

  it('should register it from forRootAsync too, with its options', async () => {
    app = await createApp(platform, {
      imports: [
        ObjectIdModule.forRootAsync({
          useFactory: async () => ({ errorHttpStatusCode: 422 }),
          serializer: { global: true, versionKey: true, exposeId: true },
        }),
      ],
      controllers: [PlainController],
    });
    const res = await request(app.getHttpServer()).get('/plain').expect(200);
    expect(JSON.parse(res.text)).toEqual({
      id: '507f1f77bcf86cd799439011',
      price: '9.99',
      tags: ['507f1f77bcf86cd799439011'],
      __v: 3,
    });
  });

  it('should leave responses alone without the serializer option', async () => {
    app = await createApp(platform, { imports: [ObjectIdModule.forRoot({})], controllers: [PlainController] });
    const res = await request(app.getHttpServer()).get('/plain').expect(200);
    expect(res.text).toBe('{"_id":"507f1f77bcf86cd799439011","price":{"$numberDecimal":"9.99"},"tags":{},"__v":3}');
  });

  it('should give @UseInterceptors(ObjectIdSerializerInterceptor) the module options', async () => {
    app = await createApp(platform, {
      imports: [ObjectIdModule.forRoot({ isGlobal: true, serializer: { exposeId: true } })],
      controllers: [ScopedController, PlainController],
    });
    await request(app.getHttpServer())
      .get('/scoped')
      .expect(200, '{"id":"507f1f77bcf86cd799439011","price":"9.99","__v":3}');
    // Not registered globally: the other controller is untouched.
    await request(app.getHttpServer())
      .get('/plain')
      .expect(200, '{"_id":"507f1f77bcf86cd799439011","price":{"$numberDecimal":"9.99"},"tags":{},"__v":3}');
  });
});
