/**
 * `$arrayToObject`, `$mergeObjects` and `$setField` as mongod 7 evaluates
 * them. mingo's built their results by assignment, so a key `__proto__` set
 * the result's prototype and vanished; `$arrayToObject` flattened each pair
 * (`['a', [1, 2]]` gave `{ a: 1 }`) and took any key; `$mergeObjects` merged
 * the elements of an array or the characters of a string where mongod fails
 * with 40400, and refused a single operand (`{ $mergeObjects: '$doc' }`).
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import { $push } from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';

import { isSubDocument } from '../bson/bson-compare.js';
import { formatValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { write } from './update-paths.js';

function keyWithoutNull(key: string, code: 'Location4940400' | 'Location4940401'): string {
  if (key.includes('\0')) throw new CommandError(code, 'Key field cannot contain an embedded null byte');
  return key;
}

/** One `[key, value]` pair of the array form: 40396, 40397, 40395 and 4940400 as mongod checks them. */
function pairEntry(element: unknown): [string, unknown] {
  if (!Array.isArray(element)) {
    throw new CommandError(
      'Location40396',
      '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. ' +
        `Array was detected, now found: ${typeAlias(element)}`,
    );
  }
  if (element.length !== 2) {
    throw new CommandError(
      'Location40397',
      `$arrayToObject requires an array of size 2 arrays,found array of size: ${element.length}`,
    );
  }
  const [key, value] = element as [unknown, unknown];
  if (typeof key !== 'string') {
    throw new CommandError(
      'Location40395',
      `$arrayToObject requires an array of key-value pairs, where the key must be of type string. Found key type: ${typeAlias(key)}`,
    );
  }
  return [keyWithoutNull(key, 'Location4940400'), value];
}

/** One `{ k, v }` document of the object form: 40391, 40392, 40393, 40394 and 4940401 as mongod checks them. */
function kvEntry(element: unknown): [string, unknown] {
  if (!isSubDocument(element)) {
    throw new CommandError(
      'Location40391',
      '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. ' +
        `Object was detected, now found: ${typeAlias(element)}`,
    );
  }
  const size = Object.keys(element).length;
  if (size !== 2) {
    throw new CommandError(
      'Location40392',
      `$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of keys:${size}`,
    );
  }
  if (!Object.hasOwn(element, 'k') || !Object.hasOwn(element, 'v')) {
    throw new CommandError(
      'Location40393',
      `$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both keys from: ${formatValue(element)}`,
    );
  }
  const key: unknown = element.k;
  if (typeof key !== 'string') {
    throw new CommandError(
      'Location40394',
      `$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' must be of type string. Found type: ${typeAlias(key)}`,
    );
  }
  return [keyWithoutNull(key, 'Location4940401'), element.v];
}

/**
 * `$arrayToObject`: `[[k, v], …]` or `[{ k, v }, …]` (the first element
 * decides which) to a document; a repeated key keeps its first place and
 * takes its last value. Null for null or missing.
 */
export function arrayToObject(obj: unknown, expr: unknown, options: Options): Document | null {
  // One operand, alone or in a one-element list (the arity is checked while parsing).
  const input: unknown = evalExpr(obj, Array.isArray(expr) ? expr[0] : expr, options);
  if (input === null || input === undefined) return null;
  if (!Array.isArray(input)) {
    throw new CommandError('Location40386', `$arrayToObject requires an array input, found: ${typeAlias(input)}`);
  }
  const output: Document = {};
  if (input.length === 0) return output;
  const entry = Array.isArray(input[0]) ? pairEntry : isSubDocument(input[0]) ? kvEntry : undefined;
  if (!entry) {
    throw new CommandError(
      'Location40398',
      `Unrecognised input type format for $arrayToObject: ${typeAlias(input[0])}`,
    );
  }
  for (const element of input) {
    const [key, value] = entry(element);
    // Written as update-paths writes: a key `__proto__` stays a field.
    write(output, key, value);
  }
  return output;
}

/** Merges `values` in order: null and missing are skipped, anything else but a document is mongod's 40400. */
function merge(values: readonly unknown[]): Document {
  const output: Document = {};
  for (const value of values) {
    if (value === null || value === undefined) continue;
    if (!isSubDocument(value)) {
      throw new CommandError(
        'Location40400',
        `$mergeObjects requires object inputs, but input ${formatValue(value)} is of type ${typeAlias(value)}`,
      );
    }
    for (const key of Object.keys(value)) {
      // Fields holding undefined are missing; null and BSON undefined read as null are kept.
      if (value[key] !== undefined) write(output, key, value[key]);
    }
  }
  return output;
}

/**
 * `$mergeObjects`, both forms: in `$group` (and `$bucket`), where mingo hands
 * the group's documents, the accumulator over each document's value of the
 * expression; elsewhere the expression over its operands (one, or a list).
 */
export function mergeObjects(obj: unknown, expr: unknown, options: Options): Document {
  if (Array.isArray(obj))
    return merge(($push as (c: unknown[], e: unknown, o: Options) => unknown[])(obj, expr, options));
  const operands: unknown[] = Array.isArray(expr) ? expr : [expr];
  return merge(operands.map((operand) => evalExpr(obj, operand, options)));
}

/**
 * `$setField`: `input` with `field` set to `value`, or removed when `value`
 * is missing (`$$REMOVE`, a path to nothing); null for a null or missing
 * input. mingo assigned the field (a `__proto__` one vanished) and wrote a
 * missing value as null.
 */
export function setField(obj: unknown, expr: unknown, options: Options): Document | null {
  // A document with `field`, `input` and `value`: checked while parsing (expression-check.ts).
  const spec = expr as Document;
  const field: unknown = evalExpr(obj, spec.field, options);
  if (typeof field !== 'string') {
    throw new CommandError(
      'Location4161107',
      `$setField requires 'field' to evaluate to type String, but got ${typeAlias(field)}`,
    );
  }
  const input: unknown = evalExpr(obj, spec.input, options);
  if (input === null || input === undefined) return null;
  if (!isSubDocument(input)) {
    throw new CommandError('Location4161105', "$setField requires 'input' to evaluate to type Object");
  }
  const value: unknown = evalExpr(obj, spec.value, options);
  const output: Document = {};
  for (const key of Object.keys(input)) if (key !== field || value !== undefined) write(output, key, input[key]);
  if (value !== undefined) write(output, field, value);
  return output;
}

/** The arguments `$setField` and `$unsetField` take. */
const SET_FIELD_ARGUMENTS: Record<string, readonly string[]> = {
  $setField: ['field', 'input', 'value'],
  $unsetField: ['field', 'input'],
};

/**
 * `$setField`'s and `$unsetField`'s arguments, checked as mongod parses
 * them: known names only, `field`, `value` and `input` present, `field` a
 * constant string (a string, or `$literal`/`$const` of one). mingo read a
 * missing `field` as the field "undefined" and a `$`-path as a path.
 */
export function checkSetFieldArguments(operator: '$setField' | '$unsetField', spec: Document): void {
  const known = SET_FIELD_ARGUMENTS[operator]!;
  for (const name of Object.keys(spec)) {
    // The message is mongod's; the code is inferred from the numbering of the checks around it.
    if (!known.includes(name)) {
      throw new CommandError('Location4161101', `${operator} found an unknown argument: ${name}`);
    }
  }
  if (!Object.hasOwn(spec, 'field'))
    throw new CommandError('Location4161102', `${operator} requires 'field' to be specified`);
  if (operator === '$setField' && !Object.hasOwn(spec, 'value')) {
    throw new CommandError('Location4161103', "$setField requires 'value' to be specified");
  }
  if (!Object.hasOwn(spec, 'input'))
    throw new CommandError('Location4161109', `${operator} requires 'input' to be specified`);
  let field: unknown = spec.field;
  if (isSubDocument(field)) {
    const [name] = Object.keys(field);
    if (name !== '$literal' && name !== '$const') {
      throw new CommandError(
        'Location4161106',
        `${operator} requires 'field' to evaluate to a constant, but got a non-constant argument`,
      );
    }
    field = field[name];
  } else if (Array.isArray(field)) {
    throw new CommandError(
      'Location4161106',
      `${operator} requires 'field' to evaluate to a constant, but got a non-constant argument`,
    );
  } else if (typeof field === 'string' && field.startsWith('$')) {
    const path = field.startsWith('$$') ? field : `$CURRENT.${field.slice(1)}`;
    throw new CommandError(
      'Location4161108',
      `'${path}' is a field path reference which is not allowed in this context. Did you mean {$literal: '${path}'}?`,
    );
  }
  if (typeof field !== 'string') {
    throw new CommandError(
      'Location4161107',
      `${operator} requires 'field' to evaluate to type String, but got ${typeAlias(field)}`,
    );
  }
}

/**
 * `$unsetField`: `$setField` without a `value` (parsing refuses one), which
 * evaluates missing and so removes the field; its errors are named after
 * `$setField`, as mongod names them.
 */
export function unsetField(obj: unknown, expr: unknown, options: Options): Document | null {
  return setField(obj, expr, options);
}
