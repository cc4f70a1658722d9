import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { BodyShapePipe } from './body-shape.pipe.js';

const BODY = { type: 'body' as const };
const limits = { maxDepth: 4, maxArrayLength: 3, maxNodes: 20 };

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function failure(value: unknown): { type: string; message: unknown } | undefined {
  try {
    new BodyShapePipe(limits).transform(value, BODY);
    return undefined;
  } catch (error) {
    return {
      type: (error as Error).constructor.name,
      message: ((error as BadRequestException).getResponse() as { message: unknown }).message,
    };
  }
}

describe('BodyShapePipe', () => {
  it.each([
    ['a flat object', { a: 1, b: 'x' }],
    ['nesting at the limit', nested(4)],
    ['an array at the limit', { items: [1, 2, 3] }],
    ['scalars', 'text'],
    ['null', null],
  ])('should pass %s unchanged', (_label, value) => {
    expect(new BodyShapePipe(limits).transform(value, BODY)).toBe(value);
  });

  it.each([
    ['nesting one level too deep', nested(5), BadRequestException.name, 'body.a.a.a.a is nested deeper than 4 levels'],
    [
      'nesting 100,000 levels deep',
      nested(100_000),
      BadRequestException.name,
      'body.a.a.a.a is nested deeper than 4 levels',
    ],
    [
      'a long array',
      { items: [{}, {}, {}, {}] },
      BadRequestException.name,
      'body.items holds 4 items, at most 3 are accepted',
    ],
    [
      'many values',
      { a: [1, 2, 3], b: [1, 2, 3], c: [1, 2, 3], d: [1, 2, 3], e: [1, 2, 3] },
      PayloadTooLargeException.name,
      'the body holds more than 20 values; send less at once',
    ],
    [
      'an odd key on the path',
      { 'x.$gt': nested(4) },
      BadRequestException.name,
      'body[…].a.a.a is nested deeper than 4 levels',
    ],
  ])('should refuse %s', (_label, value, type, message) => {
    expect(failure(value)).toEqual({ type, message });
  });

  it('should leave query and path parameters alone', () => {
    const deep = nested(10);
    expect(new BodyShapePipe(limits).transform(deep, { type: 'query' })).toBe(deep);
  });
});
