import { ObjectId } from '../bson/bson-library.cjs';
import { MISSING, pathElements, pathValues, queryPath } from './path-elements.js';

const M = MISSING;

/**
 * The elements a path reaches, as mongod's BSONElementIterator yields them
 * (their order aside). conformance-null-paths.spec.ts checks the matches they
 * make through the driver.
 */
describe('pathElements', () => {
  it.each<[string, unknown, string, unknown[]]>([
    ['a top-level field', { a: 1 }, 'a', [1]],
    ['a missing top-level field', { b: 1 }, 'a', [M]],
    ['a top-level array: its elements, then itself', { a: [1, 2] }, 'a', [1, 2, [1, 2]]],
    ['a null field', { a: null }, 'a', [null]],
    ['a field named __proto__', JSON.parse('{"__proto__": 1}'), '__proto__', [1]],
    ['an inherited property is missing', { a: {} }, 'a.toString', [M]],
    ['through a sub-document', { a: { b: 1 } }, 'a.b', [1]],
    ['a scalar where a document is expected', { a: 4 }, 'a.b', [M]],
    ['an ObjectId is no document', { a: new ObjectId('0123456789abcdef01234567') }, 'a.b', [M]],
    ['the documents of an array', { a: [{ b: 1 }, { b: 2 }, {}] }, 'a.b', [1, 2, M]],
    ['an array holding no document gives nothing', { a: [1, 'x', [{ b: 1 }]] }, 'a.b', []],
    ['an array at the end inside an array on the way', { a: [{ b: [1, 2] }] }, 'a.b', [1, 2, [1, 2]]],
    ['the element at an index, itself', { a: [[5], 6] }, 'a.0', [[5]]],
    ['an index past the end', { a: [5] }, 'a.3', []],
    ['an index and a field named "0"', { a: [{ '0': 5 }] }, 'a.0', [5, { '0': 5 }]],
    ['a document without field "0" at an index', { a: [{ b: 5 }] }, 'a.0', [M, { b: 5 }]],
    ['past an index into a document', { a: [{ b: 5 }, { b: 6 }] }, 'a.1.b', [M, M, 6]],
    ['past an index into an array', { a: [[1, 2], 3] }, 'a.0.1', [2]],
    ['past an index into an array of documents', { a: [[{ b: 5 }]] }, 'a.0.b', [5]],
    ['"01" is no index', { a: [5, 6] }, 'a.01', []],
    ['a field named "0" of a document', { a: { '0': 5 } }, 'a.0', [5]],
  ])('%s', (_label, doc, selector, expected) => {
    const elements = pathElements(doc, queryPath(selector), true);
    expect(new Set(elements)).toEqual(new Set(expected));
    expect(elements).toHaveLength(expected.length);
  });

  it('reads an array at the end whole without expandLeafArrays ($size), at an index too', () => {
    expect(pathElements({ a: [1, 2] }, queryPath('a'), false)).toEqual([[1, 2]]);
    expect(pathElements({ a: [{ b: [1, 2] }] }, queryPath('a.b'), false)).toEqual([[1, 2]]);
    expect(pathElements({ a: [[1, 2]] }, queryPath('a.0'), false)).toEqual([[1, 2]]);
  });

  it('leaves the misses out of pathValues', () => {
    expect(pathValues({ a: [{ b: 1 }, {}] }, queryPath('a.b'), true)).toEqual([1]);
  });
});
