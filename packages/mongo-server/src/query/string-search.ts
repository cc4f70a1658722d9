/**
 * mongod's string search expressions (`$indexOfBytes`, `$indexOfCP`,
 * `$split`, `$replaceOne`, `$replaceAll`) as its expression code evaluates
 * them: null handling, argument order of the checks, codes and messages.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { CommandError, type ErrorCodeName } from '../commands/command-error.js';
import { countCodePoints } from './code-points.js';
import { typeAlias } from './element-operators.js';
import { evaluatedOperands, isNullish } from './operand-lists.js';
import { int32Of, MAX_STRING_BYTES, stringTooLong, valueText } from './string-values.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/**
 * mongod's `uassertIfNotIntegralAndNonNegative`: 40096 (its message lacks
 * the space after the operator's name) and 40097.
 */
function nonNegativeIndex(operator: string, value: unknown, which: 'starting' | 'ending'): number {
  const n = int32Of(value);
  if (n === undefined) {
    throw new CommandError(
      'Location40096',
      `${operator}requires an integral ${which} index, found a value of type: ${typeAlias(value)}, with value: ${valueText(value)}`,
    );
  }
  if (n < 0) {
    throw new CommandError(
      'Location40097',
      `${operator} requires a nonnegative ${which} index, found: ${valueText(value)}`,
    );
  }
  return n;
}

/** The string and token of `$indexOfBytes`/`$indexOfCP`, checked in mongod's order; null for a nullish string. */
function searchArguments(
  operator: string,
  args: unknown[],
  codes: [ErrorCodeName, ErrorCodeName],
): [string, string] | null {
  const [text, token] = args;
  if (isNullish(text)) return null;
  if (typeof text !== 'string') {
    throw new CommandError(codes[0], `${operator} requires a string as the first argument, found: ${typeAlias(text)}`);
  }
  if (typeof token !== 'string') {
    throw new CommandError(
      codes[1],
      `${operator} requires a string as the second argument, found: ${typeAlias(token)}`,
    );
  }
  return [text, token];
}

/** `$indexOfBytes`: the UTF-8 byte index of the token within `[start, end)` bytes, -1 if none. */
function indexOfBytes(obj: unknown, expr: unknown, options: Options): number | null {
  const args = evaluatedOperands(obj, expr, options);
  const strings = searchArguments('$indexOfBytes', args, ['Location40091', 'Location40092']);
  if (strings === null) return null;
  const input = Buffer.from(strings[0], 'utf8');
  const token = Buffer.from(strings[1], 'utf8');
  const start = args.length > 2 ? nonNegativeIndex('$indexOfBytes', args[2], 'starting') : 0;
  const end =
    args.length > 3 ? Math.min(input.length, nonNegativeIndex('$indexOfBytes', args[3], 'ending')) : input.length;
  if (start > input.length || end < start) return -1;
  // mongod searches `input.substr(0, end)`: the whole token must end by `end`.
  const found = input.indexOf(token, start);
  return found < 0 || found + token.length > end ? -1 : found;
}

/** The UTF-16 offset of code point `index` of `text`, or undefined when the text has fewer. */
function offsetOfCodePoint(text: string, index: number): number | undefined {
  let offset = 0;
  for (let point = 0; point < index; point++) {
    if (offset >= text.length) return undefined;
    offset += text.codePointAt(offset)! > 0xffff ? 2 : 1;
  }
  return offset;
}

/** Whether UTF-16 offset `at` of `text` is inside a surrogate pair (not a code point's start). */
function insidePair(text: string, at: number): boolean {
  const unit = text.charCodeAt(at);
  const before = text.charCodeAt(at - 1);
  return at > 0 && unit >= 0xdc00 && unit <= 0xdfff && before >= 0xd800 && before <= 0xdbff;
}

/**
 * `$indexOfCP`: the first code point index in `[start, end)` where the token
 * begins (it may run past `end`, as mongod compares from that index on), -1
 * if none. The search is the engine's `indexOf`, so it is linear.
 */
function indexOfCP(obj: unknown, expr: unknown, options: Options): number | null {
  const args = evaluatedOperands(obj, expr, options);
  const strings = searchArguments('$indexOfCP', args, ['Location40093', 'Location40094']);
  if (strings === null) return null;
  const [text, token] = strings;
  const start = args.length > 2 ? nonNegativeIndex('$indexOfCP', args[2], 'starting') : 0;
  const length = countCodePoints(text);
  const end = args.length > 3 ? Math.min(length, nonNegativeIndex('$indexOfCP', args[3], 'ending')) : length;
  if (end < start) return -1;
  if (start === 0 && text === '' && token === '') return 0;
  const from = offsetOfCodePoint(text, start);
  if (from === undefined) return -1;
  // The first match that starts a code point (a token cannot begin inside a surrogate pair).
  let at = text.indexOf(token, from);
  while (at >= 0 && insidePair(text, at)) at = text.indexOf(token, at + 1);
  if (at < 0) return -1;
  const points = start + countCodePoints(text, from, at);
  return points < end ? points : -1;
}

/** `$split`: null for a nullish operand, then 40085, 40086 and 40087 in mongod's order. */
function split(obj: unknown, expr: unknown, options: Options): unknown {
  const [input, separator] = evaluatedOperands(obj, expr, options);
  if (isNullish(input) || isNullish(separator)) return null;
  if (typeof input !== 'string') {
    throw new CommandError(
      'Location40085',
      `$split requires an expression that evaluates to a string as a first argument, found: ${typeAlias(input)}`,
    );
  }
  if (typeof separator !== 'string') {
    throw new CommandError(
      'Location40086',
      `$split requires an expression that evaluates to a string as a second argument, found: ${typeAlias(separator)}`,
    );
  }
  if (separator === '') throw new CommandError('Location40087', '$split requires a non-empty separator');
  return input.split(separator);
}

/** The evaluated `input`, `find` and `replacement` of a replace operator; null when one is nullish. */
function replaceArguments(operator: string, obj: unknown, expr: unknown, options: Options): string[] | null {
  const spec = expr as Record<string, unknown>;
  const values = (['input', 'find', 'replacement'] as const).map((field) => evalExpr(obj, spec[field], options));
  // Every operand's type is checked before any nullish one makes the result null (ExpressionReplaceBase).
  const codes = ['Location51746', 'Location51745', 'Location51744'] as const;
  values.forEach((value, i) => {
    if (typeof value !== 'string' && !isNullish(value)) {
      const field = ['input', 'find', 'replacement'][i]!;
      throw new CommandError(codes[i], `${operator} requires that '${field}' be a string, found: ${valueText(value)}`);
    }
  });
  return values.some(isNullish) ? null : (values as string[]);
}

/** `$replaceOne`: the first occurrence replaced; a result from 16 MiB is refused before it is built. */
function replaceOne(obj: unknown, expr: unknown, options: Options): unknown {
  const args = replaceArguments('$replaceOne', obj, expr, options);
  if (args === null) return null;
  const [input, find, replacement] = args as [string, string, string];
  const at = input.indexOf(find);
  if (at < 0) return input;
  const bytes = Buffer.byteLength(input) + Buffer.byteLength(replacement) - Buffer.byteLength(find);
  if (bytes >= MAX_STRING_BYTES) throw stringTooLong();
  return input.slice(0, at) + replacement + input.slice(at + find.length);
}

/** `$replaceAll`: mongod's checks, then the bounded operator of bounded-expressions.ts on the values. */
function replaceAll(bounded: ExpressionOperator): ExpressionOperator {
  return (obj, expr, options) => {
    const args = replaceArguments('$replaceAll', obj, expr, options);
    if (args === null) return null;
    const [input, find, replacement] = args.map((value) => ({ $literal: value }));
    return bounded(obj, { input, find, replacement }, options);
  };
}

/** The search operators over `operators` (whose `$replaceAll` is the memory-bounded one). */
export function stringSearchOperators(
  operators: Record<string, ExpressionOperator>,
): Record<string, ExpressionOperator> {
  return {
    $indexOfBytes: indexOfBytes,
    $indexOfCP: indexOfCP,
    $split: split,
    $replaceOne: replaceOne,
    $replaceAll: replaceAll(operators.$replaceAll!),
  };
}

/** mongod's parse-time checks of `$replaceOne`/`$replaceAll`'s document: 51750, then 51749, 51748, 51747. */
export function checkReplaceArguments(operator: string): (argument: unknown) => void {
  return (argument) => {
    if (typeAlias(argument) !== 'object') {
      throw new CommandError(
        'Location51751',
        `${operator} requires an object as an argument, found: ${typeAlias(argument)}`,
      );
    }
    const spec = argument as Record<string, unknown>;
    for (const field of Object.keys(spec)) {
      if (field !== 'input' && field !== 'find' && field !== 'replacement') {
        throw new CommandError('Location51750', `${operator} found an unknown argument: ${field}`);
      }
    }
    const codes = { input: 'Location51749', find: 'Location51748', replacement: 'Location51747' } as const;
    for (const field of ['input', 'find', 'replacement'] as const) {
      if (!Object.hasOwn(spec, field)) {
        throw new CommandError(codes[field], `${operator} requires '${field}' to be specified`);
      }
    }
  };
}
