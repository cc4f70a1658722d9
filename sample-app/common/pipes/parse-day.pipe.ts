import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { dayRange } from 'nestjs-objectid';

/** Parses an optional calendar day `YYYY-MM-DD`, refusing impossible days such as 2026-02-30. */
@Injectable()
export class ParseDayPipe implements PipeTransform<unknown, string | undefined> {
  transform(value: unknown, metadata: ArgumentMetadata): string | undefined {
    if (value === undefined || value === '') return undefined;
    const name = metadata.data ?? 'value';
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      const shown = Array.isArray(value) ? 'several values' : JSON.stringify(value)?.slice(0, 40);
      throw new BadRequestException(`${name} must be a day as YYYY-MM-DD, e.g. 2026-12-02, got ${shown}`);
    }
    try {
      dayRange(value); // the library's own check: a real calendar day within the ObjectId time range
    } catch (error) {
      throw new BadRequestException(`${name}: ${(error as Error).message}`);
    }
    return value;
  }
}
