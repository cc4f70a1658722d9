import type { Document } from 'bson';

import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { ElemMatchKey } from './elem-match-key.js';
import { compileFilter } from './query-context.js';
import { isContainer, read } from './update-paths.js';

const POSITIONAL = /^\$(\[[^\]]*\])?$/;
const IDENTIFIER = /^\$\[([^\]]*)\]$/;

/** True when a component of `path` is `$`, `$[]` or `$[identifier]`. */
export function isPositionalPath(path: string): boolean {
  return path.split('.').some((part) => POSITIONAL.test(part));
}

/** The identifiers (`x` of `$[x]`) a path names. */
export function pathIdentifiers(path: string): string[] {
  return path
    .split('.')
    .map((part) => IDENTIFIER.exec(part)?.[1])
    .filter((id): id is string => id !== undefined && id !== '');
}

type Matcher = (doc: Document) => boolean;

/**
 * An update's `arrayFilters`, parsed and checked as mongod does before
 * running the statement: one top-level identifier per filter, each
 * identifier once, each used by a path of the update.
 */
export class ArrayFilters {
  private readonly filters = new Map<string, Matcher>();

  constructor(arrayFilters: Document[] | undefined, update: Document) {
    for (const filter of arrayFilters ?? []) {
      const names = [...new Set(Object.keys(filter).map((key) => key.split('.')[0]!))];
      if (names.length !== 1) {
        throw new CommandError(
          'FailedToParse',
          names.length === 0
            ? 'Cannot use an expression without a top-level field name in arrayFilters'
            : `Error parsing array filter :: caused by :: Expected a single top-level field name, found '${names[0]}' and '${names[1]}'`,
        );
      }
      const id = names[0]!;
      if (!/^[a-z][a-zA-Z0-9]*$/.test(id)) {
        throw new CommandError(
          'BadValue',
          `Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${id}'`,
        );
      }
      if (this.filters.has(id)) {
        throw new CommandError(
          'FailedToParse',
          `Found multiple array filters with the same top-level field name ${id}`,
        );
      }
      const matches = compileFilter(filter);
      this.filters.set(id, matches);
    }
    const used = new Set<string>();
    for (const spec of Object.values(update)) {
      if (spec === null || typeof spec !== 'object') continue;
      for (const path of Object.keys(spec as Document)) {
        for (const id of pathIdentifiers(path)) {
          if (!this.filters.has(id)) {
            throw new CommandError('BadValue', `No array filter found for identifier '${id}' in path '${path}'`);
          }
          used.add(id);
        }
      }
    }
    for (const id of this.filters.keys()) {
      if (!used.has(id)) {
        throw new CommandError(
          'FailedToParse',
          `The array filter for identifier '${id}' was not used in the update ${formatKeyValue(update)}`,
        );
      }
    }
  }

  /** Whether array element `value` passes the filter for `id`. */
  matches(id: string, value: unknown): boolean {
    return this.filters.get(id)!({ [id]: value });
  }
}

const NO_MATCH = 'The positional operator did not find the match needed from the query.';

const KEYS = new WeakMap<Document, ElemMatchKey>();

/**
 * The position `$` stands for in an update path: where the statement's
 * filter matched the document (its elemMatchKey, see elem-match-key.ts).
 */
function matchedIndex(filter: Document, doc: Document): number {
  let key = KEYS.get(filter);
  if (!key) {
    key = new ElemMatchKey(filter);
    KEYS.set(filter, key);
  }
  const index = key.of(doc);
  if (index === undefined) throw new CommandError('BadValue', NO_MATCH);
  return index;
}

/** What positional components resolve against. */
export interface PositionalContext {
  /** The statement's filter, for `$`; absent when building an upserted document. */
  readonly filter?: Document;
  readonly arrayFilters: ArrayFilters;
}

/**
 * The plain dotted paths (`items.1.q`) a positional update path
 * (`items.$.q`, `items.$[].q`, `items.$[big].q`) addresses in `doc`, with
 * mongod's errors for a positional component that meets no array.
 */
export function concretePaths(doc: Document, path: string, context: PositionalContext): string[] {
  if (!isPositionalPath(path)) return [path];
  const parts = path.split('.');
  const found: string[] = [];
  const walk = (value: unknown, i: number, prefix: string[]): void => {
    const rest = parts.slice(i);
    if (!rest.some((part) => POSITIONAL.test(part))) {
      found.push([...prefix, ...rest].join('.'));
      return;
    }
    const part = parts[i]!;
    if (!POSITIONAL.test(part)) {
      walk(isContainer(value) ? read(value, part) : undefined, i + 1, [...prefix, part]);
      return;
    }
    if (part === '$' && context.filter === undefined) throw new CommandError('BadValue', NO_MATCH);
    if (value === undefined) {
      throw new CommandError(
        'BadValue',
        `The path '${prefix.join('.')}' must exist in the document in order to apply array updates.`,
      );
    }
    if (!Array.isArray(value)) {
      throw new CommandError(
        'BadValue',
        `Cannot apply array updates to non-array element ${prefix.at(-1)}: ${formatKeyValue(value)}`,
      );
    }
    const id = IDENTIFIER.exec(part)?.[1];
    const indexes =
      part === '$'
        ? [matchedIndex(context.filter!, doc)]
        : [...value.keys()].filter((index) => !id || context.arrayFilters.matches(id, value[index]));
    for (const index of indexes) walk(value[index], i + 1, [...prefix, String(index)]);
  };
  walk(doc, 0, []);
  return found;
}
