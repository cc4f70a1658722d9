/**
 * `$elemMatch` (and `$all` of `$elemMatch`es) over the arrays a path reaches
 * as mongod 7 reaches them: mingo resolved `a.b` through an array of
 * documents into an array of arrays, so `{ 'a.b': { $elemMatch: { c: 7 } } }`
 * missed `{ a: [{ b: [{ c: 1 }] }, { b: [{ c: 7 }] }] }`, and
 * `{ 'a.b': { $elemMatch: { $eq: 1 } } }` matched `{ a: [{ b: 1 }] }`, whose
 * `b` is no array.
 */
import type { Document } from 'bson';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';

import { CommandError } from '../commands/command-error.js';
import { DB_REF_FIELDS, isDbRefDocument } from './db-ref-fields.js';
import { typeAlias } from './element-operators.js';
import { isPlainDocument, pathElements, queryPath, withLeafArraysWhole } from './path-elements.js';

type Predicate = (doc: unknown) => boolean;

/** Operators that take no path: one of them first makes `$elemMatch`'s object form, as in mongod's parser. */
const PATHLESS_OPERATORS = new Set([
  '$and',
  '$or',
  '$nor',
  '$where',
  '$expr',
  '$text',
  '$comment',
  '$jsonSchema',
  '$alwaysFalse',
  '$alwaysTrue',
  '$sampleRate',
  ...DB_REF_FIELDS,
]);

/** Operators mongod's parser takes at a filter's top level only, not in an `$elemMatch` object (`kUserSubDocument`). */
const TOP_LEVEL_ONLY = new Set(['$expr', '$text', '$where', '$sampleRate']);

/** mongod's BadValue for such an operator in `$elemMatch`'s criteria, also under their `$and`, `$or`, `$nor`. */
function refuseTopLevelOnly(criteria: Document): void {
  for (const [key, value] of Object.entries(criteria)) {
    if (TOP_LEVEL_ONLY.has(key)) {
      throw new CommandError('BadValue', `${key} can only be applied to the top-level document`);
    }
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      for (const clause of value) if (isPlainDocument(clause)) refuseTopLevelOnly(clause);
    }
  }
}

/**
 * What one element of the array must satisfy. The value form (`{ $gte: 80, $lt: 85 }`,
 * its first field an operator on a path) tests the element itself; the object form
 * (`{ b: 1, c: { $gt: 2 } }`) a document element, or an array element read as the
 * document of its indexes (mongod matches any BSON object or array there).
 */
function elementTest(criteria: Document, options: Options): (element: unknown) => boolean {
  const first = Object.keys(criteria)[0];
  // A DBRef field anywhere in the criteria makes the object form too (mongod's isExpressionDocument(e, true)).
  if (
    first !== undefined &&
    first.startsWith('$') &&
    !PATHLESS_OPERATORS.has(first) &&
    !isDbRefDocument(criteria, true)
  ) {
    const query = new Query({ element: criteria }, options);
    return (element) => withLeafArraysWhole(true, () => query.test({ element }));
  }
  refuseTopLevelOnly(criteria);
  const query = new Query(criteria, options);
  return (element) => {
    if (isPlainDocument(element)) return withLeafArraysWhole(false, () => query.test(element));
    return (
      Array.isArray(element) && withLeafArraysWhole(false, () => query.test(Object.fromEntries(element.entries())))
    );
  };
}

/** `{ field: { $elemMatch: criteria } }`: an array at the path with an element that satisfies `criteria`. */
export function $elemMatch(selector: string, criteria: unknown, options: Options): Predicate {
  // A document only: mingo enumerated a string given here as an object, one key per character.
  if (typeAlias(criteria) !== 'object') throw new CommandError('BadValue', '$elemMatch needs an Object');
  const path = queryPath(selector);
  const test = elementTest(criteria as Document, options);
  // An array at the end of the path is read whole: its elements are what `criteria` tests.
  return (doc) => pathElements(doc, path, false).some((element) => Array.isArray(element) && element.some(test));
}

/** Whether an entry of `$all` is `{ $elemMatch: … }`, as mongod's parser tells (by the first field). */
export function isElemMatchEntry(entry: unknown): entry is { $elemMatch: unknown } {
  return typeAlias(entry) === 'object' && Object.keys(entry as Document)[0] === '$elemMatch';
}

/** `{ field: { $all: [{ $elemMatch: … }, …] } }`: every `$elemMatch` holds; mongod's error when an entry is another value. */
export function allElemMatches(selector: string, entries: unknown[], options: Options): Predicate {
  const predicates = entries.map((entry) => {
    if (!isElemMatchEntry(entry)) throw new CommandError('BadValue', '$all/$elemMatch has to be consistent');
    return $elemMatch(selector, entry.$elemMatch, options);
  });
  return (doc) => predicates.every((predicate) => predicate(doc));
}
