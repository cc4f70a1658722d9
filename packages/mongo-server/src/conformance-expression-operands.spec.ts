/**
 * Conformance: an expression operator's operands are a list, as mongod parses
 * them: `{ $size: ['$a'] }` is `{ $size: '$a' }`, `{ $round: '$n' }` is
 * `{ $round: ['$n'] }`, and the wrong number of operands is refused while
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
  ])('should read %s bare and as a one-operand list alike', async (_label, bare, list, expected) => {
    expect(await evaluate(bare)).toEqual(expected);
    expect(await evaluate(list)).toEqual(expected);
  });
});
