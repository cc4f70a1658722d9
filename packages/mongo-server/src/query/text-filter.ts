import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import type { CollectionStore } from '../store/collection-store.js';
import type { TextIndex } from '../store/text-index.js';
import { compileFilter } from './query-context.js';

function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Where the `$text` clauses of a filter are. */
export interface TextLocation {
  count: number;
  clause?: unknown;
  underOr: boolean;
  underNor: boolean;
}

function locate(filter: Document, mode: 'and' | 'or' | 'nor', out: TextLocation): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$text') {
      out.count++;
      out.clause ??= value;
      if (mode === 'or') out.underOr = true;
      if (mode === 'nor') out.underNor = true;
    } else if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      const inner = key === '$nor' || mode === 'nor' ? 'nor' : key === '$or' || mode === 'or' ? 'or' : 'and';
      for (const element of value) if (isPlainObject(element)) locate(element, inner, out);
    }
  }
}

/** The `$text` clauses of `filter`: at the top level or under `$and`, `$or` and `$nor`, as mongod parses them. */
export function locateText(filter: Document | undefined): TextLocation {
  const out: TextLocation = { count: 0, underOr: false, underNor: false };
  if (isPlainObject(filter)) locate(filter, 'and', out);
  return out;
}

/** Whether `filter` holds a `$text` clause anywhere mongod looks for one. */
export function hasText(filter: unknown): boolean {
  return isPlainObject(filter) && locateText(filter).count > 0;
}

function plannerError(ns: string, message: string): CommandError {
  return new CommandError(
    'NoQueryExecutionPlans',
    `error processing query: ns=${ns} planner returned error :: caused by :: ${message}`,
  );
}

/**
 * A compound text index needs an equality on each field before `_fts`, as
 * mongod's planner does; returns those equalities (explain's `indexPrefix`).
 */
export function checkPrefix(index: TextIndex, filter: Document, ns: string): Document {
  const conditions = [filter, ...(Array.isArray(filter.$and) ? (filter.$and as unknown[]) : [])].filter(isPlainObject);
  const prefix: Document = {};
  for (const field of index.fields.prefix) {
    let found = false;
    for (const condition of conditions) {
      if (!Object.hasOwn(condition, field)) continue;
      const value: unknown = condition[field];
      const keys = isPlainObject(value) ? Object.keys(value) : [];
      if (keys.length === 1 && keys[0] === '$eq') {
        prefix[field] = (value as Document).$eq;
      } else if (!keys.some((k) => k.startsWith('$'))) {
        prefix[field] = value;
      } else {
        continue;
      }
      found = true;
      break;
    }
    if (!found) {
      throw plannerError(
        ns,
        'failed to use text index to satisfy $text query (if text index is compound, are equality predicates given for all prefix fields?)',
      );
    }
  }
  return prefix;
}

/** Under `$or`, mongod needs every other branch answered by an index. */
export function checkOrBranches(filter: Document, store: CollectionStore): void {
  const indexed = new Set(['_id', ...[...store.indexes.values()].map((index) => index.fields[0]!)]);
  const visit = (node: Document): void => {
    for (const [key, value] of Object.entries(node)) {
      if ((key !== '$and' && key !== '$or') || !Array.isArray(value)) continue;
      const branches = value.filter(isPlainObject);
      if (key === '$or' && branches.some(hasText)) {
        for (const branch of branches) {
          if (hasText(branch) || Object.keys(branch).some((field) => indexed.has(field))) continue;
          throw plannerError(
            store.ns,
            'Failed to produce a solution for TEXT under OR - other non-TEXT clauses under OR have to be indexed as well.',
          );
        }
      }
      branches.forEach(visit);
    }
  };
  visit(filter);
}

/** The predicate of a filter holding `$text`: `text` where the clause is, the usual matcher for the rest. */
export function compileWithText(filter: Document, text: (doc: Document) => boolean): (doc: Document) => boolean {
  const plain: Document = {};
  const parts: ((doc: Document) => boolean)[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$text') parts.push(text);
    else if ((key === '$and' || key === '$or') && Array.isArray(value) && value.some(hasText)) {
      if (!value.every(isPlainObject))
        throw new CommandError('BadValue', '$and/$or/$nor entries need to be full objects');
      const branches = (value as Document[]).map((branch) => compileWithText(branch, text));
      parts.push(key === '$and' ? (doc) => branches.every((b) => b(doc)) : (doc) => branches.some((b) => b(doc)));
    } else plain[key] = value;
  }
  const rest = compileFilter(plain);
  return (doc) => rest(doc) && parts.every((part) => part(doc));
}
