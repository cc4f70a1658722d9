import fc from 'fast-check';

import { CommandError } from '../commands/command-error.js';
import {
  civilFromDays,
  dateFromIsoWeek,
  daysFromCivil,
  isoDayOfWeek,
  isoWeekOf,
  TimeZone,
  timeZoneArgument,
} from './date-time-zones.js';

const MS_PER_DAY = 86_400_000;

describe('calendar helpers', () => {
  it('should count days as the proleptic Gregorian calendar does (JS Date as the reference)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -3_000_000, max: 3_000_000 }), (days) => {
        const reference = new Date(days * MS_PER_DAY);
        const date = civilFromDays(days);
        expect(date).toEqual({
          year: reference.getUTCFullYear(),
          month: reference.getUTCMonth() + 1,
          day: reference.getUTCDate(),
        });
        expect(daysFromCivil(date.year, date.month, date.day)).toBe(days);
      }),
    );
  });

  it.each([
    // Out-of-range fields carry over, as timelib lets them.
    [2017, 13, 1, '2018-01-01'],
    [2017, 0, 1, '2016-12-01'],
    [2017, -1, 1, '2016-11-01'],
    [2017, 3, 0, '2017-02-28'],
    [2016, 2, 30, '2016-03-01'],
  ])('should carry %i-%i-%i over to %s', (year, month, day, expected) => {
    expect(new Date(daysFromCivil(year, month, day) * MS_PER_DAY).toISOString().slice(0, 10)).toBe(expected);
  });

  it.each([
    // [date, ISO year, ISO week, ISO day] from ISO 8601's own examples and year ends.
    ['2005-01-01', 2004, 53, 6],
    ['2008-12-29', 2009, 1, 1],
    ['2009-12-31', 2009, 53, 4],
    ['2010-01-03', 2009, 53, 7],
    ['1900-12-31', 1901, 1, 1],
    ['2012-01-01', 2011, 52, 7],
  ])('should give %s the ISO week date %i-W%i-%i', (text, isoYear, isoWeek, isoDay) => {
    const [year, month, day] = text.split('-').map(Number) as [number, number, number];
    expect(isoWeekOf(year, month, day)).toEqual({ isoYear, isoWeek });
    expect(isoDayOfWeek(year, month, day)).toBe(isoDay);
    expect(dateFromIsoWeek(isoYear, isoWeek, isoDay)).toBe(daysFromCivil(year, month, day));
  });
});

describe('TimeZone', () => {
  it.each([
    ['UTC', 0],
    ['+05', 5 * 3600],
    ['-0320', -(3 * 3600 + 20 * 60)],
    ['+05:30', 5 * 3600 + 30 * 60],
    ['America/New_York', -4 * 3600],
    ['America/Argentina/Buenos_Aires', -3 * 3600],
    ['America/Port-au-Prince', -4 * 3600],
    ['Australia/Eucla', 8 * 3600 + 45 * 60],
    ['Etc/GMT+5', -5 * 3600],
  ])('should take %s (offset %i s on 2017-07-04)', (name, offset) => {
    expect(TimeZone.named(name).offset(Date.UTC(2017, 6, 4))).toBe(offset);
  });

  it.each([
    // On the day of a transition each date has its own offset (New York moved to EDT at 07:00Z) …
    ['2020-03-08T06:59:59.999Z', -5 * 3600],
    ['2020-03-08T07:00:00.000Z', -4 * 3600],
    ['2020-11-01T05:59:59.999Z', -4 * 3600],
    ['2020-11-01T06:00:00.000Z', -5 * 3600],
    // … and the days around it theirs, asked for in any order.
    ['2020-03-07T23:00:00.000Z', -5 * 3600],
    ['2020-03-09T00:00:00.000Z', -4 * 3600],
  ])('should give New York at %s the offset %i s', (text, offset) => {
    const zone = TimeZone.named('America/New_York');
    expect(zone.offset(Date.parse(text))).toBe(offset);
    expect(TimeZone.named('America/New_York')).toBe(zone);
  });

  it('should keep the seconds of a historic offset (Caracas, 1900: -04:27:40)', () => {
    const local = TimeZone.named('America/Caracas').local(Date.parse('1900-07-10T11:41:22.418Z'));
    expect(local).toMatchObject({ hour: 7, minute: 13, second: 42, millisecond: 418, offset: -16_060 });
  });

  it.each(['DoesNotExist', 'America/Invalid', '+5', '+0530x', '+05:3', '05:00', '', 'UTC/../x', '__proto__'])(
    'should refuse %j with 40485',
    (name) => {
      expect(() => TimeZone.named(name)).toThrow(
        expect.objectContaining({ code: 40485, message: `unrecognized time zone identifier: "${name}"` }),
      );
    },
  );

  it.each([
    // A local time a transition skips is read with the offset before it (02:30 EST is 03:30 EDT) …
    ['2020-03-08T02:30', '2020-03-08T07:30:00.000Z'],
    // … one it repeats is its first occurrence (01:30 EDT).
    ['2020-11-01T01:30', '2020-11-01T05:30:00.000Z'],
    ['2020-07-01T12:00', '2020-07-01T16:00:00.000Z'],
    ['2020-01-01T12:00', '2020-01-01T17:00:00.000Z'],
  ])('should read the local time %s in New York as %s', (local, expected) => {
    const zone = TimeZone.named('America/New_York');
    expect(new Date(zone.fromLocal(Date.parse(`${local}Z`))).toISOString()).toBe(expected);
  });

  it('should give back every instant from its local time outside transitions (property)', () => {
    const zone = TimeZone.named('Europe/Prague');
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1980, 0, 1), max: Date.UTC(2040, 0, 1) }), (ms) => {
        const offset = zone.offset(ms);
        fc.pre(zone.offset(ms - MS_PER_DAY) === offset && zone.offset(ms + MS_PER_DAY) === offset);
        expect(zone.fromLocal(ms + offset * 1000)).toBe(ms);
      }),
    );
  });
});

describe('timeZoneArgument', () => {
  it('should give UTC for an absent argument and null for null', () => {
    expect(timeZoneArgument(undefined)).toBe(TimeZone.UTC);
    expect(timeZoneArgument(null)).toBeNull();
  });

  it.each([
    [5.5, 'double'],
    [5, 'int'],
    [true, 'bool'],
    [{ a: 1 }, 'object'],
  ])('should refuse %j with 40517', (value, type) => {
    const error = (() => {
      try {
        timeZoneArgument(value);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(CommandError);
    expect(error).toMatchObject({ code: 40517, message: `timezone must evaluate to a string, found ${type}` });
  });
});
