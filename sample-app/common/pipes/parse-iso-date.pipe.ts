import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether the fields of a matched ISO string name a real instant (no 2026-02-30, no 24:00). */
function isRealDate(match: RegExpExecArray): boolean {
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map((part) => Number(part ?? 0));
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth(year!, month!) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

/**
 * Parses an optional query parameter as an ISO 8601 date (`2026-12-02`, UTC
 * midnight) or a date-time with its offset (`2026-12-02T10:00:00Z`,
 * `…+01:00`). A date-time without an offset is refused: the server's time zone
 * would decide what it means.
 */
@Injectable()
export class ParseIsoDatePipe implements PipeTransform<unknown, Date | undefined> {
  transform(value: unknown, metadata: ArgumentMetadata): Date | undefined {
    if (value === undefined || value === '') return undefined;
    const match = typeof value === 'string' ? ISO.exec(value) : null;
    if (match && isRealDate(match)) {
      const date = new Date(value as string);
      if (!Number.isNaN(date.getTime())) return date;
    }
    const shown = Array.isArray(value) ? 'several values' : JSON.stringify(value)?.slice(0, 40);
    throw new BadRequestException(
      `${metadata.data ?? 'value'} must be an ISO 8601 date (2026-12-02) or date-time with offset (2026-12-02T10:00:00Z), got ${shown}`,
    );
  }
}
