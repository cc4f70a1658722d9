import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { ParseIsoDatePipe } from './parse-iso-date.pipe.js';

const metadata: ArgumentMetadata = { type: 'query', data: 'createdFrom', metatype: Object };

function failure(value: unknown): unknown {
  try {
    return { parsed: new ParseIsoDatePipe().transform(value, metadata)?.toString() };
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: unknown }).message;
  }
}

describe('ParseIsoDatePipe', () => {
  const pipe = new ParseIsoDatePipe();

  describe('when validation passes', () => {
    it.each([
      ['2026-12-02T10:15Z', '2026-12-02T10:15:00.000Z'],
      ['2026-12-02T10:15:30Z', '2026-12-02T10:15:30.000Z'],
      ['2026-12-02T10:15:30.250+01:00', '2026-12-02T09:15:30.250Z'],
      ['2026-12-02T00:00:00-14:00', '2026-12-02T14:00:00.000Z'],
      ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z'],
      ['2106-02-07T06:28:15Z', '2106-02-07T06:28:15.000Z'],
    ])('should read the date-time %s as the instant %s, in every zone', (value, iso) => {
      const filter = pipe.transform(value, metadata)!;
      expect([filter.startIn('UTC').toISOString(), filter.startIn('Pacific/Kiritimati').toISOString()]).toEqual([
        iso,
        iso,
      ]);
    });

    it.each([
      ['2026-12-02', 'UTC', '2026-12-02T00:00:00.000Z'],
      ['2026-12-03', 'Pacific/Kiritimati', '2026-12-02T10:00:00.000Z'],
      ['2026-12-02', 'America/New_York', '2026-12-02T05:00:00.000Z'],
      ['2024-02-29', 'UTC', '2024-02-29T00:00:00.000Z'],
    ])('should read the date %s as midnight in %s (%s)', (value, timeZone, iso) => {
      const filter = pipe.transform(value, metadata)!;
      expect([filter.toString(), filter.startIn(timeZone).toISOString()]).toEqual([value, iso]);
    });

    it.each([[undefined], ['']])('should treat %j as absent', (value) => {
      expect(pipe.transform(value, metadata)).toBeUndefined();
    });
  });

  describe('when validation fails', () => {
    it.each([
      ['2026-12-02T10:15:30', '"2026-12-02T10:15:30"'], // no offset: the server's zone would decide
      ['2026-02-30', '"2026-02-30"'],
      ['2025-02-29', '"2025-02-29"'],
      ['2026-13-01', '"2026-13-01"'],
      ['2026-12-02T24:00Z', '"2026-12-02T24:00Z"'],
      ['2026-12-02T10:00+24:00', '"2026-12-02T10:00+24:00"'],
      ['2026-12-02 10:00Z', '"2026-12-02 10:00Z"'],
      [' 2026-12-02', '" 2026-12-02"'],
      ['+002026-12-02', '"+002026-12-02"'],
      ['12/02/2026', '"12/02/2026"'],
      ['1733130000000', '"1733130000000"'],
      [['2026-12-01', '2026-12-02'], 'several values'],
    ])('should refuse %j', (value, shown) => {
      expect(failure(value)).toBe(
        `createdFrom must be an ISO 8601 date (2026-12-02) or date-time with offset (2026-12-02T10:00:00Z), got ${shown}`,
      );
    });

    it.each([
      ['1969-12-31T23:59:59Z', '1969-12-31T23:59:59.000Z'],
      ['1970-01-01T00:00:00+01:00', '1969-12-31T23:00:00.000Z'],
      ['2106-02-07T06:28:15.001Z', '2106-02-07T06:28:15.001Z'],
      ['9999-12-31T00:00Z', '9999-12-31T00:00:00.000Z'],
    ])('should refuse the date-time %s, which no ObjectId can hold', (value, iso) => {
      expect(failure(value)).toBe(
        `createdFrom ${iso} is outside the times an ObjectId can hold, 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z`,
      );
    });
  });
});
