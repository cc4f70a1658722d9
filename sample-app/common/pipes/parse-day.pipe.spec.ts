import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { ParseDayPipe } from './parse-day.pipe.js';

const metadata: ArgumentMetadata = { type: 'query', data: 'createdOn', metatype: Object };

function failure(value: unknown): unknown {
  try {
    return { parsed: new ParseDayPipe().transform(value, metadata)?.toString() };
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: unknown }).message;
  }
}

describe('ParseDayPipe', () => {
  const pipe = new ParseDayPipe();

  describe('when validation passes', () => {
    it.each([
      ['2026-12-02', 'UTC', '2026-12-02T00:00:00.000Z', '2026-12-03T00:00:00.000Z'],
      ['2026-12-03', 'Pacific/Kiritimati', '2026-12-02T10:00:00.000Z', '2026-12-03T10:00:00.000Z'],
      ['2026-03-29', 'Europe/Prague', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'], // 23 hours
      ['2024-02-29', 'UTC', '2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
      // Valid days whatever their zone: whether an ObjectId can hold them is decided with the zone.
      ['1969-12-31', 'Pacific/Kiritimati', undefined, undefined],
    ])('should take %s; in %s it runs from %s to %s', (value, timeZone, from, to) => {
      const day = pipe.transform(value, metadata)!;
      expect(day.toString()).toBe(value);
      if (from !== undefined) {
        expect([day.startIn(timeZone).toISOString(), day.endIn(timeZone).toISOString()]).toEqual([from, to]);
      }
    });

    it.each([[undefined], ['']])('should treat %j as absent', (value) => {
      expect(pipe.transform(value, metadata)).toBeUndefined();
    });
  });

  describe('when validation fails', () => {
    it.each([
      ['2020-3-1', '"2020-3-1"'],
      ['2026-12-02T00:00Z', '"2026-12-02T00:00Z"'],
      ['20261202', '"20261202"'],
      [' 2026-12-02', '" 2026-12-02"'],
      ['yesterday', '"yesterday"'],
      [['2026-12-01', '2026-12-02'], 'several values'],
      [{ a: '2026-12-01' }, '{"a":"2026-12-01"}'],
    ])('should refuse %j as not a day', (value, shown) => {
      expect(failure(value)).toBe(`createdOn must be a day as YYYY-MM-DD, e.g. 2026-12-02, got ${shown}`);
    });

    it.each([['2026-02-30'], ['2025-02-29'], ['2026-13-01'], ['2026-00-10'], ['2026-04-31'], ['2026-12-00']])(
      'should refuse %s, which the calendar does not have',
      (value) => {
        expect(failure(value)).toBe(`createdOn ${value} is not a day of the calendar; pick one that exists`);
      },
    );
  });
});
