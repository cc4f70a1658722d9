import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';

import { CommandError } from '../commands/command-error.js';
import { pathsAsOperators } from './aggregation-paths.js';
import { typeAlias } from './element-operators.js';
import { checkProjection } from './expression-check.js';
import { checkProjectionShape } from './projection-shape.js';
import { NO_VARIABLES } from './expression-variables.js';
import { OperationBudget } from './operation-budget.js';
import { ElemMatchKey } from './elem-match-key.js';
import { refuseProtoFields } from './proto-paths.js';
import { compileFilter, MONGO_CONTEXT, preparedMingoOptions, withMingoErrors } from './query-context.js';
import {
  type ComputeField,
  isInclusion,
  isPlainSpec,
  namesId,
  projectionKind,
  projectionPaths,
  ProjectionTree,
} from './projection-tree.js';
import { read, write } from './update-paths.js';

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

/**
 * `$slice` at `path` of the projected document, as mongod's
 * applyFindSliceProjection walks it: through sub-documents and the
 * sub-documents in an array, not into an array of arrays; anything but an
 * array at the end is left as it is. The documents on the way are copied:
 * the projection may share them with the stored document.
 */
function sliceOperator(path: string, arg: unknown): FieldOperator {
  const slice = sliceBounds(path, arg);
  const parts = path.split('.');
  const sliced = (doc: Document, depth: number): Document => {
    const name = parts[depth]!;
    if (!Object.hasOwn(doc, name)) return doc;
    const value: unknown = doc[name];
    let replaced: unknown;
    if (depth === parts.length - 1) replaced = Array.isArray(value) ? slice(value) : value;
    else if (Array.isArray(value)) replaced = value.map((item) => (isPlainSpec(item) ? sliced(item, depth + 1) : item));
    else replaced = isPlainSpec(value) ? sliced(value, depth + 1) : value;
    if (replaced === value) return doc;
    const copy = { ...doc };
    write(copy, name, replaced);
    return copy;
  };
  return (projected) => {
    // The projected document itself is the projection's own: its field is replaced in place.
    const result = sliced(projected, 0);
    if (result !== projected) write(projected, parts[0]!, result[parts[0]!]);
  };
}

/** `$elemMatch`: the first element matching as `{ field: { $elemMatch: … } }` would, or no field. */
function elemMatchField(field: string, condition: unknown): ComputeField {
  if (field.includes('.')) {
    throw new CommandError('Location31275', `Cannot use $elemMatch projection on a nested field.`);
  }
  if (typeAlias(condition) !== 'object') {
    throw new CommandError('BadValue', 'elemMatch: Invalid argument, object required.');
  }
  const matches = compileFilter({ [field]: { $elemMatch: condition } });
  return (root) => {
    const array = read(root, field);
    const found = Array.isArray(array) ? array.find((item) => matches({ [field]: [item] })) : undefined;
    return found === undefined ? undefined : [found];
  };
}

const POSITIONAL_ERROR = "Executor error during find command :: caused by :: positional operator '.$' ";

/**
 * `path.$`, as mongod applies it (applyFindPositionalProjection): on the
 * document the rest of the projection made, the first array on `path` is
 * replaced by its element at the position where the filter matched the
 * stored document (its elemMatchKey, which may be another array's). No
 * array on the path (the filter matched a scalar) leaves the document as it
 * is; no position is 51246, a position beyond the array (a shorter parallel
 * array, or one the projection kept less of) is 51247.
 */
function positionalOperator(path: string, filter: Document): FieldOperator {
  const parts = path.split('.');
  const key = new ElemMatchKey(filter);
  return (projected, source) => {
    let node: Document = projected;
    for (const part of parts) {
      const value: unknown = Object.hasOwn(node, part) ? node[part] : undefined;
      if (Array.isArray(value)) {
        const index = key.of(source);
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

/**
 * A find projection as mongod reads it: inclusions, exclusions and computed
 * fields (a {@link ProjectionTree}), `$elemMatch` (a computed field, so it
 * comes after the included ones), and `$slice` and `.$`, which mongod
 * applies to the projected document. `$slice` neither includes nor
 * excludes; in an inclusion its field is kept.
 */
class FindProjection {
  private readonly tree: ProjectionTree;
  private readonly operators: FieldOperator[] = [];
  private readonly units: number;

  constructor(spec: Document, filter: Document) {
    // The command's `let` is bound into the projection before it gets here (let-variables.ts).
    checkProjectionShape(spec, { find: true });
    checkProjection(spec, { context: MONGO_CONTEXT, scope: NO_VARIABLES, find: true });
    const entries = projectionPaths(spec);
    const operatorOf = (value: unknown) => (isPlainSpec(value) ? Object.keys(value)[0] : undefined);
    const isSlice = (value: unknown) => operatorOf(value) === '$slice' && Object.keys(value as Document).length === 1;
    const inclusion =
      isInclusion(entries.filter(([, value]) => !isSlice(value))) ||
      entries.some(([path, value]) => path.endsWith('.$') || operatorOf(value) === '$elemMatch');
    const tree = new ProjectionTree(inclusion);
    for (const [path, value] of entries) {
      if (isSlice(value)) {
        this.operators.push(sliceOperator(path, (value as Document).$slice));
        if (inclusion) tree.addField(path);
      } else if (operatorOf(value) === '$elemMatch') {
        tree.addComputed(path, elemMatchField(path, (value as Document).$elemMatch));
      } else if (path.endsWith('.$')) {
        const arrayPath = path.slice(0, -2);
        this.operators.push(positionalOperator(arrayPath, filter));
        tree.addField(arrayPath);
      } else if (projectionKind(value) === 'other') {
        tree.addComputed(path, (root) => evalExpr(root, pathsAsOperators(value), preparedMingoOptions()));
      } else if ((projectionKind(value) === 'exclude') !== inclusion) {
        tree.addField(path);
      }
    }
    if (inclusion && !entries.some(([path]) => namesId(path))) tree.addField('_id');
    this.tree = tree;
    // The clock is read by the projection's size: one of 200,000 fields takes most of a second per document.
    this.units = OperationBudget.unitsOf(spec);
  }

  apply(docs: Document[]): Document[] {
    return withMingoErrors(() =>
      docs.map((doc) => {
        OperationBudget.tick(this.units);
        const projected = this.tree.apply(doc);
        for (const operator of this.operators) operator(projected, doc);
        return projected;
      }),
    );
  }
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
