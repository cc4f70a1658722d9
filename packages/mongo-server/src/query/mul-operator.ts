import type { PathOperation } from './array-update-operators.js';
import { viaMingo } from './bson-update-operators.js';
import { numericType, storedDouble, toDouble } from './numeric-types.js';
import { parentOf, read, write } from './update-paths.js';

/**
 * `$mul` keeping MongoDB's result type when a double is involved: the
 * product is a double (`Int32(5) * 1.0` is `5.0`, returned as a double),
 * and a missing field becomes a zero of the multiplier's type (`0.0` for a
 * double). mingo multiplies JS numbers only, so it would see a `Double`
 * marker as not a number; the int/long cases and every error stay with it.
 */
export function multiply(value: unknown): PathOperation {
  const mingo = viaMingo('$mul', value);
  const by = numericType(value);
  if (by === undefined || by === 'decimal') return mingo;
  return (doc, path) => {
    const { target, leaf } = parentOf(doc, path);
    const current = read(target, leaf);
    const type = current === undefined ? by : numericType(current);
    if (type === undefined || type === 'decimal' || (type !== 'double' && by !== 'double')) {
      mingo(doc, path);
      return;
    }
    write(target, leaf, storedDouble(current === undefined ? 0 : toDouble(current) * toDouble(value)));
  };
}
