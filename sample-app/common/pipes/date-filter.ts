import { BadRequestException } from '@nestjs/common';
import { dayRange } from 'nestjs-objectid';

/** The earliest and the latest instant an ObjectId's 4-byte timestamp can hold. */
export const OBJECT_ID_TIME_RANGE = { from: new Date(0), to: new Date(0xffffffff * 1000) } as const;

const RANGE_TEXT = '1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z';

/** Whether `year-month-day` is a day of the calendar (no 2026-02-30, no 2025-02-29). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  // setUTCFullYear, not Date.UTC, which reads the years 0-99 as 1900-1999 (0000 is a leap year, 1900 is not).
  const lastOfMonth = new Date(0);
  lastOfMonth.setUTCFullYear(year, month, 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= lastOfMonth.getUTCDate();
}

/**
 * A date query parameter as the client wrote it (made by `ParseIsoDatePipe`
 * and `ParseDayPipe`): an instant with its own offset, or a calendar day
 * `YYYY-MM-DD`, whose start depends on the request's time zone (`tz`), which
 * a pipe of one parameter cannot see. The service resolves it with that zone.
 */
export class DateFilter {
  private constructor(
    /** The parameter's name, for messages. */
    readonly name: string,
    private readonly day: string | undefined,
    private readonly instant: Date | undefined,
  ) {}

  /** An instant; 400 when an ObjectId cannot hold it, whatever the zone. */
  static instant(name: string, instant: Date): DateFilter {
    if (instant < OBJECT_ID_TIME_RANGE.from || instant > OBJECT_ID_TIME_RANGE.to) {
      throw new BadRequestException(
        `${name} ${instant.toISOString()} is outside the times an ObjectId can hold, ${RANGE_TEXT}`,
      );
    }
    return new DateFilter(name, undefined, instant);
  }

  /** A calendar day `YYYY-MM-DD`, already checked to exist. */
  static day(name: string, day: string): DateFilter {
    return new DateFilter(name, day, undefined);
  }

  /** The instant, or the first instant of the day in `timeZone` (local midnight, or later where it is skipped). */
  startIn(timeZone: string): Date {
    return this.instant ?? this.dayIn(timeZone).from;
  }

  /** The instant, or the first instant of the next day in `timeZone`: days are 23 to 25 hours long. */
  endIn(timeZone: string): Date {
    return this.instant ?? this.dayIn(timeZone).to;
  }

  /** The text of the filter, for messages: the day as written, or the instant in UTC. */
  toString(): string {
    return this.day ?? this.instant!.toISOString();
  }

  private dayIn(timeZone: string): { from: Date; to: Date } {
    let range;
    try {
      range = dayRange(this.day!, timeZone);
    } catch {
      // The day exists and the zone is known (both checked by their pipes): the only
      // thing left to fail is the range of the 4-byte timestamp.
      throw new BadRequestException(
        `${this.name} ${this.day} (a day in ${timeZone}) is not wholly within the times an ObjectId can hold, ${RANGE_TEXT}; pick a day between`,
      );
    }
    // Day boundaries fall on whole seconds, so the bounds of the ids are the day's exact start and end.
    return { from: range.$gte.getTimestamp(), to: range.$lt.getTimestamp() };
  }
}
