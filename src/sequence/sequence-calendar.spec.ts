import { assertTimeZone, zonedDateParts } from './sequence-calendar.js';
import { SequenceConfigError } from './sequence-config.error.js';

describe('zonedDateParts', () => {
  it.each([
    ['2026-12-31T22:59:59.999Z', 'Europe/Prague', { year: '2026', month: '12', day: '31' }],
    ['2026-12-31T23:00:00.000Z', 'Europe/Prague', { year: '2027', month: '01', day: '01' }],
    ['2026-12-31T23:00:00.000Z', 'UTC', { year: '2026', month: '12', day: '31' }],
    ['2027-01-01T00:00:00.000Z', 'UTC', { year: '2027', month: '01', day: '01' }],
    ['2026-07-01T03:59:59.999Z', 'America/New_York', { year: '2026', month: '06', day: '30' }],
    ['2026-07-01T04:00:00.000Z', 'America/New_York', { year: '2026', month: '07', day: '01' }],
    ['2026-03-04T13:00:00.000Z', 'Pacific/Kiritimati', { year: '2026', month: '03', day: '05' }],
    ['0099-05-06T12:00:00.000Z', 'UTC', { year: '0099', month: '05', day: '06' }],
  ])('should give %s in %s as %j', (iso, timeZone, expected) => {
    expect(zonedDateParts(new Date(iso), timeZone)).toEqual(expected);
  });
});

describe('assertTimeZone', () => {
  it.each([['Europe/Prag'], [''], [42], ['+01:00x']])('should reject %p', (timeZone) => {
    expect(() => assertTimeZone(timeZone, 'Sequence "orders"')).toThrow(SequenceConfigError);
    expect(() => assertTimeZone(timeZone, 'Sequence "orders"')).toThrow(
      /^Sequence "orders": unknown time zone .*Use an IANA name such as "UTC" or "Europe\/Prague"\.$/,
    );
  });

  it.each([['UTC'], ['Europe/Prague'], ['Asia/Kolkata']])('should accept %p', (timeZone) => {
    expect(() => assertTimeZone(timeZone, 'x')).not.toThrow();
  });
});
