import type { Document } from 'bson';

import { typeAlias } from '../query/element-operators.js';
import { CommandError } from './command-error.js';

/**
 * mongod's IDL answer for a field of another type: TypeMismatch naming the
 * field's whole path, the value's type and `expected` as mongod words it
 * (`type 'string'`, `types '[long, int, decimal, double]'`).
 */
export function wrongFieldType(label: string, value: unknown, expected: string): CommandError {
  return new CommandError(
    'TypeMismatch',
    `BSON field '${label}' is the wrong type '${typeAlias(value)}', expected ${expected}`,
  );
}

/** mongod's IDL answer for a field its struct does not have: 40415, naming the field's whole path. */
export function unknownField(label: string): CommandError {
  return new CommandError('Location40415', `BSON field '${label}' is an unknown field.`);
}

/** mongod's IDL answer for a required field that is absent: 40414, naming the field's whole path. */
export function missingField(label: string): CommandError {
  return new CommandError('Location40414', `BSON field '${label}' is missing but a required field`);
}

/**
 * Checks `spec` as mongod's IDL parser checks a strict struct named `label`:
 * each field in the spec's order (40415 for one `fields` lacks, else
 * `check`, which throws what that field's type or value calls for), then
 * the required fields (`true` in `fields`) that are absent (40414).
 */
export function checkStructFields(
  label: string,
  spec: Document,
  fields: Readonly<Record<string, boolean>>,
  check: (field: string, value: unknown) => void = () => undefined,
): void {
  for (const key of Object.keys(spec)) {
    if (!Object.hasOwn(fields, key)) throw unknownField(`${label}.${key}`);
    check(key, spec[key]);
  }
  for (const [field, required] of Object.entries(fields)) {
    if (required && !Object.hasOwn(spec, field)) throw missingField(`${label}.${field}`);
  }
}
