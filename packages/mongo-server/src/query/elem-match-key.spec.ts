import type { Document } from 'bson';

import { ElemMatchKey } from './elem-match-key.js';

/**
 * The position a filter matched a document at, as mongod's matcher records
 * it (positional_projection.js and positional_projection_multiple_array_fields.js
 * state the answers; conformance-projection-semantics.spec.ts checks them
 * through the driver).
 */
describe('ElemMatchKey', () => {
  const ABC = { a: [1, 2, 3], b: [4, 5, 6] };
  it.each<[string, Document, Document, number | undefined]>([
    ['an equality on an array', { a: 2 }, ABC, 1],
    ['the first match of $in', { a: { $in: [3, 2] } }, ABC, 1],
    ['the last child of $and', { $and: [{ a: 1 }, { a: 3 }] }, ABC, 2],
    ['the last field of a filter', { a: 3, b: 4 }, ABC, 0],
    ['an $or of equalities on one field, read as $in', { $or: [{ a: 3 }, { a: 2 }] }, ABC, 1],
    ['an $or of one branch', { $or: [{ a: 3 }] }, ABC, 2],
    ['no position from an $or over two fields', { $or: [{ a: 1 }, { b: 5 }] }, ABC, undefined],
    ['no position from a negation', { a: { $ne: 1 } }, ABC, undefined],
    ['no position from $nor', { $nor: [{ a: 9 }] }, ABC, undefined],
    ['no position from a whole-array equality', { a: [1, 2, 3] }, ABC, undefined],
    ['no position without an array', { x: 1 }, { x: 1 }, undefined],
    ['the first array on a dotted path', { 'x.y': 2 }, { x: [{ y: 1 }, { y: 2 }] }, 1],
    ['an array at the end of a path', { 'x.y': 2 }, { x: { y: [5, 2] } }, 1],
    [
      'an $elemMatch of arrays of arrays',
      { a: { $elemMatch: { $elemMatch: { $eq: 3 } } } },
      {
        a: [
          [1, 2],
          [3, 4],
        ],
      },
      1,
    ],
    ['each operator on its own, the last winning', { a: { $gt: 1, $lt: 3 } }, { a: [0, 5, 2] }, 0],
    ['a $regex with its $options', { s: { $regex: 'B', $options: 'i' } }, { s: ['a', 'b'] }, 1],
  ])('finds %s', (_label, filter, doc, expected) => {
    expect(new ElemMatchKey(filter).of(doc)).toBe(expected);
  });
});
