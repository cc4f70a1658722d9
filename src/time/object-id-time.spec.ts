import fc from 'fast-check';
import { Types } from 'mongoose';
import { FUZZ } from '../core/object-id-arbitraries.fixture.js';
import {
  dayBounds,
  dayRange,
  decodeObjectId,
  generateObjectIdAt,
  generateObjectIds,
  objectIdFromDate,
  objectIdRange,
} from './object-id-time.js';

describe('objectIdFromDate', () => {
  it.each([
    ['the epoch', new Date(0), '000000000000000000000000'],
    ['milliseconds since the epoch', 1_700_000_000_000, '6553f1000000000000000000'],
    [
      'a Date with milliseconds (floored to the second)',
      new Date('2023-11-14T22:13:20.999Z'),
      '6553f1000000000000000000',
    ],
    ['the last representable second', new Date('2106-02-07T06:28:15Z'), 'ffffffff0000000000000000'],
  ])('should build the smallest id of %s', (_label, input, hex) => {
    const id = objectIdFromDate(input);
    expect(id).toBeInstanceOf(Types.ObjectId);
    expect(id.toHexString()).toBe(hex);
  });

  it.each([
    ['NaN', Number.NaN, /not a valid date/],
    ['an invalid Date', new Date('nope'), /not a valid date/],
    ['a date before 1970', new Date('1969-12-31T23:59:59Z'), /outside the ObjectId time range/],
    ['a date after 2106-02-07T06:28:15Z', new Date('2106-02-07T06:28:16Z'), /outside the ObjectId time range/],
    ['Infinity', Number.POSITIVE_INFINITY, /outside the ObjectId time range/],
  ])('should refuse %s', (_label, input, message) => {
    expect(() => objectIdFromDate(input)).toThrow(message);
  });

  it('should read a number as milliseconds: seconds land in January 1970', () => {
    expect(decodeObjectId(objectIdFromDate(1_700_000_000)).date.toISOString()).toBe('1970-01-20T16:13:20.000Z');
  });
});

describe('objectIdRange', () => {
  it('should give half-open bounds on whole seconds', () => {
    const range = objectIdRange(new Date('2026-12-02T00:00:00Z'), new Date('2026-12-03T00:00:00Z'));
    expect(Object.keys(range)).toEqual(['$gte', '$lt']);
    expect(decodeObjectId(range.$gte).date.toISOString()).toBe('2026-12-02T00:00:00.000Z');
    expect(decodeObjectId(range.$lt).date.toISOString()).toBe('2026-12-03T00:00:00.000Z');
  });

  it('should round a bound with milliseconds outwards', () => {
    const range = objectIdRange(new Date('2026-12-02T10:00:00.700Z'), new Date('2026-12-02T10:00:05.200Z'));
    expect(decodeObjectId(range.$gte).date.toISOString()).toBe('2026-12-02T10:00:00.000Z');
    expect(decodeObjectId(range.$lt).date.toISOString()).toBe('2026-12-02T10:00:06.000Z');
  });

  it('should contain an id made inside the range and exclude one made at its end', () => {
    const range = objectIdRange(Date.UTC(2026, 11, 2), Date.UTC(2026, 11, 3));
    const inside = Types.ObjectId.createFromTime(Date.UTC(2026, 11, 2, 23, 59, 59) / 1000);
    const atEnd = Types.ObjectId.createFromTime(Date.UTC(2026, 11, 3) / 1000);
    expect(inside.toHexString() >= range.$gte.toHexString() && inside.toHexString() < range.$lt.toHexString()).toBe(
      true,
    );
    expect(atEnd.toHexString() < range.$lt.toHexString()).toBe(false);
  });

  it('should refuse a range whose end is before its start', () => {
    expect(() => objectIdRange(Date.UTC(2026, 0, 2), Date.UTC(2026, 0, 1))).toThrow(/is before "from".*swap them/);
  });
});

describe('dayBounds / dayRange', () => {
  it.each([
    ['2026-12-02', 'UTC', '2026-12-02T00:00:00.000Z', '2026-12-03T00:00:00.000Z', 24],
    ['2026-12-02', 'Asia/Kolkata', '2026-12-01T18:30:00.000Z', '2026-12-02T18:30:00.000Z', 24],
    ['2026-03-29', 'Europe/Prague', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', 23],
    ['2026-10-25', 'Europe/Prague', '2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z', 25],
    // Chile moves its clocks at midnight: 2026-09-06 starts at 01:00 local time.
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z', '2026-09-07T03:00:00.000Z', 23],
    ['2026-12-31', 'Pacific/Kiritimati', '2026-12-30T10:00:00.000Z', '2026-12-31T10:00:00.000Z', 24],
    ['2024-02-29', 'UTC', '2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z', 24],
  ])('should find %s in %s', (day, zone, from, to, hours) => {
    const bounds = dayBounds(day, zone);
    expect([bounds.from.toISOString(), bounds.to.toISOString()]).toEqual([from, to]);
    expect((bounds.to.getTime() - bounds.from.getTime()) / 3_600_000).toBe(hours);
    const range = dayRange(day, zone);
    expect(decodeObjectId(range.$gte).date.toISOString()).toBe(from);
    expect(decodeObjectId(range.$lt).date.toISOString()).toBe(to);
  });

  it('should take the local day of a Date', () => {
    // 23:30 UTC on 2 December is already 3 December in Prague.
    expect(dayBounds(new Date('2026-12-02T23:30:00Z'), 'Europe/Prague').from.toISOString()).toBe(
      '2026-12-02T23:00:00.000Z',
    );
  });

  it.each([
    ['2026-02-30', /is not a calendar day/],
    ['2026-13-01', /is not a calendar day/],
    ['02.12.2026', /is not a calendar day/],
    ['2026-12-2', /is not a calendar day/],
  ])('should refuse the day %j', (day, message) => {
    expect(() => dayBounds(day)).toThrow(message);
  });

  it.each([['UTC'], ['Europe/Prague']])('should read years 0-99 as written, not as 19xx (%s)', (zone) => {
    const { from, to } = dayBounds('0099-12-31', zone);
    expect(from.getUTCFullYear()).toBe(99);
    expect(to.getTime() - from.getTime()).toBeGreaterThan(23 * 3600_000);
    expect(() => dayRange('0099-12-31', zone)).toThrow(RangeError);
    expect(() => dayRange('0099-12-31', zone)).toThrow(/0099-12-3\d.* is outside the ObjectId time range/);
  });

  it('should refuse an unknown time zone with a hint', () => {
    expect(() => dayRange('2026-12-02', 'Mars/Olympus')).toThrow(
      'Unknown time zone "Mars/Olympus"; use an IANA name such as "UTC" or "Europe/Prague"',
    );
  });
});

describe('decodeObjectId', () => {
  it('should split the example id from the specification', () => {
    expect(decodeObjectId('507f1f77bcf86cd799439011')).toEqual({
      hex: '507f1f77bcf86cd799439011',
      timestamp: 1_350_508_407,
      date: new Date('2012-10-17T21:13:27Z'),
      processUnique: 'bcf86cd799',
      counter: 0x439011,
    });
  });

  it('should decode the worked example: time 1700000000, random 3f2a91c8d4, counter 12345', () => {
    expect(decodeObjectId(new Types.ObjectId('6553f1003f2a91c8d4003039'))).toMatchObject({
      timestamp: 1_700_000_000,
      processUnique: '3f2a91c8d4',
      counter: 12_345,
    });
  });

  it('should accept upper case and return lowercase hex', () => {
    expect(decodeObjectId('6553F1003F2A91C8D4003039').hex).toBe('6553f1003f2a91c8d4003039');
  });

  it.each(['abc', '', 'zzzzzzzzzzzzzzzzzzzzzzzz'])('should refuse %j', (input) => {
    expect(() => decodeObjectId(input)).toThrow();
  });
});

describe('generateObjectIds', () => {
  it('should share the process-unique part and count up by one', () => {
    const ids = generateObjectIds(100).map(decodeObjectId);
    expect(ids).toHaveLength(100);
    expect(new Set(ids.map((id) => id.processUnique)).size).toBe(1);
    ids.slice(1).forEach((id, index) => expect(id.counter).toBe((ids[index].counter + 1) % 0x1000000));
  });

  it.each([0, -1, 1001, 1.5, Number.NaN])('should refuse count %p', (count) => {
    expect(() => generateObjectIds(count)).toThrow(/count must be an integer from 1 to 1000/);
  });

  it('should make up to 1000', () => {
    expect(generateObjectIds(1000)).toHaveLength(1000);
  });
});

describe('generateObjectIdAt', () => {
  const MAX_MS = 0xffffffff * 1000;

  it.each([
    ['the epoch', new Date(0), 0],
    ['a Date with milliseconds (dropped)', new Date('2020-05-17T10:00:00.999Z'), 1589709600],
    ['milliseconds', Date.UTC(2026, 11, 2), 1796169600],
    ['the last second 4 bytes hold', new Date(MAX_MS), 0xffffffff],
    ['its last millisecond', MAX_MS + 999, 0xffffffff],
    ['a fraction of a millisecond', 1500.5, 1],
  ])('should carry %s as whole seconds', (_label, date, seconds) => {
    expect(decodeObjectId(generateObjectIdAt(date)).timestamp).toBe(seconds);
  });

  it("should make unique ids for one second: this process's random value, the shared counter", () => {
    const date = new Date('2019-01-01T00:00:00Z');
    const before = decodeObjectId(new Types.ObjectId());
    const ids = Array.from({ length: 50 }, () => decodeObjectId(generateObjectIdAt(date)));
    const after = decodeObjectId(new Types.ObjectId());
    expect(new Set(ids.map((id) => id.hex)).size).toBe(50);
    expect(new Set([before, ...ids, after].map((id) => id.processUnique)).size).toBe(1);
    [...ids, after].forEach((id, index) =>
      expect(id.counter).toBe(((index === 0 ? before : ids[index - 1]).counter + 1) % 0x1000000),
    );
    // Not a range bound: the tail is not zero, unlike objectIdFromDate().
    expect(ids[0].hex.slice(0, 8)).toBe(objectIdFromDate(date).toHexString().slice(0, 8));
    expect(ids[0].hex).not.toBe(objectIdFromDate(date).toHexString());
  });

  it('should return a Types.ObjectId', () => {
    expect(generateObjectIdAt(Date.now())).toBeInstanceOf(Types.ObjectId);
  });

  it.each([
    [
      'an invalid Date',
      new Date('nope'),
      'generateObjectIdAt: date is not a valid date; pass a Date or milliseconds since the epoch',
    ],
    ['NaN', Number.NaN, 'generateObjectIdAt: date is not a valid date; pass a Date or milliseconds since the epoch'],
    [
      'a string',
      '2020-01-01' as unknown as Date,
      'generateObjectIdAt: date is not a valid date; pass a Date or milliseconds since the epoch',
    ],
    [
      'one millisecond before 1970',
      -1,
      'generateObjectIdAt: date 1969-12-31T23:59:59.999Z is outside the ObjectId time range 1970-01-01T00:00:00Z .. 2106-02-07T06:28:15Z (note: numbers are milliseconds, not seconds)',
    ],
    [
      'the first second after 2106-02-07T06:28:15Z',
      MAX_MS + 1000,
      'generateObjectIdAt: date 2106-02-07T06:28:16.000Z is outside the ObjectId time range 1970-01-01T00:00:00Z .. 2106-02-07T06:28:15Z (note: numbers are milliseconds, not seconds)',
    ],
    [
      'Infinity',
      Number.POSITIVE_INFINITY,
      'generateObjectIdAt: date Infinity is outside the ObjectId time range 1970-01-01T00:00:00Z .. 2106-02-07T06:28:15Z (note: numbers are milliseconds, not seconds)',
    ],
  ])('should refuse %s instead of letting bson wrap it', (_label, date, message) => {
    expect(() => generateObjectIdAt(date)).toThrow(new RangeError(message));
  });

  it('should keep every instant of the range and stay unique (seeded)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_MS + 999 }), (ms) => {
        const id = decodeObjectId(generateObjectIdAt(ms));
        expect(id.timestamp).toBe(Math.floor(ms / 1000));
        expect(seen.has(id.hex)).toBe(false);
        seen.add(id.hex);
      }),
      FUZZ,
    );
  });
});
