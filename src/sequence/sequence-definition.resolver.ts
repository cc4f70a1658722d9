import { INT64_MAX, INT64_MIN, SEQUENCE_DEFAULT_FORMAT, SEQUENCE_MAX_BLOCK_SIZE } from './sequence.constants.js';
import { assertTimeZone } from './sequence-calendar.js';
import { SequenceConfigError } from './sequence-config.error.js';
import type { SequenceDefinition } from './sequence-definition.interface.js';
import { SequenceFormat } from './sequence-format.js';
import { SequenceFormatError } from './sequence-format.error.js';
import { assertKeyPart, type SequenceResetPeriod } from './sequence-key.js';

/** A validated {@link SequenceDefinition} with every default applied. */
export interface ResolvedSequenceDefinition {
  readonly name: string;
  readonly start: bigint;
  readonly step: bigint;
  readonly format: SequenceFormat;
  readonly resetEvery: SequenceResetPeriod;
  readonly timeZone: string;
  readonly cache: number;
  readonly bigint: boolean;
}

const KNOWN: readonly (keyof SequenceDefinition)[] = [
  'start',
  'step',
  'format',
  'resetEvery',
  'timeZone',
  'cache',
  'bigint',
];
const PERIODS: readonly SequenceResetPeriod[] = ['never', 'year', 'month', 'day'];
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Converts an integer argument (`start`, `step`, a value or block size) to a bigint.
 * @throws SequenceConfigError for non-integers, unsafe numbers and values outside int64
 */
export function toInteger(what: string, value: unknown, bigintMode: boolean): bigint {
  let result: bigint;
  if (typeof value === 'bigint') {
    result = value;
  } else if (typeof value === 'number' && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) {
      throw new SequenceConfigError(
        `${what} ${value} is beyond Number.MAX_SAFE_INTEGER and cannot be represented exactly as a number; pass a bigint and define the sequence with { bigint: true }.`,
      );
    }
    result = BigInt(value);
  } else {
    throw new SequenceConfigError(
      `${what} must be an integer (number or bigint), got ${typeof value === 'number' ? value : typeof value}.`,
    );
  }
  if (result > INT64_MAX || result < INT64_MIN) {
    throw new SequenceConfigError(`${what} ${result} does not fit in the int64 counters are stored as.`);
  }
  if (!bigintMode && (result > MAX_SAFE || result < -MAX_SAFE)) {
    throw new SequenceConfigError(
      `${what} ${result} is beyond Number.MAX_SAFE_INTEGER (2^53 - 1); define the sequence with { bigint: true } to use such values.`,
    );
  }
  return result;
}

/**
 * Validates a block or cache size: an integer from 1 to 1,000,000.
 * @throws SequenceConfigError
 */
export function toBlockSize(what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > SEQUENCE_MAX_BLOCK_SIZE) {
    throw new SequenceConfigError(
      `${what} must be an integer from 1 to ${SEQUENCE_MAX_BLOCK_SIZE.toLocaleString('en-US')}, got ${String(value)}.`,
    );
  }
  return value;
}

/**
 * Validates a definition merged over the module defaults.
 * @throws SequenceConfigError (or its subclass SequenceFormatError) saying what to fix
 */
export function resolveSequenceDefinition(
  name: string,
  definition: SequenceDefinition | undefined,
  defaults: SequenceDefinition | undefined,
  moduleTimeZone: string,
  label = `Sequence "${name}"`,
): ResolvedSequenceDefinition {
  assertKeyPart('name', name);
  for (const [source, options] of [
    ['definition', definition],
    ['defaults', defaults],
  ] as const) {
    if (options === undefined) continue;
    if (options === null || typeof options !== 'object') {
      throw new SequenceConfigError(`${label}: the ${source} must be an object of options.`);
    }
    for (const key of Object.keys(options)) {
      if (!(KNOWN as readonly string[]).includes(key)) {
        throw new SequenceConfigError(
          `${label}: unknown option "${key}" in its ${source}; known options are ${KNOWN.join(', ')}.`,
        );
      }
    }
  }
  const merged: SequenceDefinition = { ...defaults, ...definition };
  const bigint = merged.bigint ?? false;
  if (typeof bigint !== 'boolean') {
    throw new SequenceConfigError(`${label}: bigint must be true or false.`);
  }
  const start = toInteger(`${label}: start`, merged.start ?? 1, bigint);
  const step = toInteger(`${label}: step`, merged.step ?? 1, bigint);
  if (step < 1n) {
    throw new SequenceConfigError(
      `${label}: step must be a positive integer, got ${step}. Descending sequences are not supported.`,
    );
  }
  const resetEvery = merged.resetEvery ?? 'never';
  if (!PERIODS.includes(resetEvery)) {
    throw new SequenceConfigError(
      `${label}: resetEvery must be one of ${PERIODS.map((p) => `'${p}'`).join(', ')}, got ${JSON.stringify(resetEvery)}.`,
    );
  }
  const timeZone = merged.timeZone ?? moduleTimeZone;
  assertTimeZone(timeZone, label);
  const cache = merged.cache ?? 0;
  if (cache !== 0) toBlockSize(`${label}: cache`, cache);
  let format: SequenceFormat;
  try {
    format = SequenceFormat.parse(merged.format ?? SEQUENCE_DEFAULT_FORMAT);
  } catch (error) {
    if (!(error instanceof SequenceFormatError)) throw error;
    throw new SequenceFormatError(`${label}: ${error.message}`, error.pattern, error.token, error.index);
  }
  return { name, start, step, format, resetEvery, timeZone, cache, bigint };
}
