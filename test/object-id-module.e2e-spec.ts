import 'reflect-metadata';
import { Controller, Get, type INestApplication, Module, Param, UseInterceptors } from '@nestjs/common';
import { Types } from 'mongoose';
import request from 'supertest';
import { ObjectIdModule, ParseObjectIdPipe } from '../src/index.js';
import {
  OBJECT_ID_SERIALIZER_OPTIONS,
  ObjectIdSerializerInterceptor,
  ObjectIdSerializerModule,
} from '../src/serialization/index.js';
import { createApp, PLATFORMS } from './fixtures/create-app.js';

// Values whose JSON differs with and without the serializer: plain JSON.stringify
// writes Decimal128 as {"$numberDecimal":…} and a Set as {}.
const PRICE = Types.Decimal128.fromString('9.99');
const ID = new Types.ObjectId('507f1f77bcf86cd799439011');
const RAW = '{"_id":"507f1f77bcf86cd799439011","price":{"$numberDecimal":"9.99"},"tags":{},"__v":3}';
const HEXED = '{"_id":"507f1f77bcf86cd799439011","price":"9.99","tags":["507f1f77bcf86cd799439011"],"__v":3}';

@Controller()
class PlainController {
  @Get('plain')
  plain() {
    return { _id: ID, price: PRICE, tags: new Set([ID]), __v: 3 };
  }

  @Get('items/:id')
  item(@Param('id', ParseObjectIdPipe) id: Types.ObjectId) {
    return { id: id.toHexString() };
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

/** A feature module that uses the pipe by class, with ObjectIdModule imported globally elsewhere. */
@Module({ controllers: [PlainController] })
class FeatureModule {}

const BAD_ID_MESSAGE =
  'Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters';

describe.each(PLATFORMS)('ObjectIdModule on %s', (platform) => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  // Every way Nest users write a module import; the expected status shows whether the options arrived.
  it.each([
    ['imports: [ObjectIdModule]', () => ObjectIdModule, 400],
    ['ObjectIdModule.forRoot()', () => ObjectIdModule.forRoot(), 400],
    ['ObjectIdModule.forRoot({})', () => ObjectIdModule.forRoot({}), 400],
    [
      'ObjectIdModule.forRoot({ errorHttpStatusCode: 422 })',
      () => ObjectIdModule.forRoot({ errorHttpStatusCode: 422 }),
      422,
    ],
    [
      'ObjectIdModule.forRootAsync({ useFactory })',
      () => ObjectIdModule.forRootAsync({ useFactory: async () => ({ errorHttpStatusCode: 422 as const }) }),
      422,
    ],
  ])('should start with %s and give the pipes its options', async (_name, module, status) => {
    app = await createApp(platform, { imports: [module()], controllers: [PlainController] });
    await request(app.getHttpServer()).get(`/items/${ID.toHexString()}`).expect(200, { id: ID.toHexString() });
    const res = await request(app.getHttpServer()).get('/items/abc').expect(status);
    expect(res.body.message).toBe(BAD_ID_MESSAGE);
  });

  it('should reach feature modules with isGlobal', async () => {
    app = await createApp(platform, {
      imports: [ObjectIdModule.forRoot({ isGlobal: true, errorHttpStatusCode: 422 }), FeatureModule],
    });
    await request(app.getHttpServer()).get('/items/abc').expect(422);
  });

  it('should not reach feature modules without isGlobal', async () => {
    app = await createApp(platform, {
      imports: [ObjectIdModule.forRoot({ errorHttpStatusCode: 422 }), FeatureModule],
    });
    await request(app.getHttpServer()).get('/items/abc').expect(400);
  });
});

describe.each(PLATFORMS)('ObjectIdSerializerModule on %s', (platform) => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it.each([
    ['imports: [ObjectIdSerializerModule]', () => ObjectIdSerializerModule],
    ['ObjectIdSerializerModule.forRoot()', () => ObjectIdSerializerModule.forRoot()],
    ['ObjectIdSerializerModule.forRoot({})', () => ObjectIdSerializerModule.forRoot({})],
  ])('should register the interceptor for the whole app with %s', async (_name, module) => {
    app = await createApp(platform, { imports: [module()], controllers: [PlainController] });
    await request(app.getHttpServer()).get('/plain').expect(200, HEXED);
  });

  it('should register it from forRootAsync too, with its options', async () => {
    app = await createApp(platform, {
      imports: [ObjectIdSerializerModule.forRootAsync({ useFactory: async () => ({ exposeId: true }) })],
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

  it('should leave responses alone without it', async () => {
    app = await createApp(platform, { imports: [ObjectIdModule.forRoot({})], controllers: [PlainController] });
    await request(app.getHttpServer()).get('/plain').expect(200, RAW);
  });

  it('should give @UseInterceptors(ObjectIdSerializerInterceptor) the options provided under OBJECT_ID_SERIALIZER_OPTIONS', async () => {
    app = await createApp(platform, {
      providers: [{ provide: OBJECT_ID_SERIALIZER_OPTIONS, useValue: { exposeId: true } }],
      controllers: [ScopedController, PlainController],
    });
    await request(app.getHttpServer())
      .get('/scoped')
      .expect(200, '{"id":"507f1f77bcf86cd799439011","price":"9.99","__v":3}');
    // Not registered globally: the other controller is untouched.
    await request(app.getHttpServer()).get('/plain').expect(200, RAW);
  });
});
