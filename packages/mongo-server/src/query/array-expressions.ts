/**
 * The array and set expressions as mongod evaluates and parses them, over
 * mingo's: mongod's result types, null handling, and its code and message
 * for each wrong argument (where mingo answered BadValue or nothing). Each
 * family is in its own module: positions, counts and bounds
 * (array-positions.ts), operators taking the elements as they are
 * (array-elements.ts), operators running an expression per element
 * (array-iteration.ts), the set operators (array-sets.ts), `$sortArray`
 * (array-sort.ts) and the checks made while parsing (array-arguments.ts).
 */
import type { Options } from 'mingo/types';

import { ARRAY_PARSE_CHECKS } from './array-arguments.js';
import { arrayElementOperators } from './array-elements.js';
import { ITERATION_OPERATORS } from './array-iteration.js';
import { POSITION_OPERATORS } from './array-positions.js';
import { SET_OPERATORS } from './array-sets.js';
import { sortArray } from './array-sort.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/**
 * What mongod checks of these operators' arguments while it parses an
 * expression, before any document is read (run by expression-check.ts).
 */
export const ARRAY_ARGUMENT_CHECKS = new Map<string, (argument: unknown) => void>(ARRAY_PARSE_CHECKS);

/** The array and set expressions as mongod has them, over the rest of `operators`. */
export function arrayExpressionOperators(
  operators: Record<string, ExpressionOperator>,
): Record<string, ExpressionOperator> {
  return {
    ...operators,
    ...POSITION_OPERATORS,
    ...arrayElementOperators(operators),
    ...ITERATION_OPERATORS,
    ...SET_OPERATORS,
    $sortArray: sortArray,
  };
}
