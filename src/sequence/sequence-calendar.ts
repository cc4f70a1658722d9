import { SequenceConfigError } from './sequence-config.error.js';
import type { SequenceDateParts } from './sequence-format.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // Gregorian calendar and Latin digits whatever the process locale, so keys never depend on the host.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * Checks that `timeZone` is an IANA zone name this runtime knows (`UTC`,
 * `Europe/Prague`), so a typo fails when the sequence is defined.
 * @throws SequenceConfigError
 */
export function assertTimeZone(timeZone: unknown, label: string): asserts timeZone is string {
  try {
    if (typeof timeZone !== 'string' || timeZone === '') throw new RangeError('not a string');
    formatter(timeZone);
  } catch {
    throw new SequenceConfigError(
      `${label}: unknown time zone ${JSON.stringify(timeZone)}. Use an IANA name such as "UTC" or "Europe/Prague".`,
    );
  }
}

/**
 * Calendar date of `date` in `timeZone` (which must have passed
 * {@link assertTimeZone}), computed with `Intl.DateTimeFormat`, so daylight
 * saving time and historical offsets follow the runtime's tz database.
 */
export function zonedDateParts(date: Date, timeZone: string): SequenceDateParts {
  let year = '';
  let month = '';
  let day = '';
  for (const part of formatter(timeZone).formatToParts(date)) {
    if (part.type === 'year') year = part.value.padStart(4, '0');
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  return { year, month, day };
}
