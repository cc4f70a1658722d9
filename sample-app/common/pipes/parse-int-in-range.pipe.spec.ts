import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { ParseIntInRangePipe } from './parse-int-in-range.pipe.js';

const metadata: ArgumentMetadata = { type: 'query', data: 'limit', metatype: Number };

describe('ParseIntInRangePipe', () => {
  const pipe = new ParseIntInRangePipe({ min: 1, max: 100, defaultValue: 20 });

  it.each([
    [undefined, 20],
    ['1', 1],
    ['100', 100],
    [42, 42], // as the global ValidationPipe({ transform: true }) hands it over
  ])('should turn %j into %j', (value, expected) => {
    expect(pipe.transform(value, metadata)).toBe(expected);
  });

  it.each([
    ['0'],
    ['101'],
    ['-1'],
    ['1.5'],
    ['1e9'],
    ['abc'],
    [''],
    [' 5'],
    [0],
    [1e9],
    [Number.NaN],
    [1.5],
    [['1', '2']],
    [null],
  ])('should refuse %j with a 400 that names the range', (value) => {
    expect(() => pipe.transform(value, metadata)).toThrow(
      new BadRequestException('limit must be an integer from 1 to 100'),
    );
  });

  it('should require the value when there is no default', () => {
    expect(() => new ParseIntInRangePipe({ min: 1, max: 5 }).transform(undefined, metadata)).toThrow(
      'limit must be an integer from 1 to 5',
    );
  });
});
