import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';

/**
 * An order number as `SequenceService` formats `ORD-{YYYY}-{seq:6}` (see
 * app.module.ts): the year, then the number padded to at least 6 digits.
 */
const ORDER_NUMBER = /^ORD-\d{4}-\d{6,}$/;

/**
 * Checks an order number path parameter (`ORD-2026-000042`) before the
 * database is asked, so a mistyped one (`ORD-2026-0x002a`, `ord-2026-000042`,
 * `ORD-2026-42`) is a 400 that shows the format rather than a 404.
 */
@Injectable()
export class ParseOrderNumberPipe implements PipeTransform<unknown, string> {
  transform(value: unknown, metadata: ArgumentMetadata): string {
    if (typeof value === 'string' && ORDER_NUMBER.test(value)) return value;
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : 'not one value';
    throw new BadRequestException(
      `Validation failed (order number is expected): ${metadata.data ?? 'value'} ${shown} must be ORD-, ` +
        'the year, - and a number of at least 6 digits 0-9, e.g. ORD-2026-000042',
    );
  }
}
