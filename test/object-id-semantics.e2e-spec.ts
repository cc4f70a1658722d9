import 'reflect-metadata';
import { Body, Controller, Get, type INestApplication, Param, Post } from '@nestjs/common';
import { IsArray, IsOptional } from 'class-validator';
import { Types } from 'mongoose';
import { types } from 'node:util';
import request from 'supertest';
import {
  IsObjectId,
  NIL_OBJECT_ID,
  ObjectIdModule,
  ObjectIdValidationPipe,
  ParseObjectIdArrayPipe,
  ParseObjectIdPipe,
  ToObjectId,
  ValidateObjectIdPipe,
} from '../src/index.js';
import { INVALID_EXTENDED_JSON } from '../src/core/extended-json-object-ids.fixture.js';
import { createApp, PLATFORMS } from './fixtures/create-app.js';

const ID = '507f1f77bcf86cd799439011';
const OTHER = '6553f1003f2a91c8d4003039';
const PREFIX = 'Validation failed (ObjectId is expected): ';
const NIL_DETAIL = `received the nil ObjectId ${NIL_OBJECT_ID} (all zeros), which names no document; expected the id of a real one`;

const STRICT = { allowNil: false, allowExtendedJson: true } as const;

class CreateLinkDto {
  @IsObjectId(STRICT)
  @ToObjectId(STRICT)
  targetId!: Types.ObjectId;

  @IsOptional()
  @IsArray()
  @IsObjectId(STRICT, { each: true })
  @ToObjectId(STRICT)
  tagIds?: Types.ObjectId[];
}

/** Handlers check at run time what they received. */
function hexOf(value: unknown): string {
  if (!(value instanceof Types.ObjectId)) throw new Error(`handler received ${typeof value}, not a Types.ObjectId`);
  return value.toHexString();
}

function stringOf(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`handler received ${typeof value}, not a string`);
  return value;
}

let handlerCalls = 0;

@Controller('refs')
class RefsController {
  @Get('loose/:id')
  loose(@Param('id', ParseObjectIdPipe) id: Types.ObjectId) {
    handlerCalls += 1;
    return { id: hexOf(id) };
  }

  @Get('strict/:id')
  strict(@Param('id', ParseObjectIdPipe.with({ allowNil: false })) id: Types.ObjectId) {
    handlerCalls += 1;
    return { id: hexOf(id) };
  }

  @Get('pass/:id')
  pass(@Param('id', ValidateObjectIdPipe) id: string) {
    handlerCalls += 1;
    return { id: stringOf(id) };
  }

  @Get('pass-strict/:id')
  passStrict(@Param('id', ValidateObjectIdPipe.with({ allowNil: false })) id: string) {
    handlerCalls += 1;
    return { id: stringOf(id) };
  }

  @Post('ejson')
  ejson(@Body('targetId', ParseObjectIdPipe.with(STRICT)) targetId: Types.ObjectId) {
    handlerCalls += 1;
    return { targetId: hexOf(targetId) };
  }

  @Post('ejson/pass')
  ejsonPass(@Body('targetId', new ValidateObjectIdPipe({ allowExtendedJson: true })) targetId: string) {
    handlerCalls += 1;
    return { targetId: stringOf(targetId) };
  }

  @Post('ejson/list')
  ejsonList(@Body('ids', new ParseObjectIdArrayPipe({ ...STRICT, separator: false })) ids: Types.ObjectId[]) {
    handlerCalls += 1;
    return { ids: ids.map(hexOf) };
  }

  @Post('dto')
  dto(@Body() dto: CreateLinkDto) {
    handlerCalls += 1;
    return { targetId: hexOf(dto.targetId), tagIds: (dto.tagIds ?? []).map(hexOf) };
  }
}

const validation = (app: INestApplication) =>
  app.useGlobalPipes(new ObjectIdValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }));

/**
 * Inputs a JSON body carries unchanged: plain data with only enumerable string
 * keys (the table also holds getters, hidden keys, functions, Proxies, Buffers).
 */
function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'function' && typeof value !== 'symbol';
  if (types.isProxy(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== Array.prototype) return false;
  const keys = Reflect.ownKeys(value).filter((key) => !(Array.isArray(value) && key === 'length'));
  return keys.every((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    return typeof key === 'string' && descriptor?.enumerable && 'value' in descriptor && isJsonValue(descriptor.value);
  });
}

/** Fastify's JSON parser refuses prototype-poisoning keys before Nest sees the body. */
const FASTIFY_PROTO_REFUSAL = {
  statusCode: 400,
  message: "Body is not valid JSON but content-type is set to 'application/json'",
};
const poisons = (label: string) => /__proto__|constructor/.test(label);

describe.each(PLATFORMS)('ObjectId semantics through HTTP on %s', (platform) => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await createApp(
      platform,
      { imports: [ObjectIdModule.forRoot({})], controllers: [RefsController] },
      validation,
    );
  });
  afterAll(() => app.close());

  async function expectRefused(res: request.Response, message: string | string[]): Promise<void> {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  }

  describe('the nil id in a route parameter', () => {
    it('should reach the handler by default (a valid id, as before)', async () => {
      await request(app.getHttpServer()).get(`/refs/loose/${NIL_OBJECT_ID}`).expect(200, { id: NIL_OBJECT_ID });
      await request(app.getHttpServer()).get(`/refs/pass/${NIL_OBJECT_ID}`).expect(200, { id: NIL_OBJECT_ID });
    });

    it.each(['strict', 'pass-strict'])(
      'should answer 400 on /refs/%s/<nil> without calling the handler',
      async (route) => {
        const before = handlerCalls;
        await expectRefused(
          await request(app.getHttpServer()).get(`/refs/${route}/${NIL_OBJECT_ID}`),
          PREFIX + NIL_DETAIL,
        );
        expect(handlerCalls).toBe(before);
        await request(app.getHttpServer()).get(`/refs/${route}/000000000000000000000001`).expect(200);
      },
    );
  });

  describe('ValidateObjectIdPipe', () => {
    it('should hand the handler the string as it came', async () => {
      await request(app.getHttpServer()).get(`/refs/pass/${ID.toUpperCase()}`).expect(200, { id: ID.toUpperCase() });
    });

    it.each([
      ['abc', '"abc" is 3 characters long, expected 24 hex characters'],
      ['aaaaaaaaaaaa', '"aaaaaaaaaaaa" is 12 characters long, expected 24 hex characters'],
      ['%20' + ID, `" ${ID}" has surrounding whitespace, expected exactly 24 hex characters`],
    ])('should answer 400 for %j with the message of ParseObjectIdPipe', async (raw, detail) => {
      await expectRefused(await request(app.getHttpServer()).get(`/refs/pass/${raw}`), PREFIX + detail);
      await expectRefused(await request(app.getHttpServer()).get(`/refs/loose/${raw}`), PREFIX + detail);
    });

    it('should give the lowercase hex of {"$oid": …} with allowExtendedJson', async () => {
      await request(app.getHttpServer())
        .post('/refs/ejson/pass')
        .send({ targetId: { $oid: ID.toUpperCase() } })
        .expect(201, { targetId: ID });
      await request(app.getHttpServer())
        .post('/refs/ejson/pass')
        .send({ targetId: OTHER })
        .expect(201, { targetId: OTHER });
    });
  });

  describe('extended JSON bodies', () => {
    it('should take {"$oid": …} and plain strings through the pipes and the DTO decorators', async () => {
      await request(app.getHttpServer())
        .post('/refs/ejson')
        .send({ targetId: { $oid: ID } })
        .expect(201, { targetId: ID });
      await request(app.getHttpServer()).post('/refs/ejson').send({ targetId: ID }).expect(201, { targetId: ID });
      await request(app.getHttpServer())
        .post('/refs/ejson/list')
        .send({ ids: [{ $oid: ID }, OTHER] })
        .expect(201, { ids: [ID, OTHER] });
      await request(app.getHttpServer())
        .post('/refs/dto')
        .send({ targetId: { $oid: ID }, tagIds: [OTHER, { $oid: OTHER }] })
        .expect(201, { targetId: ID, tagIds: [OTHER, OTHER] });
    });

    it('should refuse {"$oid": nil} and the nil hex everywhere', async () => {
      const nilMessage = `targetId must not be the nil ObjectId ${NIL_OBJECT_ID}, expected the id of a real document`;
      for (const targetId of [NIL_OBJECT_ID, { $oid: NIL_OBJECT_ID }]) {
        const before = handlerCalls;
        await expectRefused(
          await request(app.getHttpServer()).post('/refs/ejson').send({ targetId }),
          PREFIX + NIL_DETAIL,
        );
        await expectRefused(await request(app.getHttpServer()).post('/refs/dto').send({ targetId }), [nilMessage]);
        expect(handlerCalls).toBe(before);
      }
      await expectRefused(
        await request(app.getHttpServer())
          .post('/refs/ejson/list')
          .send({ ids: [OTHER, { $oid: NIL_OBJECT_ID }] }),
        `Validation failed (ObjectId array is expected): item 1 ${NIL_DETAIL}`,
      );
    });

    it.each(INVALID_EXTENDED_JSON.filter(([, value]) => isJsonValue(value)))(
      'should answer 400 for %s without calling the handler',
      async (label, targetId, detail) => {
        const before = handlerCalls;
        const piped = await request(app.getHttpServer()).post('/refs/ejson').send({ targetId });
        const dto = await request(app.getHttpServer()).post('/refs/dto').send({ targetId });
        if (platform === 'fastify' && poisons(label)) {
          expect([piped.status, piped.body, dto.body]).toEqual([400, FASTIFY_PROTO_REFUSAL, FASTIFY_PROTO_REFUSAL]);
          return;
        }
        await expectRefused(piped, PREFIX + detail);
        if (label === '$oid and a __proto__ key') {
          // Nest's ValidationPipe deletes `__proto__` keys from a body before
          // class-transformer runs, so the DTO decorators see a clean {"$oid": …}.
          expect([dto.status, dto.body]).toEqual([201, { targetId: ID, tagIds: [] }]);
          expect(handlerCalls).toBe(before + 1);
          return;
        }
        await expectRefused(dto, ['targetId must be a 24-character hex ObjectId or {"$oid": "<24 hex characters>"}']);
        expect(handlerCalls).toBe(before);
      },
    );

    it('should refuse {"$oid": …} where the option is off, with the message as before', async () => {
      await expectRefused(
        await request(app.getHttpServer()).get('/refs/loose/x'),
        `${PREFIX}"x" is 1 character long, expected 24 hex characters`,
      );
      const res = await request(app.getHttpServer())
        .post('/refs/ejson/pass')
        .send({ targetId: { $oid: ID, $where: '1' } });
      await expectRefused(
        res,
        `${PREFIX}received {"$oid": …} with key "$where" besides "$oid", expected "$oid" as its only key`,
      );
    });
  });
});

describe.each(PLATFORMS)('ObjectIdModule.forRoot({ allowNil: false }) on %s', (platform) => {
  it('should refuse the nil id in every pipe used by class, and let a pipe opt back in', async () => {
    const app = await createApp(platform, {
      imports: [ObjectIdModule.forRoot({ allowNil: false })],
      controllers: [RefsController],
    });
    for (const route of ['loose', 'pass']) {
      const res = await request(app.getHttpServer()).get(`/refs/${route}/${NIL_OBJECT_ID}`).expect(400);
      expect(res.body.message).toBe(PREFIX + NIL_DETAIL);
      await request(app.getHttpServer()).get(`/refs/${route}/${ID}`).expect(200, { id: ID });
    }
    await app.close();
  });
});
