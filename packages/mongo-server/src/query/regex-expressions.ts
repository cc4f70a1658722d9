import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import type { RE2JS } from 're2js';

import { approximateSize } from '../bson/approximate-size.js';
import { CommandError } from '../commands/command-error.js';
import { countCodePoints } from './code-points.js';
import { linearRegex, type RegexSpec } from './linear-regex.js';
import { OperationBudget } from './operation-budget.js';

type RegexOperator = '$regexMatch' | '$regexFind' | '$regexFindAll';

/** One match as `$regexFind` reports it. */
export interface RegexMatchResult {
  match: string;
  /** Where the match starts, in code points (as MongoDB counts, not UTF-16 units). */
  idx: number;
  /** Each group's text, null for a group that took no part in the match. */
  captures: (string | null)[];
}

/** mongod's `BufferMaxSize`: `$regexFindAll` refuses to build a bigger result. */
const FIND_ALL_LIMIT = 64 * 1024 * 1024;

/** MongoDB's option letters; `x` is one of them but needs a backtracking engine (refused by {@link linearRegex}). */
const OPTION_LETTERS = 'imsux';

const ARGUMENTS = new Set(['input', 'regex', 'options']);

const isNullish = (value: unknown): boolean => value === null || value === undefined;

/** Checks the `{ input, regex, options }` shape when the expression is parsed, with mongod's messages. */
function checkArguments(op: RegexOperator, expr: unknown): Record<string, unknown> {
  if (expr === null || typeof expr !== 'object' || Array.isArray(expr)) {
    const found = Array.isArray(expr) ? 'array' : expr === null ? 'null' : typeof expr;
    throw new CommandError('Location51103', `${op} expects an object of named arguments but found: ${found}`);
  }
  const args = expr as Record<string, unknown>;
  for (const name of Object.keys(args)) {
    if (!ARGUMENTS.has(name)) throw new CommandError('Location31024', `${op} found an unknown argument: ${name}`);
  }
  if (!('input' in args)) throw new CommandError('Location31022', `${op} requires 'input' parameter`);
  if (!('regex' in args)) throw new CommandError('Location31023', `${op} requires 'regex' parameter`);
  return args;
}

/** The pattern and option letters from `regex` and `options`, validated as mongod does; undefined when nullish. */
function patternOf(op: RegexOperator, regex: unknown, options: unknown): RegexSpec | undefined {
  if (!isNullish(regex) && typeof regex !== 'string' && !(regex instanceof RegExp)) {
    throw new CommandError('Location51105', `${op} needs 'regex' to be of type string or regex`);
  }
  if (!isNullish(options) && typeof options !== 'string') {
    throw new CommandError('Location51106', `${op} needs 'options' to be of type string`);
  }
  let flags = typeof options === 'string' ? options : '';
  if (regex instanceof RegExp && regex.flags !== '') {
    if (!isNullish(options)) {
      throw new CommandError(
        'Location51107',
        `${op}: found regex option(s) specified in both 'regex' and 'option' fields`,
      );
    }
    flags = regex.flags;
  }
  const source = regex instanceof RegExp ? regex.source : (regex as string | null | undefined);
  if (source?.includes('\0')) {
    throw new CommandError('Location51109', `${op}: regular expression cannot contain an embedded null byte`);
  }
  if (flags.includes('\0')) {
    throw new CommandError('Location51110', `${op}: regular expression options cannot contain an embedded null byte`);
  }
  // A RegExp's own flags come from the BSON regex the driver sent, already MongoDB's.
  if (!(regex instanceof RegExp)) {
    for (const flag of flags) {
      if (!OPTION_LETTERS.includes(flag)) {
        throw new CommandError('Location51108', `${op} invalid flag in regex options: ${flag}`);
      }
    }
  }
  return isNullish(source) ? undefined : { source: source!, flags };
}

/** The compiled pattern and the input text, or undefined when either is nullish (the operator's "no match"). */
function evaluate(
  op: RegexOperator,
  obj: unknown,
  expr: unknown,
  options: Options,
): { regex: RE2JS; input: string } | undefined {
  const args = checkArguments(op, expr);
  const regex: unknown = evalExpr(obj, args.regex, options);
  const flags: unknown = evalExpr(obj, args.options, options);
  const input: unknown = evalExpr(obj, args.input, options);
  const pattern = patternOf(op, regex, flags);
  if (!isNullish(input) && typeof input !== 'string') {
    throw new CommandError('Location51104', `${op} needs 'input' to be of type string`);
  }
  if (pattern === undefined || isNullish(input)) return undefined;
  return { regex: linearRegex(pattern), input: input as string };
}

/** Matches of `regex` in `input`, as MongoDB's `$regexFindAll` walks them (or only the first). */
function findMatches(regex: RE2JS, input: string, all: boolean): RegexMatchResult[] {
  const matcher = regex.matcher(input);
  const groups = matcher.groupCount();
  const results: RegexMatchResult[] = [];
  let position = 0;
  let codePoint = 0;
  let bytes = 0;
  do {
    OperationBudget.tick();
    // The search starts mid-text but sees it whole, so `^` and `\b` still judge by the real neighbours.
    if (!matcher.find(position)) break;
    const start = matcher.start();
    const end = matcher.end();
    codePoint += countCodePoints(input, position, start);
    const captures: (string | null)[] = [];
    for (let group = 1; group <= groups; group++) captures.push(matcher.group(group));
    const result = { match: input.slice(start, end), idx: codePoint, captures };
    results.push(result);
    if (!all) break;
    const size = approximateSize(result);
    bytes += size;
    OperationBudget.allocate(size, '$regexFindAll');
    if (bytes > FIND_ALL_LIMIT) {
      throw new CommandError(
        'Location51151',
        '$regexFindAll: the size of buffer to store output exceeded the 64MB limit',
      );
    }
    if (start === end) {
      // An empty match: the next search starts one code point further, as mongod's does.
      if (start >= input.length) break;
      position = start + (input.codePointAt(start)! > 0xffff ? 2 : 1);
      codePoint++;
    } else {
      codePoint += countCodePoints(input, start, end);
      position = end;
    }
  } while (position < input.length);
  return results;
}

/**
 * `$regexMatch`, `$regexFind` and `$regexFindAll` on RE2's linear-time
 * engine (mingo's run JavaScript's backtracking RegExp, where `(a+)+$`
 * against 34 characters holds the event loop for seconds). Same results as
 * MongoDB: `idx` in code points, null for a group that did not take part,
 * MongoDB's argument errors; lookaround and backreferences are refused with
 * BadValue (see {@link linearRegex}).
 */
export const REGEX_EXPRESSION_OPERATORS = {
  $regexMatch: (obj: unknown, expr: unknown, options: Options): boolean => {
    const target = evaluate('$regexMatch', obj, expr, options);
    return target !== undefined && target.regex.matcher(target.input).find();
  },
  $regexFind: (obj: unknown, expr: unknown, options: Options): RegexMatchResult | null => {
    const target = evaluate('$regexFind', obj, expr, options);
    return target === undefined ? null : (findMatches(target.regex, target.input, false)[0] ?? null);
  },
  $regexFindAll: (obj: unknown, expr: unknown, options: Options): RegexMatchResult[] => {
    const target = evaluate('$regexFindAll', obj, expr, options);
    return target === undefined ? [] : findMatches(target.regex, target.input, true);
  },
};
