/**
 * Conformance: an expression operator's operands are a list, as mongod parses
 * them: `{ $size: ['$a'] }` is `{ $size: '$a' }`, `{ $round: '$n' }` is
 * `{ $round: ['$n'] }`, an accumulator used as an expression enters an array
 * that is its one operand (`{ $sum: ['$prices'] }` sums the prices: mongod's
 * ExpressionFromAccumulator), and the wrong number of operands is refused while
 * parsing (see conformance-eager-errors.spec.ts). Written from MongoDB 7's
 * manual; passes against MONGO_URL too.
 */
import type { Document } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const DOC = { _id: 1, arr: [1, 2, 3], s: 'héllo', n: -2.5, o: { a: 1 } };

async function evaluate(expression: Document): Promise<unknown> {
  const c = await fx.fresh('operands');
  await c.insertOne(DOC as never);
  const [result] = await c.aggregate([{ $project: { _id: 0, r: expression } }]).toArray();
  return result?.r;
}

describe('operand lists', () => {
  it.each<[string, Document, Document, unknown]>([
    ['$size', { $size: '$arr' }, { $size: ['$arr'] }, 3],
    ['$size of a literal array', { $size: { $literal: [1, 2] } }, { $size: [[1, 2]] }, 2],
    ['$reverseArray', { $reverseArray: '$arr' }, { $reverseArray: ['$arr'] }, [3, 2, 1]],
    ['$isNumber', { $isNumber: '$n' }, { $isNumber: ['$n'] }, true],
    ['$abs', { $abs: '$n' }, { $abs: ['$n'] }, 2.5],
    ['$floor', { $floor: '$n' }, { $floor: ['$n'] }, -3],
    ['$strLenCP', { $strLenCP: '$s' }, { $strLenCP: ['$s'] }, 5],
    ['$strLenBytes', { $strLenBytes: '$s' }, { $strLenBytes: ['$s'] }, 6],
    ['$toString', { $toString: '$n' }, { $toString: ['$n'] }, '-2.5'],
    ['$objectToArray', { $objectToArray: '$o' }, { $objectToArray: ['$o'] }, [{ k: 'a', v: 1 }]],
    ['$round', { $round: '$n' }, { $round: ['$n'] }, -2],
    ['$trunc', { $trunc: '$n' }, { $trunc: ['$n'] }, -2],
    // An accumulator as an expression accumulates the elements of its one operand when that is an array.
    ['$sum', { $sum: '$arr' }, { $sum: ['$arr'] }, 6],
    ['$avg', { $avg: '$arr' }, { $avg: ['$arr'] }, 2],
    ['$max', { $max: '$arr' }, { $max: ['$arr'] }, 3],
    ['$min', { $min: '$arr' }, { $min: ['$arr'] }, 1],
    ['$stdDevPop', { $stdDevPop: '$arr' }, { $stdDevPop: ['$arr'] }, Math.sqrt(2 / 3)],
    ['$sum of one number', { $sum: '$n' }, { $sum: ['$n'] }, -2.5],
  ])('should read %s bare and as a one-operand list alike', async (_label, bare, list, expected) => {
    expect(await evaluate(bare)).toEqual(expected);
    expect(await evaluate(list)).toEqual(expected);
  });

  it.each<[string, Document, unknown]>([
    // Several operands are accumulated one by one: an array among them is not entered
    // ($sum and $avg skip it, $max compares it as a value, arrays sorting above numbers).
    ['$sum', { $sum: ['$arr', '$n'] }, -2.5],
    ['$avg', { $avg: ['$arr', '$n', 4.5] }, 1],
    ['$max', { $max: ['$arr', '$n'] }, [1, 2, 3]],
    ['$sum of none', { $sum: [] }, 0],
  ])('should accumulate the operands of %s one by one when there are several', async (_label, expression, expected) => {
    expect(await evaluate(expression)).toEqual(expected);
  });
});
