import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';

/** Names of the variables defined where an expression is. */
export type Scope = ReadonlySet<string>;

/** At a pipeline's or a filter's top: no user variable (a command's `let` is bound before parsing). */
export const NO_VARIABLES: Scope = new Set();

/**
 * A system variable. A name starting with a capital is not checked further:
 * user variables start with a lower-case letter, and a system variable this
 * server does not know must not make a valid pipeline fail.
 */
const SYSTEM_VARIABLE = /^[A-Z]/;

/** A letter, a digit or `_` (the rest of a name), or any non-ASCII character (mongod takes every byte above 0x7f). */
const NAME_REST = /^[A-Za-z0-9_\u{80}-\u{10FFFF}]$/u;

/**
 * Checks a variable's name as mongod's `Variables::validateName` does
 * (FailedToParse): not empty, a first character `first` accepts, then
 * letters, digits, `_` or non-ASCII characters.
 */
function checkName(name: string, first: RegExp): void {
  if (name.length === 0) throw new CommandError('FailedToParse', 'empty variable names are not allowed');
  // By code points: a character beyond the BMP is one, not two surrogates.
  const [head, ...rest] = [...name];
  if (!first.test(head!)) {
    throw new CommandError('FailedToParse', `'${name}' starts with an invalid character for a user variable name`);
  }
  for (const char of rest) {
    if (!NAME_REST.test(char)) {
      throw new CommandError('FailedToParse', `'${name}' contains an invalid character for a variable name: '${char}'`);
    }
  }
}

/** A name read as `$$name`: any letter first (system variables are capitalized). */
const checkReadName = (name: string): void => checkName(name, /^[A-Za-z\u{80}-\u{10FFFF}]$/u);

/** A name a user defines (`$let`, `$map`'s `as`, `$lookup`'s `let`): a lower-case letter first; `CURRENT` may be rebound. */
export function checkDefinedName(name: string): void {
  if (name !== 'CURRENT') checkName(name, /^[a-z\u{80}-\u{10FFFF}]$/u);
}

/** `scope` with `names` added (those that are strings). */
export function withVariables(scope: Scope, ...names: unknown[]): Scope {
  const inner = new Set(scope);
  for (const name of names) if (typeof name === 'string') inner.add(name);
  return inner;
}

/** The `vars` of `$let` or the `let` of `$lookup`, checked where they are; their names. */
export function defineVariables(vars: unknown, scope: Scope): string[] {
  if (typeAlias(vars) !== 'object') return [];
  for (const [name, value] of Object.entries(vars as Document)) {
    checkDefinedName(name);
    checkVariables(value, scope);
  }
  return Object.keys(vars as Document);
}

/**
 * Refuses a `$$name` (or `$$name.path`) in aggregation expression `expr`
 * that nothing in scope defines, as mongod does while parsing (17276), so
 * the error does not wait for a document to evaluate it on. `$let`, `$map`,
 * `$filter` (`as`, by default `this`) and `$reduce` (`value`, `this`) define
 * variables for their inner expressions; `$literal` is not an expression.
 */
export function checkVariables(expr: unknown, scope: Scope): void {
  if (typeof expr === 'string') {
    if (!expr.startsWith('$$')) return;
    const name = expr.slice(2).split('.', 1)[0]!;
    checkReadName(name);
    if (!SYSTEM_VARIABLE.test(name) && !scope.has(name)) {
      throw new CommandError('Location17276', `Use of undefined variable: ${name}`);
    }
    return;
  }
  if (Array.isArray(expr)) {
    for (const item of expr) checkVariables(item, scope);
    return;
  }
  if (typeAlias(expr) !== 'object') return;
  const spec = expr as Document;
  const keys = Object.keys(spec);
  const argument: unknown = spec[keys[0] ?? ''];
  const fields = keys.length === 1 && typeAlias(argument) === 'object' ? (argument as Document) : undefined;
  switch (keys.length === 1 ? keys[0] : undefined) {
    case '$literal':
    case '$const':
      return;
    case '$let':
      if (!fields) break;
      checkVariables(fields.in, withVariables(scope, ...defineVariables(fields.vars, scope)));
      return;
    case '$map':
    case '$filter':
      if (!fields) break;
      if (typeof fields.as === 'string') checkDefinedName(fields.as);
      for (const [key, value] of Object.entries(fields)) {
        checkVariables(value, key === 'in' || key === 'cond' ? withVariables(scope, fields.as ?? 'this') : scope);
      }
      return;
    case '$reduce':
      if (!fields) break;
      for (const [key, value] of Object.entries(fields)) {
        checkVariables(value, key === 'in' ? withVariables(scope, 'value', 'this') : scope);
      }
      return;
  }
  for (const value of Object.values(spec)) checkVariables(value, scope);
}

/** Calls `visit` on each `$expr` of a query filter (also under `$and`, `$or`, `$nor`): the only expressions a filter has. */
export function forEachFilterExpression(filter: unknown, visit: (expr: unknown) => void): void {
  if (Array.isArray(filter)) {
    for (const clause of filter) forEachFilterExpression(clause, visit);
    return;
  }
  if (typeAlias(filter) !== 'object') return;
  // Every filter a command compiles passes here: no entries array for the common one without operators.
  for (const key in filter as Document) {
    if (!Object.hasOwn(filter as Document, key) || key.charCodeAt(0) !== 36 /* $ */) continue;
    const value: unknown = (filter as Document)[key];
    if (key === '$expr') visit(value);
    else if (key === '$and' || key === '$or' || key === '$nor') forEachFilterExpression(value, visit);
  }
}
