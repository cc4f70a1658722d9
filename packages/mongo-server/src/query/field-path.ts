/**
 * mongod's `FieldPath` checks, made while it parses an expression's `$a.b`
 * or `$$var.b` (`ExpressionFieldPath::parse`). mingo took any string: `$a..b`
 * and `$a.` read nothing, `$a.$b` looked for a field `$b`, and a name holding
 * a NUL byte later broke the reply that carried it.
 */
import { CommandError } from '../commands/command-error.js';

/** Names FieldPath accepts with a leading `$`: a DBRef's fields and the sort key. */
const DOLLAR_NAMES = new Set(['$id', '$ref', '$db', '$sortKey']);

/** The hint mongod adds to the `$` and `.` refusals. */
const DOTS_AND_DOLLARS_HINT = ' Consider using $getField or $setField.';

/** Checks one name of a path (`FieldPath::uassertValidFieldName`): 15998, 16410, 16411. */
export function checkFieldName(name: string): void {
  if (name.length === 0) throw new CommandError('Location15998', 'FieldPath field names may not be empty strings.');
  if (name.startsWith('$') && !DOLLAR_NAMES.has(name)) {
    throw new CommandError('Location16410', `FieldPath field names may not start with '$'.${DOTS_AND_DOLLARS_HINT}`);
  }
  if (name.includes('\0')) throw new CommandError('Location16411', "FieldPath field names may not contain '\0'.");
}

/**
 * Checks a dotted path as `FieldPath`'s constructor does: 40352, 40353,
 * then each name from the `first` (a variable's own name is checked apart).
 */
export function checkFieldPath(path: string, first = 0): void {
  if (path.length === 0) throw new CommandError('Location40352', 'FieldPath cannot be constructed with empty string');
  if (path.endsWith('.')) throw new CommandError('Location40353', "FieldPath must not end with a '.'.");
  const names = path.split('.');
  for (let i = first; i < names.length; i++) checkFieldName(names[i]!);
}

/**
 * Checks an expression string that starts with `$`: `$` alone is 16872; a
 * field path is checked as mongod checks `CURRENT.<path>`, a variable's path
 * past the variable's name (expression-variables.ts checks the name).
 */
export function checkFieldPathExpression(text: string): void {
  if (text.length === 1) throw new CommandError('Location16872', "'$' by itself is not a valid FieldPath");
  if (!text.startsWith('$$')) checkFieldPath(text.slice(1));
  else if (text.length > 2) checkFieldPath(text.slice(2), 1);
}
