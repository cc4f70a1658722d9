import type { Document } from 'bson';
import { Query } from 'mingo/query';

import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { checkProjection } from './expression-check.js';
import { checkProjectionShape } from './projection-shape.js';
import { NO_VARIABLES } from './expression-variables.js';
import { OperationBudget } from './operation-budget.js';
import { positionalIndex } from './positional-paths.js';
import { refuseProtoFields } from './proto-paths.js';
import { compileFilter, MONGO_CONTEXT, preparedMingoOptions, withMingoErrors } from './query-context.js';
import { existingParent, isContainer, read, write } from './update-paths.js';

/** A projection operator mongod applies to one field after the rest of the projection. */
type FieldOperator = (projected: Document, source: Document) => void;

function sliceBounds(path: string, arg: unknown): (array: unknown[]) => unknown[] {
  const integer = (value: unknown): number | undefined =>
    typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? Math.trunc(value) : undefined;
  const single = integer(arg);
  if (single !== undefined) return (a) => (single >= 0 ? a.slice(0, single) : a.slice(Math.max(0, a.length + single)));
  if (Array.isArray(arg) && arg.length === 2) {
    const [skip, limit] = arg.map(integer);
    if (skip !== undefined && limit !== undefined) {
      if (limit <= 0) throw new CommandError('BadValue', `$slice limit must be positive`);
      return (a) => {
        const from = skip >= 0 ? Math.min(skip, a.length) : Math.max(0, a.length + skip);
        return a.slice(from, from + limit);
      };
    }
  }
  throw new CommandError(
    'Location28724',
    `First argument to $slice must be an array or a number, but is of type: ${typeAlias(arg)} (field ${path})`,
  );
}

/** `$slice` on the array at `path`; anything else there is left as it is. */
function sliceOperator(path: string, arg: unknown): FieldOperator {
  const slice = sliceBounds(path, arg);
  return (projected) => {
    const parent = existingParent(projected, path);
    const value = parent && read(parent.target, parent.leaf);
    if (Array.isArray(value)) write(parent!.target, parent!.leaf, slice(value));
  };
}

/** `$elemMatch`: the first element matching as `{ field: { $elemMatch: … } }` would, or no field. */
function elemMatchOperator(field: string, condition: unknown): FieldOperator {
  if (field.includes('.')) {
    throw new CommandError('Location31275', `Cannot use $elemMatch projection on a nested field.`);
  }
  if (typeAlias(condition) !== 'object') {
    throw new CommandError('BadValue', 'elemMatch: Invalid argument, object required.');
  }
  const matches = compileFilter({ [field]: { $elemMatch: condition } });
  return (projected, source) => {
    const array = read(source, field);
    const found = Array.isArray(array) ? array.find((item) => matches({ [field]: [item] })) : undefined;
    if (found === undefined) delete projected[field];
    else write(projected, field, [found]);
  };
}

const POSITIONAL_ERROR = "Executor error during find command :: caused by :: positional operator '.$' ";

/**
 * `path.$`, as mongod applies it (applyFindPositionalProjection): on the
 * document the rest of the projection made, the first array on `path` is
 * replaced by the one element the filter matched in the stored array there.
 * No array on the path (the filter matched a scalar) leaves the document as
 * it is; an array the filter says nothing about is 51246, an index beyond
 * what the projection kept of the array (`v.foo.$` over an array of
 * scalars keeps none) is 51247.
 */
function positionalOperator(path: string, filter: Document): FieldOperator {
  const parts = path.split('.');
  return (projected, source) => {
    let node: Document = projected;
    let stored: unknown = source;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const value: unknown = Object.hasOwn(node, part) ? node[part] : undefined;
      stored = isContainer(stored) && Object.hasOwn(stored, part) ? (stored as Document)[part] : undefined;
      if (Array.isArray(value)) {
        const arrayPath = parts.slice(0, i + 1).join('.');
        const index = Array.isArray(stored) ? positionalIndex(filter, arrayPath, stored) : undefined;
        if (index === undefined) {
          throw new CommandError('Location51246', `${POSITIONAL_ERROR}couldn't find a matching element in the array`);
        }
        if (index >= value.length) throw new CommandError('Location51247', `${POSITIONAL_ERROR}element mismatch`);
        write(node, part, [value[index]]);
        return;
      }
      if (typeAlias(value) !== 'object') return;
      node = value as Document;
    }
  };
}

function isPlainSpec(value: unknown): value is Document {
  return typeAlias(value) === 'object';
}

/** 'include', 'exclude' or 'other' (a computed field, which counts as an inclusion). */
function kindOf(value: unknown): 'include' | 'exclude' | 'other' {
  if (value === 0 || value === false || value === 0n) return 'exclude';
  if (typeof value === 'number' || typeof value === 'bigint' || value === true) return 'include';
  if (isPlainSpec(value) && !Object.keys(value).some((k) => k.startsWith('$'))) {
    const kinds = Object.values(value).map(kindOf);
    return kinds.includes('exclude') ? 'exclude' : 'include';
  }
  return 'other';
}

/**
 * The projection's entries with sub-projections written as dotted paths
 * (`{ a: { b: { $slice: 1 } } }` is `{ 'a.b': { $slice: 1 } }` to mongod);
 * mingo read a nested `$slice` as an inclusion and dropped the other fields.
 * An expression (an object of one `$` field) ends a path.
 */
function dottedEntries(spec: Document, prefix = ''): [path: string, value: unknown][] {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(spec)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const keys = isPlainSpec(value) ? Object.keys(value) : [];
    if (keys.length > 0 && !keys[0]!.startsWith('$')) entries.push(...dottedEntries(value as Document, path));
    else entries.push([path, value]);
  }
  return entries;
}

/**
 * A find projection split as mongod reads it: `$slice` (which neither
 * includes nor excludes), `$elemMatch` and `.$` (which include their field),
 * and the rest, which mingo projects.
 */
class FindProjection {
  private readonly base: Document = {};
  private readonly operators: FieldOperator[] = [];

  constructor(spec: Document, filter: Document) {
    // The command's `let` is bound into the projection before it gets here (let-variables.ts).
    checkProjectionShape(spec, { find: true });
    checkProjection(spec, { context: MONGO_CONTEXT, scope: NO_VARIABLES, find: true });
    const slices: string[] = [];
    let inclusion = false;
    let included: string | undefined;
    const entries = dottedEntries(spec);
    for (const [path, value] of entries) {
      const operator = isPlainSpec(value) ? Object.keys(value)[0] : undefined;
      if (operator === '$slice' && Object.keys(value as Document).length === 1) {
        this.operators.push(sliceOperator(path, (value as Document).$slice));
        slices.push(path);
      } else if (operator === '$elemMatch') {
        this.operators.push(elemMatchOperator(path, (value as Document).$elemMatch));
        this.base[path] = 1;
        inclusion = true;
        included ??= path;
      } else if (path.endsWith('.$')) {
        const arrayPath = path.slice(0, -2);
        this.operators.push(positionalOperator(arrayPath, filter));
        this.base[arrayPath] = 1;
        inclusion = true;
        included ??= path;
      } else {
        this.base[path] = value;
        if (kindOf(value) !== 'exclude') {
          inclusion = true;
          if (path !== '_id') included ??= path;
        }
      }
    }
    // In an inclusion projection, a sliced field is one of those kept.
    if (inclusion && included !== undefined) for (const path of slices) this.base[path] = 1;
  }

  apply(docs: Document[]): Document[] {
    // The clock is read by the projection's size: one of 200,000 fields takes most of a second per document.
    const units = OperationBudget.unitsOf(this.base) + this.operators.length;
    const projected =
      Object.keys(this.base).length === 0
        ? docs.map((doc) => structuredCopy(doc))
        : withMingoErrors(() => {
            const out: Document[] = [];
            for (const doc of new Query({}, preparedMingoOptions()).find(docs, this.base)) {
              OperationBudget.tick(units);
              out.push(doc as Document);
            }
            return out;
          });
    return projected.map((doc, i) => {
      const source = docs[i]!;
      OperationBudget.tick(units);
      for (const operator of this.operators) operator(doc, source);
      return inSourceOrder(source, doc);
    });
  }
}

/** A copy deep enough for the field operators to replace arrays in (they never mutate values in place). */
function structuredCopy(doc: Document): Document {
  const copy: Document = {};
  for (const key of Object.keys(doc)) {
    const value: unknown = doc[key];
    write(copy, key, isPlainSpec(value) ? structuredCopy(value) : value);
  }
  return copy;
}

/** Puts `projected`'s fields in `source`'s field order, as mongod's projection keeps it. */
function inSourceOrder(source: Document, projected: Document): Document {
  const ordered: Document = {};
  for (const key of Object.keys(source)) if (Object.hasOwn(projected, key)) write(ordered, key, projected[key]);
  for (const key of Object.keys(projected)) if (!Object.hasOwn(ordered, key)) write(ordered, key, projected[key]);
  return ordered;
}

/**
 * Applies a find (or findAndModify `fields`) projection to already
 * filtered and sorted documents; `filter` is what the positional `.$`
 * refers to. The projection is checked even when there are no documents.
 */
export function projectDocuments(
  docs: Document[],
  projection: Document | undefined,
  filter: Document = {},
): Document[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  refuseProtoFields(projection, 'a projection');
  return new FindProjection(projection, filter).apply(docs);
}
