import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';

/** Options of {@link ParseIntInRangePipe}. */
export interface ParseIntInRangeOptions {
  min: number;
  max: number;
  /** Value when the parameter is absent; without it the parameter is required. */
  defaultValue?: number;
}

/**
 * Parses a query parameter as an integer within `[min, max]`, so a client
 * cannot ask for a billion rows (`?limit=1e9`).
 *
 * The global `ValidationPipe({ transform: true })` runs first and has already
 * turned a parameter typed `number` into `+value` (`'abc'` → `NaN`,
 * `'1e9'` → `1000000000`); this pipe accepts that number or, without the
 * global pipe, the raw string (decimal digits only).
 */
@Injectable()
export class ParseIntInRangePipe implements PipeTransform<unknown, number> {
  constructor(private readonly options: ParseIntInRangeOptions) {}

  transform(value: unknown, metadata: ArgumentMetadata): number {
    const { min, max, defaultValue } = this.options;
    if (value === undefined && defaultValue !== undefined) return defaultValue;
    const parsed = typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
    if (typeof parsed === 'number' && Number.isSafeInteger(parsed) && parsed >= min && parsed <= max) return parsed;
    throw new BadRequestException(`${metadata.data ?? 'value'} must be an integer from ${min} to ${max}`);
  }
}
