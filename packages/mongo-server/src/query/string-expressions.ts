/**
 * The string expressions as mongod parses and evaluates them (expression.cpp),
 * over mingo's: its string coercion (`$toUpper`, `$strcasecmp`, `$substr`
 * read numbers and dates as text, null as ""), ASCII-only case mapping,
 * byte and code point offsets, null handling, codes and messages.
 */
import type { Options } from 'mingo/types';

import { CommandError } from '../commands/command-error.js';
import { countCodePoints } from './code-points.js';
import { typeAlias } from './element-operators.js';
import { evaluatedOperands, isNullish } from './operand-lists.js';
import { checkReplaceArguments, stringSearchOperators } from './string-search.js';
import { coerceToString, int32Of, isNumeric, truncatedNumber, valueText } from './string-values.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/** The one operand of a one-argument operator, given alone or as a list of one (the arity is checked while parsing). */
function single(obj: unknown, expr: unknown, options: Options): unknown {
  return evaluatedOperands(obj, expr, options)[0];
}

/** boost's `to_upper`/`to_lower` in the C locale: ASCII letters only (mongod leaves `ó` as it is). */
function asciiCase(text: string, upper: boolean): string {
  return upper ? text.replace(/[a-z]+/g, (s) => s.toUpperCase()) : text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

function toUpper(obj: unknown, expr: unknown, options: Options): string {
  return asciiCase(coerceToString(single(obj, expr, options)), true);
}

function toLower(obj: unknown, expr: unknown, options: Options): string {
  return asciiCase(coerceToString(single(obj, expr, options)), false);
}

/** `$strcasecmp`: both coerced and upper-cased (ASCII), compared byte by byte in UTF-8: -1, 0 or 1 (int). */
function strcasecmp(obj: unknown, expr: unknown, options: Options): number {
  const [a, b] = evaluatedOperands(obj, expr, options).map((value) =>
    Buffer.from(asciiCase(coerceToString(value), true)),
  );
  return Math.sign(Buffer.compare(a!, b!));
}

/** `$strLenBytes`: an int; 34473 for a non-string, null and missing included. */
function strLenBytes(obj: unknown, expr: unknown, options: Options): number {
  const value = single(obj, expr, options);
  if (typeof value !== 'string') {
    throw new CommandError('Location34473', `$strLenBytes requires a string argument, found: ${typeAlias(value)}`);
  }
  return Buffer.byteLength(value, 'utf8');
}

/** `$strLenCP`: an int; 34471 for a non-string, null and missing included. */
function strLenCP(obj: unknown, expr: unknown, options: Options): number {
  const value = single(obj, expr, options);
  if (typeof value !== 'string') {
    throw new CommandError('Location34471', `$strLenCP requires a string argument, found: ${typeAlias(value)}`);
  }
  return countCodePoints(value);
}

/** Whether byte `at` of `bytes` continues a UTF-8 sequence. */
const continuation = (bytes: Buffer, at: number) => at < bytes.length && (bytes[at]! & 0xc0) === 0x80;

/**
 * `$substrBytes` (and `$substr`, which mongod parses as it and names so):
 * the string coerced, offsets in UTF-8 bytes, a negative length meaning the
 * rest; 16034/16035 for non-numbers, 50752 for a negative start, 28656/28657
 * for a range that cuts a character.
 */
function substrBytes(obj: unknown, expr: unknown, options: Options): string {
  const [input, lower, length] = evaluatedOperands(obj, expr, options);
  const bytes = Buffer.from(coerceToString(input), 'utf8');
  const name = '$substrBytes';
  if (!isNumeric(lower)) {
    throw new CommandError(
      'Location16034',
      `${name}:  starting index must be a numeric type (is BSON type ${typeAlias(lower)})`,
    );
  }
  if (!isNumeric(length)) {
    throw new CommandError(
      'Location16035',
      `${name}:  length must be a numeric type (is BSON type ${typeAlias(length)})`,
    );
  }
  const start = truncatedNumber(lower);
  if (start < 0) {
    throw new CommandError('Location50752', `${name}:  starting index must be non-negative (got: ${start})`);
  }
  const signedLength = truncatedNumber(length);
  const count = signedLength < 0 ? bytes.length : signedLength;
  if (continuation(bytes, start)) {
    throw new CommandError('Location28656', `${name}:  Invalid range, starting index is a UTF-8 continuation byte.`);
  }
  if (start + count < bytes.length && continuation(bytes, start + count)) {
    throw new CommandError(
      'Location28657',
      `${name}:  Invalid range, ending index is in the middle of a UTF-8 character.`,
    );
  }
  if (start >= bytes.length) return '';
  return bytes.subarray(start, Math.min(bytes.length, start + count)).toString('utf8');
}

/** The UTF-16 offset after `count` code points of `text` from `offset` (its length when it has fewer). */
function advance(text: string, offset: number, count: number): number {
  let at = offset;
  for (let point = 0; point < count && at < text.length; point++) at += text.codePointAt(at)! > 0xffff ? 2 : 1;
  return at;
}

/**
 * `$substrCP`: offsets in code points, which must be int32 values (34450 to
 * 34453), the length then the start non-negative (34454, 34455).
 */
function substrCP(obj: unknown, expr: unknown, options: Options): string {
  const [input, lower, length] = evaluatedOperands(obj, expr, options);
  const text = coerceToString(input);
  const name = '$substrCP';
  if (!isNumeric(lower)) {
    throw new CommandError(
      'Location34450',
      `${name}: starting index must be a numeric type (is BSON type ${typeAlias(lower)})`,
    );
  }
  const start = int32Of(lower);
  if (start === undefined) {
    throw new CommandError(
      'Location34451',
      `${name}: starting index cannot be represented as a 32-bit integral value: ${valueText(lower)}`,
    );
  }
  if (!isNumeric(length)) {
    throw new CommandError(
      'Location34452',
      `${name}: length must be a numeric type (is BSON type ${typeAlias(length)})`,
    );
  }
  const count = int32Of(length);
  if (count === undefined) {
    throw new CommandError(
      'Location34453',
      `${name}: length cannot be represented as a 32-bit integral value: ${valueText(length)}`,
    );
  }
  if (count < 0) throw new CommandError('Location34454', `${name}: length must be a nonnegative integer.`);
  if (start < 0) throw new CommandError('Location34455', `${name}: the starting index must be nonnegative integer.`);
  const from = advance(text, 0, start);
  return text.slice(from, advance(text, from, count));
}

/** mongod's default characters of the trim operators (expression.cpp's kDefaultTrimWhitespaceChars). */
const WHITESPACE = new Set([0x0, 0x20, 0x9, 0xa, 0xb, 0xc, 0xd, 0xa0, 0x1680, ...range(0x2000, 0x200a)]);

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The code points of `chars`. */
function codePointSet(chars: string): Set<number> {
  const set = new Set<number>();
  for (const char of chars) set.add(char.codePointAt(0)!);
  return set;
}

/** `text` without the code points of `trimmed` at the start and/or end; linear in its length. */
function trimText(text: string, trimmed: Set<number>, left: boolean, right: boolean): string {
  let from = 0;
  let to = text.length;
  if (left) {
    while (from < to && trimmed.has(text.codePointAt(from)!)) from += text.codePointAt(from)! > 0xffff ? 2 : 1;
  }
  if (right) {
    while (to > from) {
      const low = text.charCodeAt(to - 1);
      const pair = to - 2 >= from && low >= 0xdc00 && low <= 0xdfff && /[\ud800-\udbff]/.test(text[to - 2]!);
      const width = pair ? 2 : 1;
      if (!trimmed.has(text.codePointAt(to - width)!)) break;
      to -= width;
    }
  }
  return text.slice(from, to);
}

/** `$trim`/`$ltrim`/`$rtrim`: null for a nullish input or chars, 50699/50700 for non-strings. */
function trim(name: '$trim' | '$ltrim' | '$rtrim'): ExpressionOperator {
  const left = name !== '$rtrim';
  const right = name !== '$ltrim';
  return (obj, expr, options) => {
    const spec = expr as Record<string, unknown>;
    const input = evaluatedOperands(obj, spec.input, options)[0];
    if (isNullish(input)) return null;
    if (typeof input !== 'string') {
      throw new CommandError(
        'Location50699',
        `${name} requires its input to be a string, got ${valueText(input)} (of type ${typeAlias(input)}) instead.`,
      );
    }
    if (!Object.hasOwn(spec, 'chars')) return trimText(input, WHITESPACE, left, right);
    const chars = evaluatedOperands(obj, spec.chars, options)[0];
    if (isNullish(chars)) return null;
    if (typeof chars !== 'string') {
      throw new CommandError(
        'Location50700',
        `${name} requires 'chars' to be a string, got ${valueText(chars)} (of type ${typeAlias(chars)}) instead.`,
      );
    }
    return trimText(input, codePointSet(chars), left, right);
  };
}

/** mongod's parse-time checks of a trim operator's document: 50696, 50694, 50695. */
function checkTrimArguments(name: string): (argument: unknown) => void {
  return (argument) => {
    if (typeAlias(argument) !== 'object') {
      throw new CommandError(
        'Location50696',
        `${name} only supports an object as an argument, found ${typeAlias(argument)}`,
      );
    }
    for (const field of Object.keys(argument as object)) {
      if (field !== 'input' && field !== 'chars') {
        throw new CommandError('Location50694', `${name} found an unknown argument: ${field}`);
      }
    }
    if (!Object.hasOwn(argument as object, 'input')) {
      throw new CommandError('Location50695', `${name} requires an 'input' field`);
    }
  };
}

/**
 * What mongod checks of the string operators' arguments while it parses an
 * expression, before any document is read (run by expression-check.ts).
 */
export const STRING_ARGUMENT_CHECKS = new Map<string, (argument: unknown) => void>([
  ...(['$trim', '$ltrim', '$rtrim'] as const).map((name): [string, (argument: unknown) => void] => [
    name,
    checkTrimArguments(name),
  ]),
  ['$replaceOne', checkReplaceArguments('$replaceOne')],
  ['$replaceAll', checkReplaceArguments('$replaceAll')],
]);

/** The string operators, mongod's, over `operators` (which hold the bounded ones of bounded-expressions.ts). */
export function stringExpressionOperators(
  operators: Record<string, ExpressionOperator>,
): Record<string, ExpressionOperator> {
  return {
    ...operators,
    ...stringSearchOperators(operators),
    $toUpper: toUpper,
    $toLower: toLower,
    $strcasecmp: strcasecmp,
    $strLenBytes: strLenBytes,
    $strLenCP: strLenCP,
    $substr: substrBytes,
    $substrBytes: substrBytes,
    $substrCP: substrCP,
    $trim: trim('$trim'),
    $ltrim: trim('$ltrim'),
    $rtrim: trim('$rtrim'),
  };
}
