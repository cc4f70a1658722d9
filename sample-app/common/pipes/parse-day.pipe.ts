import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { DateFilter, isCalendarDay } from './date-filter.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Parses an optional calendar day `YYYY-MM-DD`, refusing impossible days such
 * as 2026-02-30. The day is read in the request's `tz` later: whether an
 * ObjectId can hold it depends on that zone.
 */
@Injectable()
export class ParseDayPipe implements PipeTransform<unknown, DateFilter | undefined> {
  transform(value: unknown, metadata: ArgumentMetadata): DateFilter | undefined {
    if (value === undefined || value === '') return undefined;
    const name = metadata.data ?? 'value';
    const match = typeof value === 'string' ? DAY.exec(value) : null;
    if (!match) {
      const shown = Array.isArray(value) ? 'several values' : JSON.stringify(value)?.slice(0, 40);
      throw new BadRequestException(`${name} must be a day as YYYY-MM-DD, e.g. 2026-12-02, got ${shown}`);
    }
    if (!isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))) {
      throw new BadRequestException(`${name} ${value as string} is not a day of the calendar; pick one that exists`);
    }
    return DateFilter.day(name, value as string);
  }
}
