/**
 * What mongod's parsers of the array expressions check of their arguments
 * (expression.cpp's `parse` functions), before any document is read:
 * `$filter`, `$map`, `$reduce`, `$zip` and `$sortArray` take a document of
 * known fields with the required ones present (each wrong one by its own
 * code), `as` names a variable a user may define, `$zip`'s `inputs` and
 * `defaults` are arrays and `useLongestLength` a bool, and `$setEquals`
 * takes at least two operands. The operators then rely on these checks.
 */
import type { Document } from 'bson';

import { CommandError, type ErrorCodeName } from '../commands/command-error.js';
import { checkSortBy } from './array-sort.js';
import { typeAlias } from './element-operators.js';
import { checkDefinedName } from './expression-variables.js';

/** The argument as a document, or mongod's `code` with `message` followed by its type when it is not one. */
function documentArgument(argument: unknown, code: ErrorCodeName, message: string): Document {
  if (typeAlias(argument) !== 'object') throw new CommandError(code, message.replace('%type', typeAlias(argument)));
  return argument as Document;
}

/** Refuses a field of `spec` not in `known` with mongod's `code`, the field's name after `prefix`. */
function checkFields(spec: Document, known: readonly string[], code: ErrorCodeName, prefix: string): void {
  for (const field of Object.keys(spec)) {
    if (!known.includes(field)) throw new CommandError(code, `${prefix}${field}`);
  }
}

/** Refuses a missing `field` with mongod's `code` and `message`. */
function required(spec: Document, field: string, code: ErrorCodeName, message: string): void {
  if (!Object.hasOwn(spec, field)) throw new CommandError(code, message);
}

/**
 * `as`, when given: a name a user may define. mongod reads one that is not a
 * string as the empty name (BSONElement::str()), which it refuses.
 */
function checkAs(spec: Document): void {
  if (!Object.hasOwn(spec, 'as')) return;
  if (typeof spec.as !== 'string') throw new CommandError('FailedToParse', 'empty variable names are not allowed');
  checkDefinedName(spec.as);
}

function checkFilter(argument: unknown): void {
  const spec = documentArgument(argument, 'Location28646', '$filter only supports an object as its argument');
  checkFields(spec, ['input', 'as', 'cond', 'limit'], 'Location28647', 'Unrecognized parameter to $filter: ');
  required(spec, 'input', 'Location28648', "Missing 'input' parameter to $filter");
  required(spec, 'cond', 'Location28650', "Missing 'cond' parameter to $filter");
  checkAs(spec);
}

function checkMap(argument: unknown): void {
  const spec = documentArgument(argument, 'Location16878', '$map only supports an object as its argument');
  checkFields(spec, ['input', 'as', 'in'], 'Location16879', 'Unrecognized parameter to $map: ');
  required(spec, 'input', 'Location16880', "Missing 'input' parameter to $map");
  required(spec, 'in', 'Location16882', "Missing 'in' parameter to $map");
  checkAs(spec);
}

function checkReduce(argument: unknown): void {
  const spec = documentArgument(argument, 'Location40075', '$reduce requires an object as an argument, found: %type');
  checkFields(spec, ['input', 'initialValue', 'in'], 'Location40076', '$reduce found an unknown argument: ');
  required(spec, 'input', 'Location40077', "$reduce requires 'input' to be specified");
  required(spec, 'initialValue', 'Location40078', "$reduce requires 'initialValue' to be specified");
  required(spec, 'in', 'Location40079', "$reduce requires 'in' to be specified");
}

/** `$zip`'s fields checked in their order, as mongod's parser meets them, then how they fit together. */
function checkZip(argument: unknown): void {
  const spec = documentArgument(argument, 'Location34460', '$zip only supports an object as an argument, found %type');
  for (const [field, value] of Object.entries(spec)) {
    if (field === 'inputs' || field === 'defaults') {
      if (!Array.isArray(value)) {
        throw new CommandError(
          field === 'inputs' ? 'Location34461' : 'Location34462',
          `${field} must be an array of expressions, found ${typeAlias(value)}`,
        );
      }
    } else if (field === 'useLongestLength') {
      // mongod's message names the type of the whole argument, not the field's.
      if (typeof value !== 'boolean')
        throw new CommandError('Location34463', 'useLongestLength must be a bool, found object');
    } else {
      throw new CommandError('Location34464', `$zip found an unknown argument: ${field}`);
    }
  }
  const inputs = (spec.inputs as unknown[] | undefined) ?? [];
  const defaults = (spec.defaults as unknown[] | undefined) ?? [];
  if (inputs.length === 0) throw new CommandError('Location34465', '$zip requires at least one input array');
  if (defaults.length > 0 && spec.useLongestLength !== true) {
    throw new CommandError('Location34466', 'cannot specify defaults unless useLongestLength is true');
  }
  if (defaults.length > 0 && defaults.length !== inputs.length) {
    throw new CommandError('Location34467', 'defaults and inputs must have the same length');
  }
}

function checkSortArray(argument: unknown): void {
  const spec = documentArgument(
    argument,
    'Location2942500',
    '$sortArray requires an object as an argument, found: %type',
  );
  for (const [field, value] of Object.entries(spec)) {
    if (field === 'sortBy') checkSortBy(value);
    else if (field !== 'input')
      throw new CommandError('Location2942501', `$sortArray found an unknown argument: ${field}`);
  }
  required(spec, 'input', 'Location2942502', "$sortArray requires 'input' to be specified");
  required(spec, 'sortBy', 'Location2942503', "$sortArray requires 'sortBy' to be specified");
}

/** `$setEquals` compares two sets at least (its validateArguments). */
function checkSetEquals(argument: unknown): void {
  const count = Array.isArray(argument) ? argument.length : 1;
  if (count < 2) {
    throw new CommandError('Location17045', `$setEquals needs at least two arguments had: ${count}`);
  }
}

/** The parse-time checks of the array expressions, by operator name. */
export const ARRAY_PARSE_CHECKS: ReadonlyMap<string, (argument: unknown) => void> = new Map([
  ['$filter', checkFilter],
  ['$map', checkMap],
  ['$reduce', checkReduce],
  ['$zip', checkZip],
  ['$sortArray', checkSortArray],
  ['$setEquals', checkSetEquals],
]);
