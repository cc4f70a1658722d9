import { Inject, Injectable, Optional, type PipeTransform, type Type } from '@nestjs/common';
import {
  type ObjectId,
  describeInvalidObjectId,
  type ObjectIdProblem,
  previewString,
  tryParseObjectId,
} from '../core/index.js';
import { OBJECT_ID_MODULE_OPTIONS } from '../object-id.constants.js';
import { configurePipe } from './configure-pipe.js';
import { createObjectIdException } from './object-id-exception.js';
import type { ObjectIdPipeDefaults, ObjectIdPipeOptions } from './object-id-pipe-options.interface.js';
import { isMissing, pickPipeDefaults } from './parse-object-id.pipe.js';

/** Options of {@link ParseObjectIdArrayPipe}. */
export interface ParseObjectIdArrayPipeOptions extends ObjectIdPipeOptions {
  /**
   * Splits each string item, so `?ids=a,b` and `?ids=a&ids=b` (and a mix) all work.
   * Set it to `false` to take each item whole.
   * @default ','
   */
  separator?: string | false;
  /**
   * Most ids accepted; more is an error, so a request cannot ask for an unbounded `$in`.
   * @default 100
   */
  maxItems?: number;
  /**
   * Refuse a list that names the same id twice (compared case-insensitively).
   * @default false
   */
  unique?: boolean;
}

const ARRAY_EXPECTED = 'Validation failed (ObjectId array is expected)';

/**
 * Turns `?ids=a,b,c`, `?ids=a&ids=b` or a JSON array into `ObjectId[]`.
 * The error names the position and value of the first bad item; empty items
 * (`a,,b`) are refused, not skipped.
 */
@Injectable()
export class ParseObjectIdArrayPipe implements PipeTransform<unknown, ObjectId[] | undefined> {
  protected readonly options: ParseObjectIdArrayPipeOptions;

  constructor(
    @Optional() options?: ParseObjectIdArrayPipeOptions,
    @Optional() @Inject(OBJECT_ID_MODULE_OPTIONS) moduleOptions?: ObjectIdPipeDefaults,
  ) {
    this.options = { ...pickPipeDefaults(moduleOptions), ...options };
    const { maxItems } = this.options;
    if (maxItems !== undefined && (!Number.isInteger(maxItems) || maxItems < 1)) {
      throw new TypeError(`ParseObjectIdArrayPipe: maxItems must be a positive integer, received ${String(maxItems)}`);
    }
    if (this.options.separator === '') {
      throw new TypeError('ParseObjectIdArrayPipe: separator must not be empty; use false to take items whole');
    }
  }

  /** Like {@link ParseObjectIdPipe.with}: options baked in, module defaults injected. */
  static with(options: ParseObjectIdArrayPipeOptions): Type<ParseObjectIdArrayPipe> {
    return configurePipe(ParseObjectIdArrayPipe, options);
  }

  transform(value: unknown): ObjectId[] | undefined {
    if (isMissing(value) || (Array.isArray(value) && value.length === 0)) {
      if (this.options.optional) return undefined;
      throw this.fail({ reason: 'missing', message: 'no value was given, expected a list of 24-hex ObjectIds' });
    }
    const maxItems = this.options.maxItems ?? 100;
    const items = this.split(value, maxItems);
    const seen = new Map<string, number>();
    return items.map((item, index) => {
      const id = this.parseItem(item, index);
      if (this.options.unique) {
        const hex = id.toHexString();
        const first = seen.get(hex);
        if (first !== undefined) {
          throw this.fail({
            reason: 'duplicate',
            message: `item ${index} (${previewString(typeof item === 'string' ? item : hex)}) repeats item ${first}`,
          });
        }
        seen.set(hex, index);
      }
      return id;
    });
  }

  /** Parses one item; override it to change what an item may be. */
  protected parseItem(item: unknown, index: number): ObjectId {
    const id = tryParseObjectId(item, this.options);
    if (id === undefined) {
      const problem = describeInvalidObjectId(item, this.options);
      const detail = problem.reason === 'missing' ? 'is empty' : problem.message;
      throw this.fail({ ...problem, message: `item ${index} ${detail}` });
    }
    return id;
  }

  /**
   * The items, splitting strings on the separator. Never more than `maxItems`
   * are made: a 10-million-comma query string costs one scan, not 10 million strings.
   */
  private split(value: unknown, maxItems: number): unknown[] {
    const list = Array.isArray(value) ? value : [value];
    const { separator = ',' } = this.options;
    const items: unknown[] = [];
    for (const item of list) {
      if (separator !== false && typeof item === 'string') {
        for (const part of item.split(separator, maxItems + 1 - items.length)) items.push(part);
      } else {
        items.push(item);
      }
      if (items.length > maxItems) {
        throw this.fail({
          reason: 'too-many',
          message: `${countItems(list, separator)} ids were given, at most ${maxItems} are allowed`,
        });
      }
    }
    return items;
  }

  private fail(problem: ObjectIdProblem): unknown {
    return createObjectIdException(this.options, problem, ARRAY_EXPECTED);
  }
}

/** How many items `list` holds once split, counted without splitting. */
function countItems(list: readonly unknown[], separator: string | false): number {
  let count = 0;
  for (const item of list) {
    count += 1;
    if (separator === false || typeof item !== 'string') continue;
    for (let at = item.indexOf(separator); at >= 0; at = item.indexOf(separator, at + separator.length)) count += 1;
  }
  return count;
}
