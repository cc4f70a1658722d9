import { CommandError } from '../commands/command-error.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { writesAsInt32 } from '../bson/int32.js';
import type { PathOperation } from './array-update-operators.js';
import { decimalArithmetic } from './decimal-arithmetic.js';
import { nonNumericError, overflowError } from './inc-operator.js';
import { fitsInt64, integerValue, numericType, storedDouble, toDouble } from './numeric-types.js';
import { parentOf, read, write } from './update-paths.js';

/**
 * `$mul` with MongoDB's result types and errors. The multiplier must be a
 * number (14 while parsing, with the field and value as mongod prints them);
 * the stored value too (14, naming the document); a missing field becomes a
 * zero of the multiplier's type. A double involved makes a double (`5 * 1.0`
 * is `5.0`); integers stay int32 while they fit, then Int64, and past Int64
 * fail with BadValue as in mongod. A Decimal128 on either side multiplies in decimal
 * (decimal-arithmetic.ts); mingo left a stored Decimal128 as it was.
 */
export function multiply(path: string, value: unknown): PathOperation {
  const by = numericType(value);
  if (by === undefined) {
    throw new CommandError(
      'TypeMismatch',
      `Cannot multiply with non-numeric argument: {${path}: ${formatKeyValue(value)}}`,
    );
  }
  return (doc, resolved) => {
    const { target, leaf } = parentOf(doc, resolved);
    const current = read(target, leaf);
    const type = current === undefined ? by : numericType(current);
    if (type === undefined) throw nonNumericError('$mul', doc, leaf, current);
    if (type === 'decimal' || by === 'decimal') {
      // mongod multiplies a missing field's int32 0 by the multiplier: a Decimal128 zero at its exponent.
      write(target, leaf, decimalArithmetic('$multiply', [current ?? 0, value]));
      return;
    }
    if (type === 'double' || by === 'double') {
      write(target, leaf, storedDouble(current === undefined ? 0 : toDouble(current) * toDouble(value)));
      return;
    }
    if (current === undefined) {
      write(target, leaf, by === 'long' ? 0n : 0);
      return;
    }
    const product = integerValue(current)! * integerValue(value)!;
    if (!fitsInt64(product)) throw overflowError('$mul', current, doc);
    const int32 = type === 'int' && by === 'int' && writesAsInt32(Number(product));
    write(target, leaf, int32 ? Number(product) : product);
  };
}
