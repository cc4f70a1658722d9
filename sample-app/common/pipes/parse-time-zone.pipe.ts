import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';

/** Parses an optional IANA time zone name (`Europe/Prague`); absent means `UTC`. */
@Injectable()
export class ParseTimeZonePipe implements PipeTransform<unknown, string> {
  transform(value: unknown, metadata: ArgumentMetadata): string {
    if (value === undefined || value === '') return 'UTC';
    if (typeof value === 'string' && value.length <= 64) {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: value });
        return value;
      } catch {
        // fall through to the 400
      }
    }
    const shown = Array.isArray(value) ? 'several values' : JSON.stringify(value)?.slice(0, 40);
    throw new BadRequestException(
      `${metadata.data ?? 'value'} must be an IANA time zone such as "UTC" or "Europe/Prague", got ${shown}`,
    );
  }
}
