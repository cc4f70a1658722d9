import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { IsInt, Max } from 'class-validator';
import { RawParamsValidationPipe } from './raw-params-validation.pipe.js';

class PageDto {
  @IsInt()
  @Max(100)
  limit!: number;
}

describe('RawParamsValidationPipe', () => {
  const pipe = new RawParamsValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true });

  it.each([
    ['query', Number, '0x10'],
    ['query', Number, '1e1'],
    ['query', Number, ' 5'],
    ['query', Boolean, 'yes'],
    ['param', Number, '0b11'],
    ['query', String, ['a', 'b']],
    ['query', Number, undefined],
  ] as const)('should hand the named %s parameter typed %p over as sent: %j', async (type, metatype, value) => {
    const metadata: ArgumentMetadata = { type, data: 'limit', metatype };
    expect(await pipe.transform(value, metadata)).toBe(value);
  });

  it('should still validate and transform a body', async () => {
    const metadata: ArgumentMetadata = { type: 'body', metatype: PageDto };
    await expect(pipe.transform({ limit: 5 }, metadata)).resolves.toBeInstanceOf(PageDto);
    await expect(pipe.transform({ limit: 500 }, metadata)).rejects.toThrow(BadRequestException);
  });

  it('should still validate a whole-query DTO', async () => {
    const metadata: ArgumentMetadata = { type: 'query', metatype: PageDto };
    await expect(pipe.transform({ limit: '5', extra: '1' }, metadata)).rejects.toThrow(BadRequestException);
  });
});
