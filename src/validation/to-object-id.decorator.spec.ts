import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsOptional, validateSync } from 'class-validator';
import { Types } from 'mongoose';
import { IsObjectId } from './is-object-id.decorator.js';
import { ToObjectId, toObjectIdValue } from './to-object-id.decorator.js';

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
