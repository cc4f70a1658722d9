/**
 * The parser behind `$dateFromString`, against mongod's answers: every input
 * of conformance-date-expressions.spec.ts's $dateFromString tables and of
 * the jstests they come from (date_from_string.js,
 * date_from_string_on_error.js), then inputs applications commonly send,
 * then hostile ones, which must fail (a scan that is not linear would run
 * past Jest's test timeout).
 */
import { CommandError } from '../commands/command-error.js';
import { parseDateString, validateFromStringFormat } from './date-from-string.js';
import { TimeZone } from './date-time-zones.js';

/** A date (ISO text, UTC) or an error: its code name and a fragment of its message. */
type Expected = string | { error: string; code?: string };
/** The string, the format (or undefined), the timezone argument (or undefined), the answer. */
type Case = [string, string | undefined, string | undefined, Expected];

const fails = (error: string, code = 'ConversionFailure'): Expected => ({ error, code });

function parse(text: string, format?: string, timezone?: string): number {
  if (format !== undefined) validateFromStringFormat(format);
  return parseDateString(text, timezone === undefined ? TimeZone.UTC : TimeZone.named(timezone), format);
}

function check([text, format, timezone, expected]: Case): void {
  if (typeof expected === 'string') {
    expect(new Date(parse(text, format, timezone)).toISOString()).toBe(new Date(expected).toISOString());
    return;
  }
  let thrown: unknown;
  try {
    parse(text, format, timezone);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(CommandError);
  expect(thrown).toMatchObject({ codeName: expected.code ?? 'ConversionFailure' });
  expect((thrown as Error).message).toContain(expected.error);
}

const ISO_FORMAT = '%Y-%m-%dT%H:%M:%S.%L%z';

// conformance-date-expressions.spec.ts: DATE_FROM_STRING, DATE_FROM_STRING_ERRORS, DATE_FROM_STRING_ON_ERROR(_ERRORS).
const CONFORMANCE: Case[] = [
  ['2017-07-04T11:56:02Z', undefined, undefined, '2017-07-04T11:56:02Z'],
  ['2017-07-04T11:56:02Z', '%Y-%m-%dT%H:%M:%SZ', undefined, '2017-07-04T11:56:02Z'],
  ['2017-07-04T11:56:02.81Z', undefined, undefined, '2017-07-04T11:56:02.810Z'],
  ['2017-07-04T11:56.02', undefined, undefined, '2017-07-04T11:56:02Z'],
  ['2017-07-04T11:56.02.8', undefined, undefined, '2017-07-04T11:56:02.800Z'],
  ['2017-07-04T11:56.02.8', '%Y-%m-%dT%H:%M.%S.%L', undefined, '2017-07-04T11:56:02.800Z'],
  ['2017-07-04T11:56.02', undefined, 'Europe/London', '2017-07-04T10:56:02Z'],
  ['2017-07-04T11:56.02.8', '%Y-%m-%dT%H:%M.%S.%L', '+01:00', '2017-07-04T10:56:02.800Z'],
  ['2017-07-06T12:35:37.513Z', undefined, undefined, '2017-07-06T12:35:37.513Z'],
  ['2017-07-06T12:35:37', undefined, undefined, '2017-07-06T12:35:37Z'],
  ['1960-07-10T12:10:37.448', undefined, undefined, '1960-07-10T12:10:37.448Z'],
  ['1960-07-10T12:10:37.448', '%Y-%m-%dT%H:%M:%S.%L', undefined, '1960-07-10T12:10:37.448Z'],
  ['2017-07-06T12:35:37.513', undefined, 'GMT', '2017-07-06T12:35:37.513Z'],
  ['1960-07-10T12:35:37.513', undefined, 'America/New_York', '1960-07-10T16:35:37.513Z'],
  ['1960-07-10T12:35:37.513', '%Y-%m-%dT%H:%M:%S.%L', 'America/New_York', '1960-07-10T16:35:37.513Z'],
  ['1960-07-10T12:35:37.513', undefined, 'Europe/London', '1960-07-10T11:35:37.513Z'],
  ['2017-07-06T12:35:37.513', undefined, '+04:00', '2017-07-06T08:35:37.513Z'],
  ['2017-07-06T12:35:37', undefined, 'Asia/Tokyo', '2017-07-06T03:35:37Z'],
  ['2017-07-19T18:52:35.199', undefined, 'America/New_York', '2017-07-19T22:52:35.199Z'],
  ['2017-01-01 00:00:00', undefined, undefined, '2017-01-01T00:00:00Z'],
  ['2017-07-06 11:36:54', undefined, undefined, '2017-07-06T11:36:54Z'],
  ['2017-07-14T12:02:44.771 GMT', undefined, undefined, '2017-07-14T12:02:44.771Z'],
  ['2017-07-14T12:02:44.771 GMT+02', undefined, undefined, '2017-07-14T10:02:44.771Z'],
  ['2017-07-14T12:02:44.771 GMT+02', ISO_FORMAT, undefined, '2017-07-14T10:02:44.771Z'],
  ['2017-07-14T12:02:44.771+0330', undefined, undefined, '2017-07-14T08:32:44.771Z'],
  ['2017-07-14T12:02:44.771 CEST', undefined, undefined, '2017-07-14T10:02:44.771Z'],
  ['2017-07-14T12:02:44.771 L', undefined, undefined, '2017-07-14T01:02:44.771Z'],
  ['July 4th, 2017', undefined, undefined, '2017-07-04T00:00:00Z'],
  ['July 4th, 2017 12:39:30 BST', undefined, undefined, '2017-07-04T11:39:30Z'],
  ['04-07-2017', undefined, undefined, '2017-07-04T00:00:00Z'],
  ['2017-07-04 12:48:07 GMT+0545', undefined, undefined, '2017-07-04T07:03:07Z'],
  ['1992 % 04 % 26', '%Y %% %m %% %d', undefined, '1992-04-26T00:00:00Z'],
  ['4/26/1992:+0445', '%m/%d/%Y:%z', undefined, '1992-04-25T19:15:00Z'],
  ['4/26/1992:+285', '%m/%d/%Y:%Z', undefined, '1992-04-25T19:15:00Z'],
  ['2017', '%G', undefined, '2017-01-02T00:00:00Z'],
  ['2017, Week 53', '%G, Week %V', undefined, '2018-01-01T00:00:00Z'],
  ['53.7.2017', '%V.%u.%G', undefined, '2018-01-07T00:00:00Z'],
  ['1.1.1', '%V.%u.%G', undefined, '0001-01-01T00:00:00Z'],
  ['July 4th', undefined, undefined, fails('an incomplete date/time string has been found')],
  ['2017, 12:50:53', undefined, undefined, fails("Error parsing date string '2017, 12:50:53'")],
  ['2017-07-12T22:23:55 GMT+02:00', undefined, 'Europe/Amsterdam', fails('you cannot pass in a date/time string with')],
  [
    '2017-07-12T22:23:55 Europe/Amsterdam',
    undefined,
    undefined,
    fails('passing a time zone identifier as part of the string is not allowed'),
  ],
  ['2018-01', '%Y-%m-%d', undefined, fails('Data missing')],
  ['2018-01', '%Y', undefined, fails('Trailing data')],
  ['1992-26-04', 'Y-d-m', undefined, fails('Format literal not found')],
  ['1992', '%n', undefined, fails("Invalid format character '%n' in format string", 'Location18536')],
  [
    '4/26/1992:+0445',
    '%m/%d/%Y:%z',
    '+0500',
    fails('you cannot pass in a date/time string with GMT offset together with a timezone argument'),
  ],
  ['ISO Day 6', 'ISO Day %u', undefined, fails('The parsed date was invalid')],
  ['12/31/2018', '%m/%d/%G', undefined, fails('Mixing of ISO dates with natural dates is not allowed')],
  ['12/31\0/2018', '%m/%d/%Y', undefined, fails('Data missing')],
  ['Not even close', undefined, undefined, fails('Error parsing date string')],
  ['2018-02-06', 'Y-m-d', undefined, fails('Format literal not found')],
  ['2018-02-06T11:56:02Z', undefined, undefined, '2018-02-06T11:56:02Z'],
  ['Invalid date string', undefined, undefined, fails('Error parsing date string')],
  ['invalid', undefined, undefined, fails('Error parsing date string')],
  ['4/26/1992', '%n', undefined, fails("Invalid format character '%n' in format string", 'Location18536')],
];

// The rest of date_from_string.js and date_from_string_on_error.js.
const JSTESTS: Case[] = [
  ['2017-07-04T11:56:02.813Z', '%Y-%m-%dT%H:%M:%S.%LZ', undefined, '2017-07-04T11:56:02.813Z'],
  ['2017-07-04T11:56:02.81Z', '%Y-%m-%dT%H:%M:%S.%LZ', undefined, '2017-07-04T11:56:02.810Z'],
  ['2017-07-04T11:56:02.8Z', undefined, undefined, '2017-07-04T11:56:02.800Z'],
  ['2017-07-04T11:56.02', '%Y-%m-%dT%H:%M.%S', undefined, '2017-07-04T11:56:02Z'],
  ['2017-07-04T11:56.02.813', undefined, undefined, '2017-07-04T11:56:02.813Z'],
  ['2017-07-04T11:56.02.81', '%Y-%m-%dT%H:%M.%S.%L', undefined, '2017-07-04T11:56:02.810Z'],
  ['2017-07-04T11:56.02.813', '%Y-%m-%dT%H:%M.%S.%L', 'Europe/London', '2017-07-04T10:56:02.813Z'],
  ['2017-07-04T11:56.02.81', undefined, '+01:00', '2017-07-04T10:56:02.810Z'],
  ['2017-07-06T12:35:37.513', '%Y-%m-%dT%H:%M:%S.%L', 'UTC', '2017-07-06T12:35:37.513Z'],
  ['2017-07-06T12:35:37.513', '%Y-%m-%dT%H:%M:%S.%L', 'America/Los_Angeles', '2017-07-06T19:35:37.513Z'],
  ['2017-07-06T12:35:37.513', undefined, 'Europe/Paris', '2017-07-06T10:35:37.513Z'],
  ['2017-07-19T18:52:35.199', undefined, '-05:00', '2017-07-19T23:52:35.199Z'],
  ['2017-07-01 00:00:00', undefined, undefined, '2017-07-01T00:00:00Z'],
  ['2017-07-06', undefined, undefined, '2017-07-06T00:00:00Z'],
  ['2017-07-06 11:36:00', undefined, undefined, '2017-07-06T11:36:00Z'],
  ...(
    [
      ['2017-07-14T12:02:44.771 GMT', '2017-07-14T12:02:44.771Z'],
      ['2017-07-14T12:02:44.771 GMT+00', '2017-07-14T12:02:44.771Z'],
      ['2017-07-14T12:02:44.771 GMT+00:00', '2017-07-14T12:02:44.771Z'],
      ['2017-07-14T12:02:44.771 GMT+02:00', '2017-07-14T10:02:44.771Z'],
      ['2017-07-14T12:02:44.771+03', '2017-07-14T09:02:44.771Z'],
      ['2017-07-14T12:02:44.771+0330', '2017-07-14T08:32:44.771Z'],
      ['2017-07-14T12:02:44.771+03:30', '2017-07-14T08:32:44.771Z'],
      ['2017-07-14T12:02:44.771 UTC', '2017-07-14T12:02:44.771Z'],
      ['2017-07-14T12:02:44.771 CEST', '2017-07-14T10:02:44.771Z'],
      ['2017-07-14T12:02:44.771 EST', '2017-07-14T17:02:44.771Z'],
      ['2017-07-14T12:02:44.771 PDT', '2017-07-14T19:02:44.771Z'],
      ['2017-07-14T12:02:44.771 A', '2017-07-14T11:02:44.771Z'],
      ['2017-07-14T12:02:44.771 L', '2017-07-14T01:02:44.771Z'],
      ['2017-07-14T12:02:44.771 P', '2017-07-14T15:02:44.771Z'],
      ['2017-07-14T12:02:44.771 Z', '2017-07-14T12:02:44.771Z'],
    ] as [string, string][]
  ).flatMap(([text, expected]): Case[] => [
    [text, undefined, undefined, expected],
    [text, ISO_FORMAT, undefined, expected],
  ]),
  ['July 4th, 2017 11am', undefined, undefined, '2017-07-04T11:00:00Z'],
  ['July 4th, 2017 12pm', undefined, undefined, '2017-07-04T12:00:00Z'],
  ['7/4/17', undefined, undefined, '2017-07-04T00:00:00Z'],
  ['2017-Jul-04 noon', undefined, undefined, '2017-07-04T12:00:00Z'],
  ['2017-07-04 12:48:07 GMT-0200', undefined, undefined, '2017-07-04T14:48:07Z'],
  ['05 12 1988', '%d %m %Y', undefined, '1988-12-05T00:00:00Z'],
  ['1992 04 26', '%Y %m %d', undefined, '1992-04-26T00:00:00Z'],
  ['05*12*1988', '%d*%m*%Y', undefined, '1988-12-05T00:00:00Z'],
  ['1992/04/26', '%Y/%m/%d', undefined, '1992-04-26T00:00:00Z'],
  ['Day: 05 Month: 12 Year: 1988', 'Day: %d Month: %m Year: %Y', undefined, '1988-12-05T00:00:00Z'],
  ['Date: 1992/04/26', 'Date: %Y/%m/%d', undefined, '1992-04-26T00:00:00Z'],
  ['2017, Day 5', '%G, Day %u', undefined, '2017-01-06T00:00:00Z'],
  [
    '12:50:53',
    undefined,
    undefined,
    fails('an incomplete date/time string has been found, with elements missing: "12:50:53"'),
  ],
  ['2017', undefined, undefined, fails('an incomplete date/time string has been found')],
  ['60.Monday1770/06:59', undefined, undefined, fails('Error parsing date string')],
  ['July 4th, 10000', undefined, undefined, fails('Error parsing date string')],
  ['2017-07-12T22:23:55Z', undefined, 'Europe/Amsterdam', fails("with time zone information ('Z') together")],
  ['2017-07-12T22:23:55 America/New_York', undefined, 'Europe/Amsterdam', fails('passing a time zone identifier')],
  ['ISO Week 52', 'ISO Week %V', undefined, fails('The parsed date was invalid')],
  ['ISO Week 1, 2018', 'ISO Week %V, %Y', undefined, fails('Mixing of ISO dates with natural dates is not allowed')],
  ['12/31/2018', '%m/%d\0/%Y', undefined, fails('Trailing data')],
  ['2018-02-06', '%Y', undefined, fails('Trailing data')],
  ['2018-02-06', '%Y-%m-%dT%H', undefined, fails('Data missing')],
];

// What applications send: ISO 8601 variants, SQL, RFC 2822, US and European dates, names, offsets.
const COMMON: Case[] = [
  ['2017-07-04T11:56:02.123+02:00', undefined, undefined, '2017-07-04T09:56:02.123Z'],
  ['2017-07-04T11:56:02+0200', undefined, undefined, '2017-07-04T09:56:02Z'],
  ['2017-07-04T11:56:02-05:00', undefined, undefined, '2017-07-04T16:56:02Z'],
  ['2017-07-04T11:56:02.123456789Z', undefined, undefined, '2017-07-04T11:56:02.123Z'],
  ['2017-07-04T11:56:02.000Z', undefined, 'Europe/Paris', fails("time zone information ('Z') together")],
  ['2017-07-04T11:56Z', undefined, undefined, '2017-07-04T11:56:00Z'],
  ['2017-07-04 11:56', undefined, undefined, '2017-07-04T11:56:00Z'],
  ['2017-07-04 11:56:02.5', undefined, undefined, '2017-07-04T11:56:02.500Z'],
  ['2017-07-04 11:56:02 +05:30', undefined, undefined, '2017-07-04T06:26:02Z'],
  ['2017-07-04 12:00:00 UTC', undefined, '+00:00', '2017-07-04T12:00:00Z'],
  ['2017-07-04 12:00:00 UTC', undefined, 'Europe/Paris', fails("time zone information ('UTC') together")],
  ['2017-07-04 12:00 CEST', undefined, 'Europe/Berlin', fails("time zone information ('CEST') together")],
  ['2017-07-04', undefined, 'America/New_York', '2017-07-04T04:00:00Z'],
  ['2017-07-04', '%Y-%m-%d', 'Asia/Kolkata', '2017-07-03T18:30:00Z'],
  ['2017/07/04', undefined, undefined, '2017-07-04T00:00:00Z'],
  ['20170704', undefined, undefined, '2017-07-04T00:00:00Z'],
  ['20170704T115602', undefined, undefined, '2017-07-04T11:56:02Z'],
  ['07/04/2017 10:00 PM', undefined, undefined, '2017-07-04T22:00:00Z'],
  ['12/31/2017 23:59:59', undefined, undefined, '2017-12-31T23:59:59Z'],
  ['31.12.2017', undefined, undefined, '2017-12-31T00:00:00Z'],
  ['31-12-2017 10:00', undefined, undefined, '2017-12-31T10:00:00Z'],
  ['Jul 4 2017', undefined, undefined, '2017-07-04T00:00:00Z'],
  ['4 July 2017', undefined, undefined, '2017-07-04T00:00:00Z'],
  ['Jul 4, 2017 10:30 pm', undefined, undefined, '2017-07-04T22:30:00Z'],
  ['4 Jul 2017 10:00 EDT', undefined, undefined, '2017-07-04T14:00:00Z'],
  ['Tue, 04 Jul 2017 12:00:00 GMT', undefined, undefined, '2017-07-04T12:00:00Z'],
  ['Thu, 01 Jan 1970 00:00:00 GMT', undefined, undefined, '1970-01-01T00:00:00Z'],
  ['Tue Jul 04 2017 12:00:00 GMT+0200', undefined, undefined, '2017-07-04T10:00:00Z'],
  ['Tuesday, July 4, 2017 11:56 AM', undefined, undefined, '2017-07-04T11:56:00Z'],
  // A day name moves the date forward to that day, as timelib does.
  ['Wed, 04 Jul 2017', undefined, undefined, '2017-07-05T00:00:00Z'],
  ['2017-07-04\u00a012:00', undefined, undefined, '2017-07-04T12:00:00Z'],
  ['  2017-07-04T12:00:00Z\n', undefined, undefined, '2017-07-04T12:00:00Z'],
  ['2017-W27-2', undefined, undefined, '2017-07-04T00:00:00Z'],
  ['2017.185', undefined, undefined, fails('The parsed date was invalid')],
  ['@1500000000', undefined, undefined, '2017-07-14T02:40:00Z'],
  ['@1500000000.25', undefined, undefined, '2017-07-14T02:40:00.250Z'],
  ['1999-12-31 23:59:59 Z', undefined, undefined, '1999-12-31T23:59:59Z'],
  // mongod adds whole seconds and microseconds, then truncates toward zero.
  ['1969-12-31T23:59:59.9995Z', undefined, undefined, '1970-01-01T00:00:00Z'],
  ['1960-07-10T12:10:37.4489', undefined, undefined, '1960-07-10T12:10:37.449Z'],
  ['4/26/1992 13:05', '%m/%d/%Y %H:%M', undefined, '1992-04-26T13:05:00Z'],
  ['26 Apr 1992', '%d %b %Y', undefined, '1992-04-26T00:00:00Z'],
  ['April 26, 1992', '%B %d, %Y', undefined, '1992-04-26T00:00:00Z'],
  ['2017-032', '%Y-%j', undefined, '2017-02-02T00:00:00Z'],
  ['4/26/1992 13:5', '%m/%d/%Y %H:%M', undefined, fails('A two digit minute could not be found')],
  ['2017-07-04 +1 day', undefined, undefined, fails('Relative date/time expressions are not supported')],
  ['2017-07-04 +1 mon', undefined, undefined, fails('Relative date/time expressions are not supported')],
  [
    '2017-02-30',
    undefined,
    undefined,
    fails("Error parsing date string '2017-02-30'; 11: The parsed date was invalid"),
  ],
  ['2017-07-04T24:00:00', undefined, undefined, fails('The parsed time was invalid')],
  ['2017-13-01', undefined, undefined, fails("6: Unexpected character '3'")],
  ['', undefined, undefined, fails("Error parsing date string ''; 0: Empty string")],
  ['   ', undefined, undefined, fails('an incomplete date/time string has been found')],
  ['12:00', undefined, undefined, fails('an incomplete date/time string has been found')],
];

describe('parseDateString', () => {
  it.each(CONFORMANCE)('conformance: %j with format %j in %j', (...c) => check(c));
  it.each(JSTESTS)('jstests: %j with format %j in %j', (...c) => check(c));
  it.each(COMMON)('common: %j with format %j in %j', (...c) => check(c));

  it("reports each of timelib's errors, then its warnings, at their byte positions", () => {
    check([
      'Not even close',
      undefined,
      undefined,
      fails(
        "Error parsing date string 'Not even close'; 0: passing a time zone identifier as part of the string is not allowed 'N'; 9: Double timezone specification 'c'; 4: Double timezone specification 'e'",
      ),
    ]);
    check([
      '1992-26-04',
      'Y-d-m',
      undefined,
      fails("0: Format literal not found '1'; 1: Format literal not found '9'"),
    ]);
    check(['2018-01', '%Y-%m-%d', undefined, fails("Error parsing date string '2018-01'; 7: Data missing '\0'")]);
  });
});

describe('validateFromStringFormat', () => {
  it.each(['%Y-%m-%dT%H:%M:%S.%L%z', '%%', '%b %B %G %V %u %j %Z', 'no specifiers', ''])('accepts %j', (format) => {
    expect(() => validateFromStringFormat(format)).not.toThrow();
  });
  it.each([['%'], ['%Y-%m-%d%'], ['%%%']])('18535 for %j', (format) => {
    expect(() => validateFromStringFormat(format)).toThrow(
      expect.objectContaining({ codeName: 'Location18535', message: "Unmatched '%' at end of format string" }),
    );
  });
  it.each([
    ['%n', 'n'],
    ['%Y-%w', 'w'],
    ['%y', 'y'],
    ['%é', 'é'],
  ])('18536 for %j', (format, letter) => {
    expect(() => validateFromStringFormat(format)).toThrow(
      expect.objectContaining({
        codeName: 'Location18536',
        message: `Invalid format character '%${letter}' in format string`,
      }),
    );
  });
});

describe('hostile input', () => {
  const HOSTILE: [string, string, string | undefined][] = [
    ['letters', 'x'.repeat(100_000), undefined],
    ['digits', '1'.repeat(100_000), undefined],
    ['dashes', '-'.repeat(100_000), undefined],
    ['signs', '+'.repeat(100_000), undefined],
    ['signs and spaces', '+ '.repeat(50_000), undefined],
    ['spaces, then a letter', `${' '.repeat(100_000)}x`, undefined],
    ['separators', ', .'.repeat(33_000), undefined],
    ['bytes past ASCII', '\u00ff'.repeat(100_000), undefined],
    ['emoji and a lone surrogate', `${'🙂'.repeat(20_000)}\ud800`, undefined],
    ['NUL bytes', '\0'.repeat(100_000), undefined],
    ['a long time zone identifier', 'Aa/'.repeat(33_000), undefined],
    ['month names', 'Jan 1 '.repeat(20_000), undefined],
    ['times', 'T1:'.repeat(33_000), undefined],
    ['dates', '2017-07-04T11:56:02Z '.repeat(5_000), undefined],
    ['a long timestamp', `@${'9'.repeat(100_000)}`, undefined],
    ['a long year', `+${'9'.repeat(19)}-01-01`, undefined],
    ['a long offset in minutes', `+${'9'.repeat(100_000)}`, '%Z'],
    ['a long offset', `+${'1'.repeat(100_000)}`, '%z'],
    ['a long format', '1'.repeat(100_000), '%Y'.repeat(10_000)],
    ['letters by format', 'x'.repeat(100_000), '%Y-%m-%d'],
  ];

  // A scan that is not linear would take minutes on these, past Jest's test timeout.
  it.each(HOSTILE)('fails on %s', (_name, text, format) => {
    let thrown: unknown;
    try {
      parse(text, format);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CommandError);
    expect(thrown).toMatchObject({ codeName: 'ConversionFailure' });
    // The message quotes the string and lists at most 100 errors and 100 warnings.
    expect((thrown as Error).message.length).toBeLessThan(text.length * 3 + 20_000);
  });

  it('reads a long fraction as timelib does, and a huge one within the second', () => {
    // timelib scales the fraction's value by its length: 300 ones are 0.111111… seconds.
    expect(parse(`2017-07-04T11:56:02.${'1'.repeat(300)}`)).toBe(Date.parse('2017-07-04T11:56:02.111Z'));
    const huge = parse(`2017-07-04T11:56:02.${'1'.repeat(100_000)}`);
    expect(huge - Date.parse('2017-07-04T11:56:02Z')).toBeGreaterThanOrEqual(0);
    expect(huge - Date.parse('2017-07-04T11:56:02Z')).toBeLessThan(1000);
  });

  it.each(['2017-07-04T11:56:02Z', 'July 4th, 2017 12:39:30 BST'])('fails on %s repeated 10,000 times', (unit) => {
    expect(() => parse(unit.repeat(10_000))).toThrow(CommandError);
  });

  it('names no date past a JavaScript Date', () => {
    check([`@${'9'.repeat(18)}`, undefined, undefined, fails('out of range')]);
    check(['+9999999999-01-01', undefined, undefined, fails('out of range')]);
  });
});
