import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { ParseIsoDatePipe } from './parse-iso-date.pipe.js';

const metadata: ArgumentMetadata = { type: 'query', data: 'createdFrom', metatype: Date };

describe('ParseIsoDatePipe', () => {
  const pipe = new ParseIsoDatePipe();

  it.each([
    ['2026-12-02', '2026-12-02T00:00:00.000Z'],
    ['2026-12-02T10:15Z', '2026-12-02T10:15:00.000Z'],
    ['2026-12-02T10:15:30Z', '2026-12-02T10:15:30.000Z'],
    ['2026-12-02T10:15:30.250+01:00', '2026-12-02T09:15:30.250Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('should parse %s as %s', (value, iso) => {
    expect(pipe.transform(value, metadata)?.toISOString()).toBe(iso);
  });

  it.each([[undefined], ['']])('should treat %j as absent', (value) => {
    expect(pipe.transform(value, metadata)).toBeUndefined();
  });

  it.each([
    ['2026-12-02T10:15:30', '"2026-12-02T10:15:30"'], // no offset: the server's zone would decide
    ['2026-02-30', '"2026-02-30"'],
    ['2025-02-29', '"2025-02-29"'],
    ['2026-13-01', '"2026-13-01"'],
    ['2026-12-02T24:00Z', '"2026-12-02T24:00Z"'],
    ['12/02/2026', '"12/02/2026"'],
    ['1733130000000', '"1733130000000"'],
    [['2026-12-01', '2026-12-02'], 'several values'],
  ])('should refuse %j', (value, shown) => {
    expect(() => pipe.transform(value, metadata)).toThrow(
      new BadRequestException(
        `createdFrom must be an ISO 8601 date (2026-12-02) or date-time with offset (2026-12-02T10:00:00Z), got ${shown}`,
      ),
    );
  });
});
