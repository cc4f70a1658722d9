import type { Document } from 'bson';

import { Double } from '../bson/bson-library.cjs';
import { describeUpdate, type UpdateDescription } from './update-description.js';

describe('describeUpdate', () => {
  const none = { updatedFields: {}, removedFields: [], truncatedArrays: [] };
  it.each<[string, Document, Document, UpdateDescription]>([
    ['nothing changed', { _id: 1, a: { b: [1, 2] } }, { _id: 1, a: { b: [1, 2] } }, none],
    ['a changed field', { _id: 1, a: 1 }, { _id: 1, a: 2 }, { ...none, updatedFields: { a: 2 } }],
    ['a new field', { _id: 1 }, { _id: 1, a: { b: 1 } }, { ...none, updatedFields: { a: { b: 1 } } }],
    ['a removed field', { _id: 1, a: 1 }, { _id: 1 }, { ...none, removedFields: ['a'] }],
    [
      'a nested change, by path',
      { _id: 1, a: { b: 1, c: 1 } },
      { _id: 1, a: { b: 2, c: 1 } },
      { ...none, updatedFields: { 'a.b': 2 } },
    ],
    ['an appended element', { _id: 1, a: [1] }, { _id: 1, a: [1, 2] }, { ...none, updatedFields: { 'a.1': 2 } }],
    [
      'a changed element',
      { _id: 1, a: [{ x: 1 }] },
      { _id: 1, a: [{ x: 2 }] },
      { ...none, updatedFields: { 'a.0.x': 2 } },
    ],
    [
      'a shortened array',
      { _id: 1, a: [1, 2, 3] },
      { _id: 1, a: [1] },
      { ...none, truncatedArrays: [{ field: 'a', newSize: 1 }] },
    ],
    [
      'a type change of an equal number',
      { _id: 1, a: 1 },
      { _id: 1, a: new Double(1) },
      { ...none, updatedFields: { a: new Double(1) } },
    ],
    [
      'an array becoming a document',
      { _id: 1, a: [1] },
      { _id: 1, a: { 0: 1 } },
      { ...none, updatedFields: { a: { 0: 1 } } },
    ],
  ])('reports %s', (_, before, after, expected) => {
    expect(describeUpdate(before, after)).toEqual(expected);
  });

  it('keeps a field named __proto__ as an own field', () => {
    const after = JSON.parse('{"_id":1,"__proto__":{"x":1}}') as Document;
    const { updatedFields } = describeUpdate({ _id: 1 }, after);
    expect(Object.keys(updatedFields)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(updatedFields)).toBe(Object.prototype);
  });

  it('walks a document nested 10,000 levels deep without overflowing the stack', () => {
    let before: Document = { v: 1 };
    let after: Document = { v: 2 };
    for (let i = 0; i < 10_000; i++) {
      before = { d: before };
      after = { d: after };
    }
    const { updatedFields } = describeUpdate(before, after);
    expect(Object.keys(updatedFields)).toEqual([`${'d.'.repeat(10_000)}v`]);
  });
});
