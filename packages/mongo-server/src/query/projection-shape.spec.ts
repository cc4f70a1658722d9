import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { checkProjectionShape, checkUnsetSpec } from './projection-shape.js';

/** The codeName `check` throws, or undefined. */
function codeOf(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof CommandError) return error.codeName;
    throw error;
  }
}

describe('checkProjectionShape', () => {
  it.each<[string, Document, boolean]>([
    ['an inclusion with _id excluded', { _id: 0, a: 1, 'b.c': true }, false],
    ['an exclusion with _id included', { a: 0, _id: 1 }, false],
    ['sibling paths under one parent', { 'a.b': 1, 'a.c': 1, a: { d: 1 } }, false],
    ['an exclusion adding a $meta', { a: 0, s: { $meta: 'textScore' } }, false],
    ['a computed field and an inclusion', { a: 1, b: { $add: [1, 2] }, c: 'literal' }, false],
    ["find's positional and $slice beside an exclusion", { 'a.$': 1 }, true],
    ["find's $slice in an exclusion", { a: 0, b: { $slice: 2 } }, true],
    ["find's positional path with a number other than 1", { 'a.$': 2.5 }, true],
  ])('should accept %s', (_label, spec, find) => {
    expect(codeOf(() => checkProjectionShape(spec, { find }))).toBeUndefined();
  });

  it.each<[string, Document, boolean, string]>([
    ['an empty name', { '': 1 }, false, 'Location40352'],
    ['an empty part', { 'a..b': 1 }, false, 'Location15998'],
    ['a trailing dot', { 'a.': 1 }, false, 'Location40353'],
    ['a $ name', { $a: 1 }, false, 'Location16410'],
    ['a $ name inside a sub-projection', { a: { b: 1, $c: 1 } }, false, 'Location16410'],
    ['a positional path in aggregation', { 'a.$': 1 }, false, 'Location31324'],
    ['a positional operator mid-path in find', { 'a.$.b': 1 }, true, 'Location31394'],
    ['an empty sub-projection', { a: { b: {} } }, false, 'Location51270'],
    ['an exclusion after an inclusion', { a: 1, b: 0 }, false, 'Location31254'],
    ['an inclusion after an exclusion', { a: 0, b: 1 }, false, 'Location31253'],
    ['a path twice', { 'a.b': 1, a: { b: 1 } }, false, 'Location31250'],
    ['a path inside one given', { a: 1, 'a.b.c': 1 }, false, 'Location31249'],
    ['a path around one given', { 'a.b': 0, a: 0 }, false, 'Location31250'],
    ["find's positional path beside its array", { a: 1, 'a.$': 1 }, true, 'Location31250'],
    ['a positional operator mid-path before its end', { 'a.$.b.$': 1 }, true, 'Location31394'],
    ['a positional operator mid-path in aggregation', { 'a.$.b.$': 1 }, false, 'Location31324'],
    ['a positional exclusion', { 'a.$': 0 }, true, 'Location31395'],
    ['a positional literal', { 'a.$': 'x' }, true, 'Location31308'],
    ['a positional sub-projection', { 'a.$': { b: 1 } }, true, 'Location31271'],
    ['a positional expression', { 'a.$': { $slice: 1 } }, true, 'Location31271'],
    ['two positional paths', { 'a.$': 1, 'b.$': 1 }, true, 'Location31276'],
    ['a positional path after $elemMatch', { a: { $elemMatch: { b: 1 } }, 'c.$': 1 }, true, 'Location31256'],
    ['$elemMatch after a positional path', { 'c.$': 1, a: { $elemMatch: { b: 1 } } }, true, 'Location31255'],
    ['a positional operator alone', { '.$': 1 }, true, 'Location5392900'],
    ['a positional path on an empty part', { 'a..$': 1 }, true, 'Location40353'],
    ['an expression after an exclusion', { a: 0, b: { $add: [1, 2] } }, false, 'Location31252'],
    ['a literal after an exclusion', { a: 0, b: 'x' }, false, 'Location31310'],
    ['an exclusion after an expression', { b: { $add: [1, 2] }, a: 0 }, false, 'Location31254'],
  ])('should refuse %s', (_label, spec, find, codeName) => {
    expect(codeOf(() => checkProjectionShape(spec, { find }))).toBe(codeName);
  });
});

describe('checkUnsetSpec', () => {
  const run = (spec: unknown) => codeOf(() => checkUnsetSpec(spec, (check) => check()));

  it.each<[string, unknown, string | undefined]>([
    ['a string', 'a.b', undefined],
    ['an array of paths', ['a', 'b.c'], undefined],
    ['a number', 1, 'Location31002'],
    ['an empty array', [], 'Location31119'],
    ['an array holding a number', ['a', 1], 'Location31120'],
    ['a path twice', ['a', 'a'], 'Location31250'],
    ['a path inside another', ['a', 'a.b'], 'Location31249'],
    ['a $ path', '$a', 'Location16410'],
  ])('should answer %s with %s', (_label, spec, codeName) => {
    expect(run(spec)).toBe(codeName);
  });

  it('should check the paths inside the context it is given, the shape of the specification before it', () => {
    const contexts: string[] = [];
    const inContext = (check: () => void) => {
      contexts.push('entered');
      check();
    };
    expect(() => checkUnsetSpec(7, inContext)).toThrow('$unset specification must be a string or an array');
    expect(contexts).toEqual([]);
    checkUnsetSpec(['a'], inContext);
    expect(contexts).toEqual(['entered']);
  });
});
