import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import type { PathOperation } from './array-update-operators.js';
import { typeAlias } from './element-operators.js';
import { integerValue, numericType } from './numeric-types.js';
import { element, parentOf, read, write } from './update-paths.js';

const FORMAT = '{$bit: {field: {and/or/xor: #}}';

type BitOperation = 'and' | 'or' | 'xor';

/** An int32 or Int64 as a bigint, with whether it is an Int64. */
function integer(value: unknown): { n: bigint; long: boolean } | undefined {
  const n = integerValue(value);
  return n === undefined ? undefined : { n, long: numericType(value) === 'long' };
}

function applyBits(op: BitOperation, a: bigint, b: bigint): bigint {
  return op === 'and' ? a & b : op === 'or' ? a | b : a ^ b;
}

/**
 * `$bit`, parsed as mongod's BitNode parses it (BadValue, in its words: a
 * document of `and`/`or`/`xor` operations on int32 or Int64 operands) and
 * applied to an int32 or Int64 field (a missing field counts as 0); the
 * result is an Int64 when either side is one. mingo's `$bit` answered other
 * messages and applied itself to an array.
 */
export function bit(value: unknown): PathOperation {
  if (typeAlias(value) !== 'object') {
    throw new CommandError(
      'BadValue',
      `The $bit modifier is not compatible with a ${typeAlias(value)}. You must pass in an embedded document: ${FORMAT}`,
    );
  }
  const operations = Object.entries(value as Record<string, unknown>);
  if (operations.length === 0) {
    throw new CommandError('BadValue', `You must pass in at least one bitwise operation. The format is: ${FORMAT}`);
  }
  const steps = operations.map(([name, operand]): [BitOperation, { n: bigint; long: boolean }] => {
    if (name !== 'and' && name !== 'or' && name !== 'xor') {
      throw new CommandError(
        'BadValue',
        `The $bit modifier only supports 'and', 'or', and 'xor', not '${name}' which is an unknown operator: ${element(name, operand)}`,
      );
    }
    const n = integer(operand);
    if (!n) {
      throw new CommandError(
        'BadValue',
        `The $bit modifier field must be an Integer(32/64 bit); a '${typeAlias(operand)}' is not supported here: ${element(name, operand)}`,
      );
    }
    return [name, n];
  });
  return (doc, path) => {
    const { target, leaf } = parentOf(doc, path);
    const current = read(target, leaf);
    const start = current === undefined ? { n: 0n, long: false } : integer(current);
    if (!start) {
      throw new CommandError(
        'BadValue',
        `Cannot apply $bit to a value of non-integral type._id: ${formatKeyValue(doc._id)} has the field ${leaf} of non-integer type ${typeAlias(current)}`,
      );
    }
    let { n, long } = start;
    for (const [op, operand] of steps) {
      n = BigInt.asIntN(64, applyBits(op, n, operand.n));
      long ||= operand.long;
    }
    write(target, leaf, long ? n : Number(BigInt.asIntN(32, n)));
  };
}
