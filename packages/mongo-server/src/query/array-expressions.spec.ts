import { evalExpr } from 'mingo/core';

import { Decimal128, Double, Long } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';
import { ARRAY_ARGUMENT_CHECKS } from './array-expressions.js';
import { wholeInt32 } from './array-positions.js';
import { preparedMingoOptions } from './query-context.js';

/** `expr` evaluated on `doc` by the server's operators. */
const run = (expr: unknown, doc: object = {}): unknown => evalExpr(doc, expr, preparedMingoOptions());

/** The code name and message `fn` throws. */
function refusal(fn: () => unknown): { codeName: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof CommandError) return { codeName: error.codeName, message: error.message };
    throw error;
  }
  throw new Error('nothing was thrown');
}

/** The parse-time check of `operator` run on `argument`. */
const parse = (operator: string, argument: unknown) => () => ARRAY_ARGUMENT_CHECKS.get(operator)!(argument);

describe('wholeInt32', () => {
  it.each([
    ['an int', 5, 5],
    ['an integral double', new Double(2), 2],
    ['negative zero', -0, 0],
    ['a long in range', Long.fromNumber(-(2 ** 31)), -(2 ** 31)],
    ['a decimal with a zero fraction', Decimal128.fromString('201.0'), 201],
  ])('should read %s as the int32 it is', (_label, value, expected) => {
    expect(wholeInt32(value)).toBe(expected);
  });

  it.each([
    ['a fraction', 1.5],
    ['a double past int32', 2 ** 31],
    ['a long past int32', Long.fromNumber(2 ** 31)],
    ['a decimal a hair above a whole number', Decimal128.fromString('1.0000000000000000000000000000001')],
    ['NaN', NaN],
    ['a string', '1'],
  ])('should refuse %s', (_label, value) => {
    expect(wholeInt32(value)).toBeUndefined();
  });
});

describe('the set expressions', () => {
  it('should answer $setUnion sorted, each value once as first met, its type kept', () => {
    const union = run({ $setUnion: [{ $literal: [3, new Double(1), 'a'] }, { $literal: [1, 2, 3] }] });
    expect(union).toEqual([new Double(1), 2, 3, 'a']);
  });

  it("should keep $setDifference's first operand in its order, each value once", () => {
    expect(run({ $setDifference: [{ $literal: [5, 1, 5, 4, 1, 3] }, { $literal: [4] }] })).toEqual([5, 1, 3]);
  });

  it('should stop $setEquals at the first operand that differs, not checking the later ones', () => {
    expect(run({ $setEquals: [{ $literal: [1] }, { $literal: [2] }, 'not an array'] })).toBe(false);
    expect(refusal(() => run({ $setEquals: [{ $literal: [1] }, { $literal: [1] }, 'x'] }))).toEqual({
      codeName: 'Location17044',
      message: 'All operands of $setEquals must be arrays. 3-th argument is of type: string',
    });
  });

  it('should refuse $setEquals of fewer than two operands while parsing (17045)', () => {
    expect(refusal(parse('$setEquals', ['$a'])).codeName).toBe('Location17045');
  });
});

describe('$sortArray', () => {
  it('should read a path into an array by position only, and an element that is no document as null', () => {
    const input = [{ a: [{ b: 2 }] }, 7, { a: [{ b: 1 }] }, { a: { b: 0 } }];
    expect(run({ $sortArray: { input: { $literal: input }, sortBy: { 'a.0.b': 1 } } })).toEqual([
      7,
      { a: { b: 0 } },
      { a: [{ b: 1 }] },
      { a: [{ b: 2 }] },
    ]);
  });

  it('should refuse a sortBy mongod does not parse', () => {
    expect(refusal(parse('$sortArray', { input: [], sortBy: { a: 2 } }))).toEqual({
      codeName: 'Location2942505',
      message: 'BadValue: The $sort element value must be either 1 or -1',
    });
    expect(refusal(parse('$sortArray', { input: [], sortBy: 0 })).codeName).toBe('Location2942506');
    expect(refusal(parse('$sortArray', { input: [], sortBy: 'a' })).codeName).toBe('Location2942507');
    expect(refusal(parse('$sortArray', { input: [] })).codeName).toBe('Location2942503');
  });
});

describe('$filter and $map', () => {
  it("should evaluate $filter's limit as an expression, null meaning none", () => {
    const spec = { input: { $literal: [1, 2, 3, 4] }, cond: { $gt: ['$$this', 1] } };
    expect(run({ $filter: { ...spec, limit: { $add: [1, 1] } } })).toEqual([2, 3]);
    expect(run({ $filter: { ...spec, limit: null } })).toEqual([2, 3, 4]);
    expect(refusal(() => run({ $filter: { ...spec, limit: 0 } })).codeName).toBe('Location327392');
    expect(refusal(() => run({ $filter: { ...spec, limit: 1.5 } })).codeName).toBe('Location327391');
  });

  it("should read $field paths from the element when $map's as is CURRENT, $$ROOT still the document", () => {
    const doc = { k: 'root', items: [{ k: 'x' }, { k: 'y' }] };
    expect(run({ $map: { input: '$items', as: 'CURRENT', in: ['$k', '$$ROOT.k', '$$CURRENT.k'] } }, doc)).toEqual([
      ['x', 'root', 'x'],
      ['y', 'root', 'y'],
    ]);
  });

  it('should refuse an as that is not a string, as mongod reads it as the empty name', () => {
    expect(refusal(parse('$map', { input: [], as: 1, in: 1 }))).toEqual({
      codeName: 'FailedToParse',
      message: 'empty variable names are not allowed',
    });
  });
});

describe('$indexOfArray and $range', () => {
  it('should find nothing from a start past the end, and search only up to the end given', () => {
    expect(run({ $indexOfArray: [{ $literal: [1, 2, 3] }, 2, new Double(3)] })).toBe(-1);
    expect(run({ $indexOfArray: [{ $literal: [1, 2, 3, 2] }, 2, 2, 3] })).toBe(-1);
  });

  it("should refuse a $range mongod's memory estimate puts at its limit", () => {
    // 24 bytes, and 16 per value for one value more than the steps: 6553598 of them reach 100 MiB.
    expect((run({ $range: [0, 6553597] }) as number[]).length).toBe(6553597);
    expect(refusal(() => run({ $range: [0, 6553598] })).codeName).toBe('ExceededMemoryLimit');
  });
});
