import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { DateFilter, isCalendarDay } from './date-filter.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Whether the fields of a matched ISO string name a real instant (no 2026-02-30, no 24:00, no +25:00). */
function isRealDate(match: RegExpExecArray): boolean {
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const offset = /^[+-](\d{2}):(\d{2})$/.exec(match[7] ?? '');
  return (
    isCalendarDay(year!, month!, day!) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    (!offset || (Number(offset[1]) <= 23 && Number(offset[2]) <= 59))
  );
}

/**
 * Parses an optional query parameter as an ISO 8601 date (`2026-12-02`) or a
 * date-time with its offset (`2026-12-02T10:00:00Z`, `…+01:00`). A date-time
 * without an offset is refused: the server's time zone would decide what it
 * means. A date becomes a {@link DateFilter} day, which starts at midnight in
 * the request's `tz`; a date-time is an instant, whatever the zone.
 */
@Injectable()
export class ParseIsoDatePipe implements PipeTransform<unknown, DateFilter | undefined> {
  transform(value: unknown, metadata: ArgumentMetadata): DateFilter | undefined {
    if (value === undefined || value === '') return undefined;
    const name = metadata.data ?? 'value';
    const match = typeof value === 'string' ? ISO.exec(value) : null;
    if (match && isRealDate(match)) {
      if (match[4] === undefined) return DateFilter.day(name, value as string);
      const date = new Date(value as string);
      if (!Number.isNaN(date.getTime())) return DateFilter.instant(name, date);
    }
    const shown = Array.isArray(value) ? 'several values' : JSON.stringify(value)?.slice(0, 40);
    throw new BadRequestException(
      `${name} must be an ISO 8601 date (2026-12-02) or date-time with offset (2026-12-02T10:00:00Z), got ${shown}`,
    );
  }
}
