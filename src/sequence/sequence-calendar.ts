import { zonedParts } from '../time/index.js';
import { SequenceConfigError } from './sequence-config.error.js';
import type { SequenceDateParts } from './sequence-format.js';

/**
 * Checks that `timeZone` is an IANA zone name this runtime knows (`UTC`,
 * `Europe/Prague`), so a typo fails when the sequence is defined.
 * @throws SequenceConfigError
 */
export function assertTimeZone(timeZone: unknown, label: string): asserts timeZone is string {
  try {
    if (typeof timeZone !== 'string' || timeZone === '') throw new RangeError('not a string');
    zonedParts(0, timeZone);
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
  // The same Intl-based conversion as the time helpers (dayRange), so a
  // sequence's {YYYY} and a day range never disagree about a date.
  const { year, month, day } = zonedParts(date.getTime(), timeZone);
  return {
    year: String(year).padStart(4, '0'),
    month: String(month).padStart(2, '0'),
    day: String(day).padStart(2, '0'),
  };
}
