import type { ClientSession } from 'mongoose';
import { zonedDateParts } from './sequence-calendar.js';
import type { SequenceSetOptions } from './sequence-call-options.interface.js';
import { SequenceConfigError } from './sequence-config.error.js';
import type { ResolvedSequenceDefinition } from './sequence-definition.resolver.js';
import type { SequenceDateParts } from './sequence-format.js';
import { buildSequenceKey, normalizeScope, periodKey } from './sequence-key.js';

/** One call, prepared: its definition, counter key and the single clock reading. */
export interface SequenceCallContext {
  def: ResolvedSequenceDefinition;
  key: string;
  scope: string | undefined;
  date: SequenceDateParts | undefined;
  session: ClientSession | undefined;
}

/** Call options of `next()`, `nextFormatted()`, `nextBlock()`, `current()` and `reset()`. */
export const SEQUENCE_SCOPE_KEYS: readonly string[] = ['scope', 'date', 'session'];
/** Call options of `set()`. */
export const SEQUENCE_SET_KEYS: readonly string[] = [...SEQUENCE_SCOPE_KEYS, 'force'];

/**
 * Checks a call's options and works out its counter key. The clock is read
 * at most once, when the key has a period or the call formats a date.
 * @param allowed the option names this call accepts
 * @param formatting whether the caller renders date tokens
 * @throws SequenceConfigError on bad options (before anything is written)
 */
export function prepareSequenceCall(
  def: ResolvedSequenceDefinition,
  options: SequenceSetOptions | undefined,
  allowed: readonly string[],
  formatting: boolean,
  clock: () => Date,
): SequenceCallContext {
  const { name } = def;
  if (options !== undefined) {
    if (options === null || typeof options !== 'object') {
      throw new SequenceConfigError(`Sequence "${name}": options must be an object.`);
    }
    for (const key of Object.keys(options)) {
      if (!allowed.includes(key)) {
        throw new SequenceConfigError(
          `Sequence "${name}": unknown call option "${key}"; use ${allowed.join(', ')}. Sequence options such as start or format belong in define().`,
        );
      }
    }
  }
  const scope = normalizeScope(options?.scope);
  const session = options?.session;
  if (session !== undefined && def.cache > 0) {
    throw new SequenceConfigError(
      `Sequence "${name}" uses the cached allocator (cache: ${def.cache}), whose numbers come from memory and cannot ` +
        `take part in a transaction. Use nextBlock() or define the sequence without cache for gap-free numbers.`,
    );
  }
  let date: SequenceDateParts | undefined;
  if (formatting || def.resetEvery !== 'never') {
    // One clock reading per call: the period in the key and the date tokens always agree.
    const now = options?.date ?? clock();
    if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
      throw new SequenceConfigError(
        `Sequence "${name}": ${options?.date !== undefined ? 'options.date' : 'the clock'} gave ${String(now)}, not a valid Date.`,
      );
    }
    date = zonedDateParts(now, def.timeZone);
  }
  const key = buildSequenceKey(def.name, scope, date && periodKey(def.resetEvery, date));
  return { def, key, scope, date, session };
}
