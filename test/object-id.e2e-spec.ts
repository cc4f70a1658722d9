import 'reflect-metadata';
import {
  Body,
  Controller,
  Get,
  HttpStatus,
  ImATeapotException,
  type INestApplication,
  Param,
  Post,
  Query,
  ValidationPipe,
} from '@nestjs/common';
import type { ValidationPipeOptions } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { Types } from 'mongoose';
import request from 'supertest';
import {
  IsObjectId,
  ObjectIdModule,
  ObjectIdValidationPipe,
  ParseObjectIdArrayPipe,
  ParseObjectIdPipe,
  ToObjectId,
} from '../src/index.js';
import { INVALID_OBJECT_IDS } from '../src/core/invalid-object-ids.fixture.js';
import { createApp, PLATFORMS } from './fixtures/create-app.js';

const ID = '507f1f77bcf86cd799439011';
const OTHER = '6553f1003f2a91c8d4003039';

class CreateOrderDto {
  @IsObjectId()
  @ToObjectId()
  customerId!: Types.ObjectId;

  @IsOptional()
  @IsObjectId(undefined, { each: true })
  @ToObjectId()
  productIds?: Types.ObjectId[];

  @IsString()
  note!: string;
}

/** Every handler asserts at run time that it received real ObjectIds. */
function assertObjectId(value: unknown): string {
  if (!(value instanceof Types.ObjectId)) throw new Error(`handler received ${typeof value}, not a Types.ObjectId`);
  return value.toHexString();
}

let handlerCalls = 0;

@Controller('items')
class ItemsController {
  @Get(['optional', 'optional/:id'])
  optional(@Param('id', ParseObjectIdPipe.with({ optional: true })) id?: Types.ObjectId) {
    handlerCalls += 1;
    return { id: id === undefined ? null : assertObjectId(id) };
  }

  @Get()
  list(@Query('ids', ParseObjectIdArrayPipe) ids: Types.ObjectId[]) {
    handlerCalls += 1;
    return { ids: ids.map(assertObjectId) };
  }

  @Get(':id')
  findOne(@Param('id', ParseObjectIdPipe) id: Types.ObjectId) {
    handlerCalls += 1;
    return { id: assertObjectId(id) };
  }

  @Get(':id/owner')
  owner(@Query('owner', new ParseObjectIdPipe({ optional: true })) owner?: Types.ObjectId) {
    handlerCalls += 1;
    return { owner: owner === undefined ? null : assertObjectId(owner) };
  }

  @Post()
  create(@Body() dto: CreateOrderDto) {
    handlerCalls += 1;
    return {
      customerId: assertObjectId(dto.customerId),
      productIds: (dto.productIds ?? []).map(assertObjectId),
      note: dto.note,
    };
  }

  @Post('raw')
  createRaw(@Body('customerId', ParseObjectIdPipe) customerId: Types.ObjectId) {
    handlerCalls += 1;
    return { customerId: assertObjectId(customerId) };
  }
}

const VALIDATION: ValidationPipeOptions = { transform: true, whitelist: true, forbidNonWhitelisted: true };
const validation = (app: INestApplication) => app.useGlobalPipes(new ObjectIdValidationPipe(VALIDATION));

describe.each(PLATFORMS)('ObjectId pipes and validators on %s', (platform) => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await createApp(
      platform,
      { imports: [ObjectIdModule.forRoot({})], controllers: [ItemsController] },
      validation,
    );
  });
  afterAll(() => app.close());

  describe('route param with ParseObjectIdPipe', () => {
    it('should hand the handler a Types.ObjectId', async () => {
      await request(app.getHttpServer()).get(`/items/${ID.toUpperCase()}`).expect(200, { id: ID });
    });

    it.each([
      ['abc', '"abc" is 3 characters long, expected 24 hex characters'],
      [`0x${ID}`, `"0x${ID}" starts with "0x", expected the 24 hex characters without a prefix`],
      ['aaaaaaaaaaaa', '"aaaaaaaaaaaa" is 12 characters long, expected 24 hex characters'],
      [
        `${ID.slice(0, 23)}z`,
        `"${ID.slice(0, 23)}z" has a non-hex character "z" at position 23, expected 24 hex characters (0-9, a-f)`,
      ],
      ['%20' + ID, `" ${ID}" has surrounding whitespace, expected exactly 24 hex characters`],
      [
        '%EF%BC%95' + ID.slice(1),
        `"\\uff15${ID.slice(1)}" has a non-hex character "\\uff15" at position 0, expected 24 hex characters (0-9, a-f)`,
      ],
    ])('should answer 400 for %j without calling the handler', async (raw, detail) => {
      const before = handlerCalls;
      const res = await request(app.getHttpServer()).get(`/items/${raw}`).expect(400);
      expect(res.body).toEqual({
        statusCode: 400,
        message: `Validation failed (ObjectId is expected): ${detail}`,
        error: 'Bad Request',
      });
      expect(handlerCalls).toBe(before);
    });
  });

  describe('optional param and query', () => {
    it('should pass undefined when the optional param is absent', async () => {
      await request(app.getHttpServer()).get('/items/optional').expect(200, { id: null });
      await request(app.getHttpServer()).get(`/items/optional/${ID}`).expect(200, { id: ID });
      await request(app.getHttpServer()).get('/items/optional/nope').expect(400);
    });

    it('should treat an empty query value as absent', async () => {
      await request(app.getHttpServer()).get(`/items/${ID}/owner?owner=`).expect(200, { owner: null });
      await request(app.getHttpServer()).get(`/items/${ID}/owner?owner=${OTHER}`).expect(200, { owner: OTHER });
      await request(app.getHttpServer()).get(`/items/${ID}/owner?owner=x`).expect(400);
    });
  });

  describe('query list with ParseObjectIdArrayPipe', () => {
    it.each([
      ['comma form', `ids=${ID},${OTHER}`],
      ['repeated form', `ids=${ID}&ids=${OTHER}`],
    ])('should parse the %s', async (_label, query) => {
      await request(app.getHttpServer())
        .get(`/items?${query}`)
        .expect(200, { ids: [ID, OTHER] });
    });

    it('should name the first bad item', async () => {
      const res = await request(app.getHttpServer()).get(`/items?ids=${ID},,${OTHER}`).expect(400);
      expect(res.body.message).toBe('Validation failed (ObjectId array is expected): item 1 is empty');
    });
  });

  describe('body DTO with @IsObjectId + @ToObjectId', () => {
    it('should convert to Types.ObjectId before the handler', async () => {
      await request(app.getHttpServer())
        .post('/items')
        .send({ customerId: ID, productIds: [OTHER, ID.toUpperCase()], note: 'x' })
        .expect(201, { customerId: ID, productIds: [OTHER, ID], note: 'x' });
    });

    it.each(INVALID_OBJECT_IDS.filter(([, value]) => isJsonValue(value)))(
      'should answer 400 for %s in the body',
      async (label, customerId) => {
        const before = handlerCalls;
        const res = await request(app.getHttpServer()).post('/items').send({ customerId, note: 'x' });
        expect(res.status).toBe(400);
        // Fastify's JSON parser refuses prototype-poisoning keys before Nest sees the body.
        const refusedByFastify = platform === 'fastify' && /__proto__|constructor/.test(label);
        expect(res.body).toEqual(
          refusedByFastify
            ? { statusCode: 400, message: "Body is not valid JSON but content-type is set to 'application/json'" }
            : { statusCode: 400, message: ['customerId must be a 24-character hex ObjectId'], error: 'Bad Request' },
        );
        expect(handlerCalls).toBe(before);
      },
    );

    it('should refuse operator keys in the body (whitelist)', async () => {
      const res = await request(app.getHttpServer())
        .post('/items')
        .send({ customerId: ID, note: 'x', $where: '1' })
        .expect(400);
      expect(res.body.message).toEqual(['property $where should not exist']);
    });

    it('should answer 400, not 500, for an object in a body field parsed by the pipe', async () => {
      const res = await request(app.getHttpServer())
        .post('/items/raw')
        .send({ customerId: { $gt: '' } })
        .expect(400);
      expect(res.body.message).toBe(
        'Validation failed (ObjectId is expected): received an object, expected a string of 24 hex characters',
      );
    });
  });
});

describe.each(PLATFORMS)('Nest ValidationPipe next to the ObjectId pipes on %s', (platform) => {
  it('should show why ObjectIdValidationPipe exists: plain ValidationPipe breaks ObjectId-typed params', async () => {
    const app = await createApp(platform, { controllers: [ItemsController] }, (a) =>
      a.useGlobalPipes(new ValidationPipe(VALIDATION)),
    );
    const res = await request(app.getHttpServer()).get('/items/optional').expect(400);
    expect(res.body.message).toContain('property i0 should not exist');
    await app.close();
  });
});

describe.each(PLATFORMS)('ObjectIdModule options on %s', (platform) => {
  it('should apply errorHttpStatusCode from forRoot to pipes used by class', async () => {
    const app = await createApp(platform, {
      imports: [ObjectIdModule.forRoot({ errorHttpStatusCode: HttpStatus.UNPROCESSABLE_ENTITY })],
      controllers: [ItemsController],
    });
    const res = await request(app.getHttpServer()).get('/items/abc').expect(422);
    expect(res.body).toEqual({
      statusCode: 422,
      message: 'Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
      error: 'Unprocessable Entity',
    });
    await request(app.getHttpServer()).get('/items/optional/abc').expect(422);
    await request(app.getHttpServer()).get('/items?ids=abc').expect(422);
    await app.close();
  });

  it('should apply exceptionFactory from forRootAsync', async () => {
    const app = await createApp(platform, {
      imports: [
        ObjectIdModule.forRootAsync({
          isGlobal: true,
          useFactory: async () => ({
            exceptionFactory: (message: string) => new ImATeapotException({ teapot: true, message }),
          }),
        }),
      ],
      controllers: [ItemsController],
    });
    const res = await request(app.getHttpServer()).get('/items/abc').expect(418);
    expect(res.body).toEqual({
      teapot: true,
      message: 'Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
    });
    await app.close();
  });

  it('should work without the module', async () => {
    const app = await createApp(platform, { controllers: [ItemsController] });
    await request(app.getHttpServer()).get(`/items/${ID}`).expect(200, { id: ID });
    await request(app.getHttpServer()).get('/items/abc').expect(400);
    await app.close();
  });
});

/** Values that survive a JSON body unchanged (the fixture also holds symbols, functions, bigints, Buffers). */
function isJsonValue(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (['string', 'boolean'].includes(typeof value)) return true;
  if (value === null || typeof value !== 'object') return false;
  if (value instanceof Date || Buffer.isBuffer(value)) return false;
  return JSON.stringify(JSON.parse(JSON.stringify(value))) === JSON.stringify(value);
}
