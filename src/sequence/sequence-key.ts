import { isObjectIdLike, type ObjectIdLike } from '../core/index.js';
import {
  SEQUENCE_KEY_SEPARATOR,
  SEQUENCE_MAX_NAME_LENGTH,
  SEQUENCE_MAX_SCOPE_FIELDS,
  SEQUENCE_MAX_SCOPE_LENGTH,
} from './sequence.constants.js';
import { SequenceConfigError } from './sequence-config.error.js';
import type { SequenceDateParts } from './sequence-format.js';

/** How often a sequence starts again: never, or on the first instant of each year, month or day. */
export type SequenceResetPeriod = 'never' | 'year' | 'month' | 'day';

/** One value of a scope: a tenant id, a branch code… ObjectIds are written as their 24-hex form. */
export type SequenceScopeValue = string | number | bigint | ObjectIdLike;

/**
 * An explicit scope: one value (`'tenant-42'`) or several named values
 * (`{ storeId, region }`), which give one counter per combination.
 */
export type SequenceScope = SequenceScopeValue | Readonly<Record<string, SequenceScopeValue>>;

// `$` and `.` are refused although `_id` could hold them, because the same strings
// are commonly reused as field names and in URLs; `:` separates key parts; control
// characters (NUL first of all) make keys unreadable and break some drivers' C strings.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[$.:\u0000-\u001f\u007f]/;
// Field names of a scope object: identifiers, so none can be an operator, a path or a prototype key.
const SCOPE_FIELD = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const UNSAFE_FIELDS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks a sequence name or scope: 1–120 characters, none of `$ . :` or control
 * characters.
 * @throws SequenceConfigError saying which rule failed.
 */
export function assertKeyPart(kind: 'name' | 'scope', value: unknown, label: string = kind): asserts value is string {
  if (typeof value !== 'string') {
    throw new SequenceConfigError(`Sequence ${label} must be a string, got ${value === null ? 'null' : typeof value}.`);
  }
  if (value.length === 0) {
    throw new SequenceConfigError(`Sequence ${label} must not be empty.`);
  }
  if (value.length > SEQUENCE_MAX_NAME_LENGTH) {
    throw new SequenceConfigError(
      `Sequence ${label} "${value.slice(0, 20)}…" is ${value.length} characters long; the limit is ${SEQUENCE_MAX_NAME_LENGTH}.`,
    );
  }
  const bad = FORBIDDEN.exec(value);
  if (bad) {
    const shown =
      bad[0] < ' ' || bad[0] === '\u007f' ? `\\u${bad[0].charCodeAt(0).toString(16).padStart(4, '0')}` : bad[0];
    throw new SequenceConfigError(
      `Sequence ${label} ${JSON.stringify(value)} contains "${shown}" at index ${bad.index}; ` +
        `names and scopes may not contain "$", ".", "${SEQUENCE_KEY_SEPARATOR}" or control characters. Use "-" or "_" instead.`,
    );
  }
}

/**
 * Converts an explicit scope to its key form and validates it. Several fields
 * become `name=value` pairs sorted by name and joined by `,`
 * (`{ storeId: 7, region: 'eu' }` → `region=eu,storeId=7`), so the key does not
 * depend on the order the fields were written in.
 * @throws SequenceConfigError
 */
export function normalizeScope(scope: SequenceScope | undefined): string | undefined {
  if (scope === undefined) return undefined;
  if (typeof scope === 'object' && scope !== null && !isObjectIdLike(scope)) return normalizeScopeFields(scope);
  return normalizeScopeValue(scope, 'scope');
}

function normalizeScopeValue(value: unknown, label: string): string {
  let text: unknown = value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new SequenceConfigError(
        `Sequence ${label} ${value} must be a safe integer when given as a number; pass a string.`,
      );
    }
    text = String(value);
  } else if (typeof value === 'bigint') {
    text = value.toString();
  } else if (isObjectIdLike(value)) {
    text = value.toHexString();
  }
  if (typeof text !== 'string') {
    throw new SequenceConfigError(
      `Sequence ${label} must be a string, number, bigint or ObjectId, got ${text === null ? 'null' : typeof text}.`,
    );
  }
  assertKeyPart('scope', text, label);
  return text;
}

function normalizeScopeFields(fields: object): string {
  const proto: unknown = Object.getPrototypeOf(fields);
  if (Array.isArray(fields) || (proto !== Object.prototype && proto !== null)) {
    throw new SequenceConfigError(
      `Sequence scope must be a string, number, bigint, ObjectId or a plain object of those, got ${fields.constructor?.name ?? 'object'}.`,
    );
  }
  // Own keys only, symbols included, so nothing inherited or hidden can shape the key.
  const names = Reflect.ownKeys(fields);
  if (names.length === 0 || names.length > SEQUENCE_MAX_SCOPE_FIELDS) {
    throw new SequenceConfigError(
      `Sequence scope object must have 1 to ${SEQUENCE_MAX_SCOPE_FIELDS} fields, got ${names.length}.`,
    );
  }
  const pairs: string[] = [];
  for (const name of names) {
    if (typeof name !== 'string' || !SCOPE_FIELD.test(name) || UNSAFE_FIELDS.has(name)) {
      throw new SequenceConfigError(
        `Sequence scope field ${typeof name === 'string' ? JSON.stringify(name) : String(name)} is not allowed: ` +
          `field names are 1–40 letters, digits or "_" starting with a letter (not __proto__, constructor or prototype).`,
      );
    }
    const descriptor = Object.getOwnPropertyDescriptor(fields, name)!;
    // A getter would run code while the key is built; only data properties are read.
    if (!('value' in descriptor)) {
      throw new SequenceConfigError(`Sequence scope field "${name}" must be a plain value, not an accessor.`);
    }
    const value: unknown = descriptor.value;
    if (typeof value === 'object' && value !== null && !isObjectIdLike(value)) {
      throw new SequenceConfigError(
        `Sequence scope field "${name}" must be a string, number, bigint or ObjectId, got an object; ` +
          `query operators and nested objects are not scope values.`,
      );
    }
    const text = normalizeScopeValue(value, `scope field "${name}"`);
    const bad = /[,=]/.exec(text);
    if (bad) {
      throw new SequenceConfigError(
        `Sequence scope field "${name}" value ${JSON.stringify(text)} contains "${bad[0]}" at index ${bad.index}, ` +
          `which separates the fields of a scope; use "-" or "_" instead.`,
      );
    }
    pairs.push(`${name}=${text}`);
  }
  pairs.sort();
  const key = pairs.join(',');
  if (key.length > SEQUENCE_MAX_SCOPE_LENGTH) {
    throw new SequenceConfigError(
      `Sequence scope "${key.slice(0, 40)}…" is ${key.length} characters long; the limit is ${SEQUENCE_MAX_SCOPE_LENGTH}.`,
    );
  }
  return key;
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
