import { isObjectIdLike, type ObjectIdLike } from '../core/index.js';
import { SEQUENCE_KEY_SEPARATOR, SEQUENCE_MAX_NAME_LENGTH } from './sequence.constants.js';
import { SequenceConfigError } from './sequence-config.error.js';
import type { SequenceDateParts } from './sequence-format.js';

/** How often a sequence starts again: never, or on the first instant of each year, month or day. */
export type SequenceResetPeriod = 'never' | 'year' | 'month' | 'day';

/** An explicit scope: a tenant id, a branch code… ObjectIds are written as their 24-hex form. */
export type SequenceScope = string | number | bigint | ObjectIdLike;

// `$` and `.` are refused although `_id` could hold them, because the same strings
// are commonly reused as field names and in URLs; `:` separates key parts; control
// characters (NUL first of all) make keys unreadable and break some drivers' C strings.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[$.:\u0000-\u001f\u007f]/;

/**
 * Checks a sequence name or scope: 1–120 characters, none of `$ . :` or control
 * characters.
 * @throws SequenceConfigError saying which rule failed.
 */
export function assertKeyPart(kind: 'name' | 'scope', value: unknown): asserts value is string {
  if (typeof value !== 'string') {
    throw new SequenceConfigError(`Sequence ${kind} must be a string, got ${value === null ? 'null' : typeof value}.`);
  }
  if (value.length === 0) {
    throw new SequenceConfigError(`Sequence ${kind} must not be empty.`);
  }
  if (value.length > SEQUENCE_MAX_NAME_LENGTH) {
    throw new SequenceConfigError(
      `Sequence ${kind} "${value.slice(0, 20)}…" is ${value.length} characters long; the limit is ${SEQUENCE_MAX_NAME_LENGTH}.`,
    );
  }
  const bad = FORBIDDEN.exec(value);
  if (bad) {
    const shown =
      bad[0] < ' ' || bad[0] === '\u007f' ? `\\u${bad[0].charCodeAt(0).toString(16).padStart(4, '0')}` : bad[0];
    throw new SequenceConfigError(
      `Sequence ${kind} ${JSON.stringify(value)} contains "${shown}" at index ${bad.index}; ` +
        `names and scopes may not contain "$", ".", "${SEQUENCE_KEY_SEPARATOR}" or control characters. Use "-" or "_" instead.`,
    );
  }
}

/**
 * Converts an explicit scope to its key form and validates it.
 * @throws SequenceConfigError
 */
export function normalizeScope(scope: SequenceScope | undefined): string | undefined {
  if (scope === undefined) return undefined;
  let text: unknown = scope;
  if (typeof scope === 'number') {
    if (!Number.isSafeInteger(scope)) {
      throw new SequenceConfigError(
        `Sequence scope ${scope} must be a safe integer when given as a number; pass a string.`,
      );
    }
    text = String(scope);
  } else if (typeof scope === 'bigint') {
    text = scope.toString();
  } else if (isObjectIdLike(scope)) {
    text = scope.toHexString();
  }
  assertKeyPart('scope', text);
  return text;
}

/** The date part of a counter key: `2026`, `2026-03` or `2026-03-05`; `undefined` for `never`. */
export function periodKey(reset: SequenceResetPeriod, date: SequenceDateParts): string | undefined {
  switch (reset) {
    case 'never':
      return undefined;
    case 'year':
      return date.year;
    case 'month':
      return `${date.year}-${date.month}`;
    case 'day':
      return `${date.year}-${date.month}-${date.day}`;
  }
}

/**
 * The `_id` of a counter document: `orders`, `orders:2026`, `orders:2026-03`,
 * `orders:2026-03-05`, `invoices:tenant-42:2026`. Parts must already be valid.
 */
export function buildSequenceKey(name: string, scope?: string, period?: string): string {
  let key = name;
  if (scope !== undefined) key += SEQUENCE_KEY_SEPARATOR + scope;
  if (period !== undefined) key += SEQUENCE_KEY_SEPARATOR + period;
  return key;
}
