import { BadRequestException } from '@nestjs/common';
import { DateFilter, isCalendarDay } from './date-filter.js';

function failure(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: unknown }).message;
  }
}

const RANGE = '1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z';

describe('DateFilter', () => {
  describe('a day', () => {
    it.each([
      ['1970-01-01', 'UTC', '1970-01-01T00:00:00.000Z', '1970-01-02T00:00:00.000Z'],
      ['1970-01-01', 'America/New_York', '1970-01-01T05:00:00.000Z', '1970-01-02T05:00:00.000Z'],
      ['2106-02-06', 'UTC', '2106-02-06T00:00:00.000Z', '2106-02-07T00:00:00.000Z'],
      ['2026-10-25', 'Europe/Prague', '2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z'], // 25 hours
    ])('should run %s in %s from %s to %s', (day, timeZone, from, to) => {
      const filter = DateFilter.day('createdOn', day);
      expect([filter.startIn(timeZone).toISOString(), filter.endIn(timeZone).toISOString()]).toEqual([from, to]);
    });

    it.each([
      ['1969-12-31', 'UTC'],
      ['1970-01-01', 'Asia/Tokyo'], // begins at 1969-12-31T15:00:00Z
      ['2106-02-07', 'UTC'], // ends after 06:28:15
      ['9999-12-31', 'Europe/Prague'],
    ])('should answer 400 for %s in %s, in words about dates', (day, timeZone) => {
      const expected =
        `createdOn ${day} (a day in ${timeZone}) is not wholly within the times an ObjectId can hold, ` +
        `${RANGE}; pick a day between`;
      const filter = DateFilter.day('createdOn', day);
      expect([failure(() => filter.startIn(timeZone)), failure(() => filter.endIn(timeZone))]).toEqual([
        expected,
        expected,
      ]);
    });
  });

  describe('an instant', () => {
    it('should be the same instant in every zone', () => {
      const filter = DateFilter.instant('createdTo', new Date('2026-12-02T10:00:00Z'));
      expect([filter.startIn('UTC'), filter.startIn('Asia/Tokyo'), filter.endIn('Asia/Tokyo')]).toEqual([
        new Date('2026-12-02T10:00:00Z'),
        new Date('2026-12-02T10:00:00Z'),
        new Date('2026-12-02T10:00:00Z'),
      ]);
      expect(filter.toString()).toBe('2026-12-02T10:00:00.000Z');
    });

    it.each([
      ['1970-01-01T00:00:00.000Z', undefined],
      ['2106-02-07T06:28:15.000Z', undefined],
      [
        '1969-12-31T23:59:59.999Z',
        `createdTo 1969-12-31T23:59:59.999Z is outside the times an ObjectId can hold, ${RANGE}`,
      ],
      [
        '2106-02-07T06:28:15.001Z',
        `createdTo 2106-02-07T06:28:15.001Z is outside the times an ObjectId can hold, ${RANGE}`,
      ],
    ])('should take %s only within the ObjectId time range', (iso, message) => {
      const result = failure(() => DateFilter.instant('createdTo', new Date(iso)).toString());
      expect(result).toEqual(message ?? { value: iso });
    });
  });

  it.each([
    [2026, 2, 28, true],
    [2026, 2, 29, false],
    [2024, 2, 29, true],
    [2000, 2, 29, true],
    [1900, 2, 29, false],
    [0, 2, 29, true], // year 0 is a leap year (Date.UTC would read it as 1900)
    [2026, 4, 31, false],
    [2026, 12, 31, true],
    [2026, 13, 1, false],
    [2026, 0, 1, false],
    [2026, 1, 0, false],
  ])('isCalendarDay(%d, %d, %d) is %s', (year, month, day, expected) => {
    expect(isCalendarDay(year, month, day)).toBe(expected);
  });
});
