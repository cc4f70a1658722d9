import type { Document } from 'bson';

import { ProjectionTree } from './projection-tree.js';

/** A computed field's value: the projection's value itself (a stand-in for an expression), `undefined` for "$$REMOVE". */
const literal = (expr: unknown) => () => (expr === '$$REMOVE' ? undefined : expr);

const project = (spec: Document, doc: Document): Document => ProjectionTree.of(spec, literal).apply(doc);

/**
 * The projection executor's answers, as mongod's projection_semantics.js
 * states them; conformance-projection-semantics.spec.ts checks them through
 * the driver, for find and for `$project`.
 */
describe('ProjectionTree', () => {
  it.each<[string, Document, Document, Document]>([
    [
      'an inclusion through an array, dropping scalars, recursing into nested arrays',
      { _id: 0, 'a.b': 1 },
      { a: [{ b: 1, c: 2 }, 3, [{ b: 4, c: 5 }, 6]] },
      { a: [{ b: 1 }, [{ b: 4 }]] },
    ],
    [
      'a numeric name as a field, not an index',
      { _id: 0, 'a.2': 1 },
      { a: [0, 1, 2, { 2: 'x' }] },
      { a: [{ 2: 'x' }] },
    ],
    ['a path under a scalar _id', { '_id.a': 1 }, { _id: 3, a: 1 }, {}],
    ['a path under a document _id', { '_id.a': 1 }, { _id: { a: 1, b: 2 } }, { _id: { a: 1 } }],
    ['_id by default', { a: 1 }, { _id: 7, a: 1, b: 2 }, { _id: 7, a: 1 }],
    [
      'an exclusion through nested arrays',
      { 'a.b.c': 0 },
      { a: [[], [{ b: [[1, 2], { c: 1, d: 1 }] }]] },
      { a: [[], [{ b: [[1, 2], { d: 1 }] }]] },
    ],
    ['an exclusion keeping scalars on the way', { 'a.b': 0 }, { a: [1, { b: 2, c: 3 }] }, { a: [1, { c: 3 }] }],
    [
      'a computed field in each element, a scalar made a document',
      { _id: 0, 'a.b': 'x' },
      { a: ['s', { b: 1, c: 1 }, [{ b: 2 }]] },
      { a: [{ b: 'x' }, { b: 'x' }, [{ b: 'x' }]] },
    ],
    ['a computed field under an empty array', { _id: 0, 'a.b': 'x' }, { a: [] }, { a: [] }],
    ['a computed field under a missing field', { _id: 0, 'a.b': 'x' }, { c: 1 }, { a: { b: 'x' } }],
    ['a computed field that is removed', { _id: 0, a: '$$REMOVE', b: 1 }, { a: 1, b: 2 }, { b: 2 }],
  ])('projects %s', (_label, spec, doc, expected) => {
    expect(project(spec, doc)).toStrictEqual(expected);
  });

  it('keeps the input order of included fields, then computed ones in projection order', () => {
    const out = project({ z: 'new', b: 1, a: 1 }, { a: 1, b: 2, _id: 0, c: 3 });
    expect(Object.entries(out)).toEqual([
      ['a', 1],
      ['b', 2],
      ['_id', 0],
      ['z', 'new'],
    ]);
  });

  it('keeps a field named __proto__ as a field', () => {
    const doc = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as Document;
    const out = project({ _id: 0, __proto__: 1 } as Document, doc);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
  });

  it('does not change the stored document', () => {
    const doc = { a: [{ b: 1, c: 2 }] };
    project({ 'a.b': 'x' }, doc);
    project({ 'a.c': 0 }, doc);
    expect(doc).toStrictEqual({ a: [{ b: 1, c: 2 }] });
  });
});
