import {
  BadRequestException,
  Injectable,
  PayloadTooLargeException,
  type ArgumentMetadata,
  type PipeTransform,
} from '@nestjs/common';

/** Bounds of {@link BodyShapePipe}. */
export interface BodyShapeLimits {
  /** Deepest nesting of objects and arrays, the body itself being level 1. */
  maxDepth: number;
  /** Longest array anywhere in the body. */
  maxArrayLength: number;
  /** Most objects, arrays and values in the whole body. */
  maxNodes: number;
}

/** The catalog's bounds: its deepest DTO is 3 levels, its longest list 50 items. */
export const BODY_SHAPE_LIMITS: BodyShapeLimits = { maxDepth: 8, maxArrayLength: 100, maxNodes: 2000 };

/**
 * Bounds the shape of a JSON body before validation sees it, so that no body
 * costs more than a few milliseconds: class-transformer and class-validator
 * recurse (a body nested 5,000 levels deep overflows their stack: a 500) and
 * validate every element of a list even past `@ArrayMaxSize` (a 99 KB body of
 * 33,000 empty items costs seconds and an error list of megabytes). The walk
 * is iterative and stops at the first bound exceeded: 400 for depth and array
 * length, naming where; 413 for a body of too many values.
 */
@Injectable()
export class BodyShapePipe implements PipeTransform {
  constructor(private readonly limits: BodyShapeLimits = BODY_SHAPE_LIMITS) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body') this.check(value);
    return value;
  }

  private check(body: unknown): void {
    const { maxDepth, maxArrayLength, maxNodes } = this.limits;
    const stack: { value: unknown; depth: number; path: string }[] = [{ value: body, depth: 1, path: 'body' }];
    let nodes = 0;
    while (stack.length > 0) {
      const { value, depth, path } = stack.pop()!;
      nodes += 1;
      if (nodes > maxNodes) {
        throw new PayloadTooLargeException(`the body holds more than ${maxNodes} values; send less at once`);
      }
      if (value === null || typeof value !== 'object') continue;
      if (depth > maxDepth) {
        throw new BadRequestException(`${path} is nested deeper than ${maxDepth} levels`);
      }
      if (Array.isArray(value)) {
        if (value.length > maxArrayLength) {
          throw new BadRequestException(`${path} holds ${value.length} items, at most ${maxArrayLength} are accepted`);
        }
        for (let i = value.length - 1; i >= 0; i--)
          stack.push({ value: value[i], depth: depth + 1, path: `${path}[${i}]` });
      } else {
        // Own enumerable keys only, as JSON.parse makes them; the key text is not echoed (it is the client's).
        const keys = Object.keys(value);
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i];
          const shown = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/.test(key) ? `.${key}` : '[…]';
          stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, path: `${path}${shown}` });
        }
      }
    }
  }
}
