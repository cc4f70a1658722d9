import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { ParseOrderNumberPipe } from './parse-order-number.pipe.js';

const metadata: ArgumentMetadata = { type: 'param', data: 'number', metatype: String };

describe('ParseOrderNumberPipe', () => {
  const pipe = new ParseOrderNumberPipe();

  it.each([['ORD-2026-000042'], ['ORD-2026-000000'], ['ORD-1999-1234567'], ['ORD-2026-0000000000042']])(
    'should pass %s unchanged',
    (value) => {
      expect(pipe.transform(value, metadata)).toBe(value);
    },
  );

  it.each([
    ['ORD-2026-0x002a', '"ORD-2026-0x002a"'],
    ['ORD-2026-00001e', '"ORD-2026-00001e"'],
    ['ORD-2026-42', '"ORD-2026-42"'],
    ['ORD-2026-+00042', '"ORD-2026-+00042"'],
    ['ORD-2026--00042', '"ORD-2026--00042"'],
    ['ORD-2026- 000042', '"ORD-2026- 000042"'],
    ['ORD-2026-000042 ', '"ORD-2026-000042 "'],
    ['ORD-26-000042', '"ORD-26-000042"'],
    ['ord-2026-000042', '"ord-2026-000042"'],
    ['ORD-2026-٠٠٠٠٤٢', '"ORD-2026-٠٠٠٠٤٢"'], // Arabic-Indic digits
    ['', '""'],
    [`ORD-2026-${'9'.repeat(60)}x`, `"ORD-2026-${'9'.repeat(31)}"`],
    [['ORD-2026-000001', 'ORD-2026-000002'], 'not one value'],
    [undefined, 'not one value'],
  ])('should refuse %j', (value, shown) => {
    expect(() => pipe.transform(value, metadata)).toThrow(
      new BadRequestException(
        `Validation failed (order number is expected): number ${shown} must be ORD-, the year, - and a number of ` +
          'at least 6 digits 0-9, e.g. ORD-2026-000042',
      ),
    );
  });
});
