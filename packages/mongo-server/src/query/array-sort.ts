/**
 * `$sortArray` as mongod evaluates it (expression.cpp, pattern_cmp.h's
 * PatternValueCmp): `sortBy: 1` or `-1` orders the elements whole, by
 * mongod's comparison of values (types in BSON order, arrays element by
 * element, strings under the collation); `sortBy: {path: 1, …}` orders them
 * by the values at those paths, read as BSONObj::getFieldDotted reads them
 * (through sub-documents, and into an array by a position only), null where
 * there is none — so every element that is not a document sorts as null.
 * Equal elements keep their order. mingo ordered an array after a document
 * and ignored the collation.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { compareBson } from '../bson/bson-compare.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { numericType, toDouble } from './numeric-types.js';
import { isNullish } from './operand-lists.js';
import { OperationBudget } from './operation-budget.js';

/** A position in an array as a BSON array names it: "0", "1", … (no sign, no leading zero). */
const POSITION = /^(?:0|[1-9]\d*)$/;

/** The message of mongod's `pattern_cmp::checkSortClause` for a `sortBy` document; undefined when it is sound. */
function sortClauseProblem(pattern: Document): string | undefined {
  const entries = Object.entries(pattern);
  if (entries.length === 0) return 'The $sort pattern is empty when it should be a set of fields.';
  for (const [path, order] of entries) {
    const direction = numericType(order) === undefined ? 0 : toDouble(order);
    if (direction !== 1 && direction !== -1) return 'The $sort element value must be either 1 or -1';
    if (path === '') return 'The $sort field cannot be empty';
    if (path.split('.').includes('')) return `The $sort field is a dotted field but has an empty part: ${path}`;
  }
  return undefined;
}

/** Refuses a `sortBy` mongod would not parse (2942505–2942507); run while parsing (array-arguments.ts). */
export function checkSortBy(sortBy: unknown): void {
  if (typeAlias(sortBy) === 'object') {
    const problem = sortClauseProblem(sortBy as Document);
    // mongod's message is the Status's text, its code name first.
    if (problem !== undefined) throw new CommandError('Location2942505', `BadValue: ${problem}`);
    return;
  }
  if (numericType(sortBy) !== undefined) {
    const order = toDouble(sortBy);
    if (order !== 1 && order !== -1) {
      throw new CommandError('Location2942506', 'The $sort element value must be either 1 or -1');
    }
    return;
  }
  throw new CommandError(
    'Location2942507',
    'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
  );
}

/**
 * The value at `names` in `element`, as getFieldDotted reads it; null where
 * there is none. An element that is not a document (an array neither) is
 * read as `{"": element}`, where no path of a sound pattern leads.
 */
function keyAt(element: unknown, names: readonly string[]): unknown {
  if (typeAlias(element) !== 'object') return null;
  let current: unknown = element;
  for (const name of names) {
    if (typeAlias(current) === 'object') {
      current = Object.hasOwn(current as Document, name) ? (current as Document)[name] : undefined;
    } else if (Array.isArray(current) && POSITION.test(name)) {
      current = Number(name) < current.length ? current[Number(name)] : undefined;
    } else {
      return null;
    }
  }
  return current === undefined ? null : current;
}

/** The comparison `sortBy` (checked by {@link checkSortBy}) orders elements by. */
function comparator(sortBy: unknown): (a: unknown, b: unknown) => number {
  if (typeAlias(sortBy) !== 'object') {
    const direction = toDouble(sortBy);
    return (a, b) => compareBson(a, b) * direction;
  }
  const fields = Object.entries(sortBy as Document).map(([path, order]): [string[], number] => [
    path.split('.'),
    toDouble(order),
  ]);
  return (a, b) => {
    for (const [names, direction] of fields) {
      const order = compareBson(keyAt(a, names), keyAt(b, names));
      if (order !== 0) return order * direction;
    }
    return 0;
  };
}

/** `$sortArray` of arguments its parse checks passed: null for a null or missing input, 2942504 for a non-array. */
export function sortArray(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const input: unknown = evalExpr(obj, spec.input, options);
  if (isNullish(input)) return null;
  if (!Array.isArray(input)) {
    throw new CommandError(
      'Location2942504',
      `The input argument to $sortArray must be an array, but was of type: ${typeAlias(input)}`,
    );
  }
  if (input.length < 2) return input;
  const compare = comparator(spec.sortBy);
  // Array.prototype.sort is stable. The clock ticks per comparison, so maxTimeMS interrupts a long sort.
  return [...input].sort((a, b) => {
    OperationBudget.tick();
    return compare(a, b);
  });
}
