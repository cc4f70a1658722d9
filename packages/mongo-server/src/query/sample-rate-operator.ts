import { CommandError } from '../commands/command-error.js';
import { numericType, toDouble } from './numeric-types.js';

/**
 * What `{ $sampleRate: x }` at a filter's top level means to mongod's parser
 * (`parseSampleRate`): x a number in [0, 1] (NaN refused), desugared into
 * the `$expr` condition `{ $lt: [{ $rand: {} }, x] }`, each document then
 * matched with probability x; 0 and 1 into `false` and `true`.
 */
export function sampleRateCondition(value: unknown): unknown {
  const type = numericType(value);
  if (type === undefined) throw new CommandError('BadValue', 'argument to $sampleRate must be a numeric type');
  const x = toDouble(value);
  // Negated on purpose, as in mongod: NaN fails both comparisons and so is refused.
  if (!(x >= 0 && x <= 1)) throw new CommandError('BadValue', 'numeric argument to $sampleRate must be in [0, 1]');
  if (x === 0 || x === 1) return x === 1;
  return { $lt: [{ $rand: {} }, x] };
}
