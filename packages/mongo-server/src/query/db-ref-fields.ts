/**
 * DBRef documents in query filters, as mongod's parser reads them
 * (expression_parser.cpp). A DBRef is a plain document whose fields are named
 * `$ref`, `$id` and `$db` (wire/db-ref-documents.ts keeps it one), so filters
 * name those fields where any other filter would name an operator:
 * - `{ owner: { $ref: 'users', $id: id } }` is an equality with that
 *   document, not two unknown operators (`isDBRefDocument`: `$ref` and `$id`);
 * - `$id`, `$ref` and `$db` are pathless operators (`parseDBRef`): each an
 *   equality on the field of its own name, which is what
 *   `{ owners: { $elemMatch: { $id: id } } }` asks of each element;
 * - an `$elemMatch` whose criteria hold any one of them takes the object
 *   form, whatever its first field (`isExpressionDocument(e, true)`).
 */
import type { Document } from 'bson';

import { defineField } from '../bson/define-field.js';
import { findFieldName } from './document-paths.js';
import { isPlainDocument } from './path-elements.js';

/** A DBRef's field names, which mongod's parser takes as pathless operators. */
export const DB_REF_FIELDS: ReadonlySet<string> = new Set(['$ref', '$id', '$db']);

const isDbRefField = (name: string): boolean => DB_REF_FIELDS.has(name);

/**
 * mongod's isDBRefDocument: `value` holds `$ref` and `$id`, or, with
 * `allowIncomplete` (an `$elemMatch`'s criteria), any one of the three.
 */
export function isDbRefDocument(value: unknown, allowIncomplete: boolean): boolean {
  if (!isPlainDocument(value)) return false;
  const ref = Object.hasOwn(value, '$ref');
  const id = Object.hasOwn(value, '$id');
  return allowIncomplete ? ref || id || Object.hasOwn(value, '$db') : ref && id;
}

const LOGICAL = new Set(['$and', '$or', '$nor']);

/**
 * `filter` with each field's DBRef document written as the `$eq` it is (the
 * matcher would read its fields as operators), at every level a field can be
 * named: the top, `$and`/`$or`/`$nor` branches, `$elemMatch` object criteria
 * (under `$not` and `$all` too). `filter` itself when it names no DBRef
 * field, the usual case; otherwise a copy, the caller's documents untouched.
 */
export function dbRefEqualities(filter: Document): Document {
  return findFieldName(filter, isDbRefField) === undefined ? filter : rewriteLevel(filter);
}

/**
 * The field name of the clauses that carry a pathless `$ref`, `$id` or `$db`
 * to the matcher, which takes no unknown `$` name at a filter's top level.
 * No client can send it: a BSON field name holds no NUL byte.
 */
export const DB_REF_SELECTOR = '\u0000';

/** The private operator of those clauses: `{ [DB_REF_SELECTOR]: { $dbRefField: { name, value } } }`. */
export const DB_REF_OPERATOR = '$dbRefField';

/** One level of a filter (field names and pathless operators). */
function rewriteLevel(level: Document): Document {
  const out: Document = {};
  const clauses: Document[] = [];
  for (const key of Object.keys(level)) {
    const value: unknown = level[key];
    if (DB_REF_FIELDS.has(key)) {
      clauses.push({ [DB_REF_SELECTOR]: { [DB_REF_OPERATOR]: { name: key, value } } });
      continue;
    }
    let rewritten = value;
    if (LOGICAL.has(key)) {
      if (Array.isArray(value))
        rewritten = value.map((branch) => (isPlainDocument(branch) ? rewriteLevel(branch) : branch));
    } else if (!key.startsWith('$')) {
      rewritten = isDbRefDocument(value, false) ? { $eq: value } : rewriteOperators(value);
    }
    defineField(out, key, rewritten);
  }
  return clauses.length === 0 ? out : { $and: [out, ...clauses] };
}

/** A field's condition: its `$elemMatch` object criteria rewritten as filter levels, under `$not` and `$all` too. */
function rewriteOperators(condition: unknown): unknown {
  if (!isPlainDocument(condition)) return condition;
  const keys = Object.keys(condition);
  if (keys.length === 0 || !keys[0]!.startsWith('$')) return condition;
  const out: Document = {};
  for (const key of keys) {
    const value: unknown = condition[key];
    let rewritten = value;
    if (key === '$elemMatch' && isPlainDocument(value) && isObjectForm(value)) rewritten = rewriteLevel(value);
    else if (key === '$not') rewritten = rewriteOperators(value);
    else if (key === '$all' && Array.isArray(value)) rewritten = value.map(rewriteOperators);
    defineField(out, key, rewritten);
  }
  return out;
}

/** Whether `$elemMatch` criteria are read as a filter over each element's fields (mongod's object case). */
function isObjectForm(criteria: Document): boolean {
  const first = Object.keys(criteria)[0];
  return first === undefined || !first.startsWith('$') || LOGICAL.has(first) || isDbRefDocument(criteria, true);
}
