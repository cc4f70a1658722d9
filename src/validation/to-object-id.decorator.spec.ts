import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { BadRequestException } from '@nestjs/common';
import { IsArray, IsOptional, validateSync } from 'class-validator';
import { Types } from 'mongoose';
import { IsObjectId } from './is-object-id.decorator.js';
import { ToObjectId, toObjectIdValue } from './to-object-id.decorator.js';
import { ObjectIdValidationPipe } from '../pipes/index.js';

const HEX = '507f1f77bcf86cd799439011';

class Dto {
  @IsObjectId()
  @ToObjectId()
  id!: Types.ObjectId;

  @IsOptional()
  @IsObjectId(undefined, { each: true })
  @ToObjectId()
  related?: Types.ObjectId[];
}

class QueryDto {
  @IsOptional()
  @IsObjectId()
  @ToObjectId({ emptyAsUndefined: true })
  owner?: Types.ObjectId;

  @IsOptional()
  @IsObjectId(undefined, { each: true })
  @ToObjectId({ split: ',' })
  ids?: Types.ObjectId[];
}

describe('@ToObjectId()', () => {
  describe.each([
    ['without implicit conversion', {}],
    ['with enableImplicitConversion', { enableImplicitConversion: true }],
  ])('%s', (_label, options) => {
    const build = (plain: Record<string, unknown>) => plainToInstance(Dto, plain, options);

    it('should turn a hex string into a Types.ObjectId with the same hex', () => {
      const dto = build({ id: HEX.toUpperCase() });
      expect(dto.id).toBeInstanceOf(Types.ObjectId);
      expect(dto.id.toHexString()).toBe(HEX);
      expect(validateSync(dto)).toEqual([]);
    });

    it('should convert every valid item of an array', () => {
      const dto = build({ id: HEX, related: [HEX, 'bad'] });
      expect(dto.related?.[0]).toBeInstanceOf(Types.ObjectId);
      expect(dto.related?.[1]).toBe('bad');
      expect(validateSync(dto).map((e) => e.property)).toEqual(['related']);
    });

    it.each([
      ['undefined', undefined],
      ['null', null],
      ['an empty string', ''],
      ['an object', { $gt: '' }],
      ['a number', 42],
      ['a short string', 'abc'],
    ])('should leave %s for the validator, never a random id', (_label, id) => {
      const dto = build({ id });
      expect(dto.id).not.toBeInstanceOf(Types.ObjectId);
      expect(validateSync(dto).map((e) => e.property)).toEqual(['id']);
    });
  });

  it('should keep an existing Types.ObjectId instance', () => {
    const id = new Types.ObjectId();
    expect(plainToInstance(Dto, { id }).id).toBe(id);
  });

  it('should treat an empty query value as absent with emptyAsUndefined', () => {
    const dto = plainToInstance(QueryDto, { owner: '' });
    expect(dto.owner).toBeUndefined();
    expect(validateSync(dto)).toEqual([]);
  });

  it('should split a comma list with split', () => {
    const other = new Types.ObjectId().toHexString();
    const dto = plainToInstance(QueryDto, { ids: `${HEX},${other}` });
    expect(dto.ids?.map(String)).toEqual([HEX, other]);
  });

  it('should not run when serializing (toClassOnly)', () => {
    const dto = plainToInstance(Dto, { id: HEX });
    expect(toObjectIdValue(dto.id)).toBe(dto.id);
  });
});

describe('toObjectIdValue', () => {
  it('should convert Set members', () => {
    const result = toObjectIdValue(new Set([HEX])) as Set<unknown>;
    expect([...result][0]).toBeInstanceOf(Types.ObjectId);
  });
});

describe('ToObjectId with enableImplicitConversion', () => {
  class ImplicitDto {
    @IsObjectId()
    @ToObjectId()
    id!: Types.ObjectId;

    @IsOptional()
    @IsArray()
    @IsObjectId(undefined, { each: true })
    @ToObjectId()
    ids?: Types.ObjectId[];
  }

  const pipe = new ObjectIdValidationPipe({ transform: true, transformOptions: { enableImplicitConversion: true } });
  const validate = (body: unknown) => pipe.transform(body, { type: 'body', metatype: ImplicitDto });

  it.each([
    // bson's `id` setter threw a BSONError when class-transformer copied this onto a new ObjectId: a 500.
    ['an object with an id key', { id: { id: 1 } }],
    ['an object with a buffer key', { id: { buffer: 'x' } }],
    ['an object with toHexString', { id: { toHexString: HEX } }],
    ['an operator', { id: { $gt: '' } }],
    ['a number', { id: 5 }],
  ])('should answer 400 for %s', async (_label, body) => {
    const error = await validate(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestException);
    expect((error as BadRequestException).getResponse()).toMatchObject({
      message: ['id must be a 24-character hex ObjectId'],
    });
  });

  it('should still convert valid ids, single and in lists', async () => {
    const dto = (await validate({ id: HEX, ids: [HEX.toUpperCase()] })) as ImplicitDto;
    expect(dto.id).toBeInstanceOf(Types.ObjectId);
    expect(dto.id.toHexString()).toBe(HEX);
    expect(dto.ids).toEqual([new Types.ObjectId(HEX)]);
  });
});

describe('@ToObjectId() with allowNil and allowExtendedJson', () => {
  const NIL = '000000000000000000000000';

  class Strict {
    @IsObjectId({ allowNil: false, allowExtendedJson: true })
    @ToObjectId({ allowNil: false, allowExtendedJson: true })
    id!: Types.ObjectId;

    @IsOptional()
    @IsArray()
    @IsObjectId({ allowNil: false, allowExtendedJson: true }, { each: true })
    @ToObjectId({ allowNil: false, allowExtendedJson: true })
    related?: Types.ObjectId[];
  }

  it('should convert the nil id by default, and leave it as it came with allowNil: false', () => {
    expect(toObjectIdValue(NIL)).toBeInstanceOf(Types.ObjectId);
    expect(toObjectIdValue(NIL, { allowNil: false })).toBe(NIL);
    const instance = new Types.ObjectId(NIL);
    expect(toObjectIdValue(instance, { allowNil: false })).toBe(instance);
  });

  it('should convert {"$oid": …} only with allowExtendedJson, leaving every other object as it came', () => {
    const ejson = { $oid: HEX.toUpperCase() };
    expect(toObjectIdValue(ejson)).toBe(ejson);
    const converted = toObjectIdValue(ejson, { allowExtendedJson: true });
    expect(converted).toBeInstanceOf(Types.ObjectId);
    expect((converted as Types.ObjectId).toHexString()).toBe(HEX);
    const injection = { $oid: HEX, $where: '1' };
    expect(toObjectIdValue(injection, { allowExtendedJson: true })).toBe(injection);
    expect(toObjectIdValue({ $oid: NIL }, { allowExtendedJson: true, allowNil: false })).toEqual({ $oid: NIL });
  });

  it('should convert items of arrays and sets', () => {
    const [first, second] = toObjectIdValue([{ $oid: HEX }, HEX], { allowExtendedJson: true }) as Types.ObjectId[];
    expect(first.toHexString()).toBe(HEX);
    expect(second.toHexString()).toBe(HEX);
  });

  describe('through ObjectIdValidationPipe', () => {
    const pipe = new ObjectIdValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true });
    const run = (body: unknown) => pipe.transform(body, { type: 'body', metatype: Strict });

    it('should hand over Types.ObjectIds for strings and {"$oid": …}', async () => {
      const dto = (await run({ id: { $oid: HEX }, related: [HEX, { $oid: HEX }] })) as Strict;
      expect(dto.id).toBeInstanceOf(Types.ObjectId);
      expect(dto.id.toHexString()).toBe(HEX);
      expect(dto.related?.map((id) => id.toHexString())).toEqual([HEX, HEX]);
    });

    it.each([
      [
        'the nil hex',
        { id: NIL },
        'id must not be the nil ObjectId 000000000000000000000000, expected the id of a real document',
      ],
      [
        '{"$oid": nil}',
        { id: { $oid: NIL } },
        'id must not be the nil ObjectId 000000000000000000000000, expected the id of a real document',
      ],
      [
        'an operator next to $oid',
        { id: { $oid: HEX, $ne: null } },
        'id must be a 24-character hex ObjectId or {"$oid": "<24 hex characters>"}',
      ],
      [
        'a nested $oid',
        { id: { $oid: { $oid: HEX } } },
        'id must be a 24-character hex ObjectId or {"$oid": "<24 hex characters>"}',
      ],
    ])('should answer 400 for %s', async (_label, body, message) => {
      await expect(run(body)).rejects.toThrow(BadRequestException);
      await run(body).catch((error: BadRequestException) =>
        expect((error.getResponse() as { message: string[] }).message).toEqual([message]),
      );
    });
  });
});
