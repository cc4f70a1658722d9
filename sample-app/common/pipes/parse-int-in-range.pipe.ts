import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';

/** Options of {@link ParseIntInRangePipe}. */
export interface ParseIntInRangeOptions {
  /** Smallest value accepted; a leading `-` is accepted only when it is below 0. */
  min: number;
  /** Largest value accepted (a safe integer). */
  max: number;
  /** Value when the parameter is absent; without it the parameter is required. */
  defaultValue?: number;
}

/** Longest text of a client's value repeated in a message. */
const SHOWN_LENGTH = 40;

/**
 * Parses a query or path parameter as an integer within `[min, max]`, so a
 * client cannot ask for a billion rows (`?limit=1e9`). Only plain decimal
 * digits are a number here (leading zeros are fine: `007` is 7); hex (`0x10`),
 * binary (`0b11`), exponents (`1e1`), fractions, spaces and a `+` are refused,
 * and so is a `-` unless `min` is negative. It reads the text the client sent,
 * which the app's global `RawParamsValidationPipe` leaves alone.
 */
@Injectable()
export class ParseIntInRangePipe implements PipeTransform<unknown, number> {
  private readonly pattern: RegExp;

  constructor(private readonly options: ParseIntInRangeOptions) {
    const { min, max, defaultValue } = options;
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
      throw new RangeError(`ParseIntInRangePipe: min and max must be safe integers, min <= max; got ${min}, ${max}`);
    }
    if (defaultValue !== undefined && !(Number.isInteger(defaultValue) && defaultValue >= min && defaultValue <= max)) {
      throw new RangeError(`ParseIntInRangePipe: defaultValue ${defaultValue} is not from ${min} to ${max}`);
    }
    this.pattern = min < 0 ? /^-?\d+$/ : /^\d+$/;
  }

  transform(value: unknown, metadata: ArgumentMetadata): number {
    const { min, max, defaultValue } = this.options;
    const name = metadata.data ?? 'value';
    if (value === undefined && defaultValue !== undefined) return defaultValue;
    if (typeof value === 'string' && this.pattern.test(value)) {
      // Digits only, so Number() reads them as decimal; past 2^53 it rounds, but stays above any safe max.
      const parsed = Number(value);
      if (parsed >= min && parsed <= max) return parsed === 0 ? 0 : parsed; // no -0
      throw this.failure(`${name} ${shorten(value)} is out of range`);
    }
    throw this.failure(this.problem(name, value));
  }

  /** What is wrong with a value that is not digits at all. */
  private problem(name: string, value: unknown): string {
    const example = this.options.defaultValue ?? Math.max(this.options.min, 0);
    if (value === undefined) return `${name} is missing`;
    if (Array.isArray(value)) return `${name} is given ${value.length} times; send it once`;
    if (typeof value !== 'string') return `${name} must be one plain value, e.g. ${example}`;
    if (value === '') return `${name} is empty`;
    const sign = this.options.min < 0 ? ', with a leading - if negative' : '';
    return `${name} ${JSON.stringify(shorten(value))} must be written in digits 0-9 only${sign}, e.g. ${example}`;
  }

  /** The 400 in the voice of the library's pipes: what was expected, then what was wrong. */
  private failure(detail: string): BadRequestException {
    const { min, max } = this.options;
    return new BadRequestException(`Validation failed (integer from ${min} to ${max} is expected): ${detail}`);
  }
}

function shorten(text: string): string {
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text;
}
