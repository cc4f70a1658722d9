import { Injectable, type ArgumentMetadata } from '@nestjs/common';
import { ObjectIdValidationPipe } from 'nestjs-objectid';

/**
 * The app's global pipe: `ObjectIdValidationPipe` (bodies and whole-query DTOs
 * validated and transformed as before) that hands every named query and path
 * parameter to the parameter's own pipe as the client sent it.
 *
 * Why: with `transform: true`, Nest's `ValidationPipe` turns a named
 * parameter typed `number` into `+value` before the parameter's pipes run, so
 * `?limit=0x10`, `1e1`, `%205` and `0b11` arrived as 16, 10, 5 and 3 and no
 * later pipe could tell them from `16`, `10`, `5` and `3`. Every named
 * parameter of the catalog has a pipe of its own (`ParseIntInRangePipe`,
 * `ParseObjectIdPipe`, …) that parses the text strictly.
 * @see https://docs.nestjs.com/techniques/validation#transform-payload-objects
 */
@Injectable()
export class RawParamsValidationPipe extends ObjectIdValidationPipe {
  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.data !== undefined && (metadata.type === 'query' || metadata.type === 'param')) return value;
    return super.transformPrimitive(value, metadata);
  }
}
