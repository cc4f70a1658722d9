import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { compileSchema } from './json-schema.js';
import { compileFilter } from './query-context.js';

type Matcher = (doc: Document) => boolean;

const LEVELS = ['off', 'strict', 'moderate'];
const ACTIONS = ['error', 'warn'];
/** Query operators a validator may not use, as in mongod. */
const REFUSED_IN_VALIDATOR = ['$near', '$nearSphere', '$text', '$where', '$expr.$function'];

// Compiled validators, by the options object that holds them (collMod replaces the fields, so the key is the text too).
const compiled = new WeakMap<Document, { source: unknown; matches: Matcher }>();

function refuseOperators(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) refuseOperators(item);
    return;
  }
  if (typeAlias(value) !== 'object') return;
  for (const [key, child] of Object.entries(value as Document)) {
    if (REFUSED_IN_VALIDATOR.includes(key)) {
      throw new CommandError('InvalidOptions', `${key} is not allowed in collection validators`);
    }
    if (key !== '$jsonSchema') refuseOperators(child);
  }
}

/** The validator as one predicate: its `$jsonSchema` (if any) and the rest as a query filter. */
function compileValidator(validator: Document): Matcher {
  refuseOperators(validator);
  const { $jsonSchema: schema, ...filter } = validator;
  if (schema !== undefined && typeAlias(schema) !== 'object') {
    throw new CommandError('TypeMismatch', '$jsonSchema must be an object');
  }
  const schemaCheck = schema === undefined ? () => true : compileSchema(schema as Document);
  const filterCheck = compileFilter(filter);
  return (doc) => schemaCheck(doc) && filterCheck(doc);
}

/**
 * Checks a collection's validation options (`create` and `collMod`): a
 * validator that parses, and known `validationLevel`/`validationAction`.
 */
export function checkValidatorOptions(options: Document): void {
  const { validator, validationLevel, validationAction } = options;
  if (validator !== undefined) {
    if (typeAlias(validator) !== 'object') {
      throw new CommandError('TypeMismatch', "BSON field 'validator' is the wrong type, expected type 'object'");
    }
    compileValidator(validator as Document);
  }
  if (validationLevel !== undefined && !LEVELS.includes(validationLevel as string)) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${String(validationLevel)}' for field 'validationLevel' is not a valid value.`,
    );
  }
  if (validationAction !== undefined && !ACTIONS.includes(validationAction as string)) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${String(validationAction)}' for field 'validationAction' is not a valid value.`,
    );
  }
}

function matcherFor(options: Document): Matcher | undefined {
  const validator = options.validator as Document | undefined;
  if (validator === undefined || Object.keys(validator).length === 0) return undefined;
  const cached = compiled.get(options);
  if (cached?.source === validator) return cached.matches;
  const matches = compileValidator(validator);
  compiled.set(options, { source: validator, matches });
  return matches;
}

/**
 * Enforces a collection's validator on a document about to be stored, as
 * mongod does: DocumentValidationFailure (121) unless the action is `warn`,
 * the level `off`, the write bypasses validation, or (level `moderate`) the
 * document being updated did not pass before either.
 */
export function validateDocument(
  options: Document,
  doc: Document,
  previous: Document | undefined,
  bypass: boolean,
): void {
  if (bypass) return;
  const level = (options.validationLevel as string | undefined) ?? 'strict';
  if (level === 'off' || options.validationAction === 'warn') return;
  const matches = matcherFor(options);
  if (!matches || matches(doc)) return;
  if (level === 'moderate' && previous !== undefined && !matches(previous)) return;
  throw new CommandError('DocumentValidationFailure', 'Document failed validation', {
    errInfo: {
      failingDocumentId: doc._id,
      details: { operatorName: '$jsonSchema' in (options.validator as Document) ? '$jsonSchema' : '$and' },
    },
  });
}
