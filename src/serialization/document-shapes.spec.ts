import { jest } from '@jest/globals';
import {
  abandonShape,
  createDocumentShapes,
  LEARN_AFTER,
  matchShape,
  MAX_KEYS,
  MAX_SHAPES,
  shapeCopy,
  type DocumentShapes,
  type EntryCopy,
  type Shape,
} from './document-shapes.js';

const LEAVE_OUT = Symbol('LEAVE_OUT');

/** An entry copy that marks what it was given, so the test sees which entries went through it. */
const entry: EntryCopy = (item) => {
  if ((item as { leaveOut?: boolean } | null)?.leaveOut === true) return LEAVE_OUT;
  return { copied: item === undefined ? 'undefined' : item };
};

describe.each([
  ['by for…in', false],
  ['by Object.keys (a document in dictionary mode)', true],
])('document shapes, keys listed %s', (_how, dictionary) => {
  const match = (shapes: DocumentShapes, src: Record<string, unknown>): Shape | undefined =>
    matchShape(shapes, src, dictionary ? Object.keys(src) : undefined);

  /** Shapes that have seen enough documents to learn the next key list. */
  function learning(): DocumentShapes {
    const shapes = createDocumentShapes();
    for (let i = 0; i < LEARN_AFTER; i++) expect(match(shapes, { a: 1 })).toBeUndefined();
    return shapes;
  }

  it(`should learn a key list only after ${LEARN_AFTER} documents of the schema`, () => {
    const shapes = createDocumentShapes();
    for (let i = 0; i < LEARN_AFTER; i++) expect(match(shapes, { a: 1, b: 2 })).toBeUndefined();
    const shape = match(shapes, { a: 1, b: 2 });
    expect(shape?.keys).toEqual(['a', 'b']);
    expect(match(shapes, { a: 3, b: 4 })).toBe(shape);
  });

  it.each([
    ['a key fewer', { a: 1 }],
    ['a key more', { a: 1, b: 2, c: 3 }],
    ['the same keys in another order', { b: 2, a: 1 }],
    ['another key in the same place', { a: 1, c: 2 }],
  ])('should not take a document with %s for a learnt key list', (_name, other) => {
    const shapes = learning();
    const shape = match(shapes, { a: 1, b: 2 });
    expect(shape).toBeDefined();
    expect(match(shapes, other)).not.toBe(shape);
  });

  it(`should learn at most ${MAX_SHAPES} key lists per schema`, () => {
    const shapes = learning();
    const lists = Array.from({ length: MAX_SHAPES + 2 }, (_, i) => ({ [`k${i}`]: i }));
    const learnt = lists.map((src) => match(shapes, src));
    expect(learnt.slice(0, MAX_SHAPES).every((shape) => shape !== undefined)).toBe(true);
    expect(learnt.slice(MAX_SHAPES)).toEqual([undefined, undefined]);
    expect(shapes.shapes).toHaveLength(MAX_SHAPES);
    expect(match(shapes, lists[0])).toBe(learnt[0]);
  });

  it('should copy strings, numbers and booleans as they are and hand everything else to the entry copy', () => {
    const shapes = learning();
    const src = { s: 'text', n: 1.5, t: true, o: { x: 1 }, z: null, u: undefined, b: 10n, f: Symbol.iterator };
    const copy = shapeCopy(match(shapes, src)!, undefined);
    const out = copy!(src, 0, {}, entry) as Record<string, unknown>;
    expect(out).toStrictEqual({
      s: 'text',
      n: 1.5,
      t: true,
      o: { copied: { x: 1 } },
      z: { copied: null },
      u: { copied: 'undefined' },
      b: { copied: 10n },
      f: Symbol.iterator,
    });
    expect(Object.keys(out)).toEqual(Object.keys(src));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('should leave out the version key it is given, and only that', () => {
    const shapes = learning();
    const src = { _id: 'a', name: 'n', __v: 3 };
    const shape = match(shapes, src)!;
    expect(shapeCopy(shape, '__v')!(src, 0, {}, entry)).toStrictEqual({ _id: 'a', name: 'n' });
    expect(shapeCopy(shape, undefined)!(src, 0, {}, entry)).toStrictEqual({ _id: 'a', name: 'n', __v: 3 });
  });

  it('should return the symbol an entry copy returns, without finishing the copy', () => {
    const shapes = learning();
    const src = { a: { leaveOut: true }, b: 'x' };
    expect(shapeCopy(match(shapes, src)!, undefined)!(src, 0, {}, entry)).toBe(LEAVE_OUT);
  });

  it('should pass the depth and the scope to the entry copy', () => {
    const shapes = learning();
    const src = { a: {} };
    const scope = { minimize: true };
    const seen: unknown[] = [];
    shapeCopy(match(shapes, src)!, undefined)!(src, 7, scope, (item, depth, given) => {
      seen.push(depth, given);
      return item;
    });
    expect(seen).toEqual([7, scope]);
  });

  it.each([
    ['a key that is no identifier', { 'a-b': 1 }],
    ['a key with code in it', { 'a; globalThis.pwned = 1; //': 1 }],
    ['a numeric key', { 0: 'zero' }],
    ['a __proto__ key', JSON.parse('{"__proto__": {"polluted": 1}}') as Record<string, unknown>],
    ['too many keys', Object.fromEntries(Array.from({ length: MAX_KEYS + 1 }, (_, i) => [`k${i}`, i]))],
  ])('should not compile a key list with %s, and not examine it again', (_name, src) => {
    const shapes = learning();
    const shape = match(shapes, src);
    expect(shape).toBeDefined();
    expect(shapeCopy(shape!, undefined)).toBeNull();
    expect(match(shapes, src)).toBe(shape);
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it(`should compile a key list of ${MAX_KEYS} keys`, () => {
    const shapes = learning();
    const src = Object.fromEntries(Array.from({ length: MAX_KEYS }, (_, i) => [`k${i}`, i]));
    expect(shapeCopy(match(shapes, src)!, undefined)!(src, 0, {}, entry)).toStrictEqual(src);
  });

  it('should give no copier where code generation from strings is not allowed', () => {
    const shapes = learning();
    const shape = match(shapes, { a: 1 })!;
    const spy = jest.spyOn(globalThis, 'Function').mockImplementation(() => {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    try {
      expect(shapeCopy(shape, undefined)).toBeNull();
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    // Not retried: the answer is kept with the shape.
    expect(shapeCopy(shape, undefined)).toBeNull();
  });

  it('should stop giving the copiers of an abandoned shape', () => {
    const shapes = learning();
    const src = { a: 1 };
    const shape = match(shapes, src)!;
    expect(shapeCopy(shape, undefined)).toEqual(expect.any(Function));
    abandonShape(shape);
    expect(shapeCopy(shape, undefined)).toBeNull();
    expect(shapeCopy(shape, '__v')).toBeNull();
    expect(match(shapes, src)).toBe(shape);
  });
});
