import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import * as pipelineOperators from 'mingo/operators/pipeline';
import type { PipelineStage } from 'mingo/updater';

import { bsonEquals, compareStrings } from '../bson/bson-compare.js';
import { ObjectId } from '../bson/bson-library.cjs';
import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { idFirst, setPath } from './document-paths.js';
import { typeAlias } from './element-operators.js';
import { type ApplyUpdateOptions, ParsedUpdate } from './parsed-update.js';
import { checkPipeline } from './pipeline-check.js';
import { preparedMingoOptions, withMingoErrors } from './query-context.js';
import { cloneValue } from './update-paths.js';
import { isDbRefDocument } from './db-ref-fields.js';

export type { ApplyUpdateOptions };

/** How an update statement's `u` is to be read. */
export type UpdateKind = 'replacement' | 'operators' | 'pipeline';

/** The aggregation stages mongod runs in a pipeline-style update. */
const UPDATE_PIPELINE_STAGES = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$fill',
]);

/** MongoDB's update modifiers. */
const MODIFIERS = new Set([
  ...['$currentDate', '$inc', '$min', '$max', '$mul', '$rename', '$set', '$setOnInsert', '$unset'],
  ...['$addToSet', '$pop', '$pull', '$push', '$pullAll', '$bit'],
]);

/**
 * Classifies `u` and rejects a mix of operators and plain fields, a modifier
 * not given a document, or a pipeline stage an update cannot run.
 */
export function updateKind(update: unknown): UpdateKind {
  if (Array.isArray(update)) {
    for (const stage of update as unknown[]) {
      const name = typeAlias(stage) === 'object' ? Object.keys(stage as Document)[0] : undefined;
      // Others (`$count`, `$unwind`, `$match`, …) may leave no document to store.
      if (name !== undefined && name in pipelineOperators && !UPDATE_PIPELINE_STAGES.has(name)) {
        throw new CommandError('InvalidOptions', `${name} is not allowed to be used within an update`);
      }
    }
    // As an aggregate's: each stage a document of one known stage, each stage's specification of its type.
    checkPipeline(update);
    return 'pipeline';
  }
  if (update === null || typeof update !== 'object') {
    throw new CommandError('FailedToParse', 'Update argument must be either an object or an array');
  }
  const keys = Object.keys(update);
  const operators = keys.filter((k) => k.startsWith('$'));
  if (operators.length === 0) return 'replacement';
  if (operators.length !== keys.length) {
    const field = keys.find((k) => !k.startsWith('$'));
    throw new CommandError(
      'FailedToParse',
      `Unknown modifier: ${field}. Expected a valid update modifier or pipeline-style update specified as an array`,
    );
  }
  for (const op of operators) {
    if (!MODIFIERS.has(op)) {
      throw new CommandError(
        'FailedToParse',
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    const spec: unknown = (update as Document)[op];
    // mongod's update driver refuses this before any modifier runs (the operators would fail on it in JavaScript).
    if (MODIFIERS.has(op) && typeAlias(spec) !== 'object') {
      throw new CommandError(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${typeAlias(spec)} instead. For example: {$mod: {<field>: ...}} not {${op}: ${formatKeyValue(spec)}}`,
      );
    }
  }
  return 'operators';
}

const IMMUTABLE_ID = "Performing an update on the path '_id' would modify the immutable field '_id'";

/**
 * Parses `update` when it is an operator update (its operators' arguments,
 * paths and `arrayFilters`), so that a bad statement fails even when it
 * matches no document, as in mongod.
 */
export function parseUpdate(update: Document | Document[], arrayFilters?: Document[]): ParsedUpdate | undefined {
  return updateKind(update) === 'operators' ? new ParsedUpdate(update as Document, arrayFilters) : undefined;
}

/** Whether an update left `_id` as it was (same value and type; strings binary whatever the collation, as in mongod). */
function sameId(before: unknown, after: unknown): boolean {
  return after !== undefined && bsonEquals(after, before, compareStrings) && typeAlias(after) === typeAlias(before);
}

/**
 * Returns the updated copy of `doc` (never mutates it): a replacement keeps
 * `_id`, operators run as mongod's update nodes do ({@link ParsedUpdate}),
 * a pipeline runs as an aggregation.
 */
export function applyUpdate(doc: Document, update: Document | Document[], options: ApplyUpdateOptions = {}): Document {
  const kind = updateKind(update);
  let result: Document;
  if (kind === 'replacement') {
    result = { _id: doc._id, ...cloneValue(update as Document) };
    if (doc._id === undefined) delete result._id;
  } else if (kind === 'pipeline') {
    result = withMingoErrors(
      () => new Aggregator(update as PipelineStage[], preparedMingoOptions()).run([cloneValue(doc)]).at(0) as Document,
    );
    // The pipeline's result replaces the document as a replacement does (applyReplacementUpdate):
    // without an `_id` it keeps the original one (`$replaceWith`, `$project: { _id: 0 }`).
    if (result._id === undefined && doc._id !== undefined) result = { _id: doc._id, ...result };
  } else {
    result = cloneValue(doc);
    new ParsedUpdate(update as Document, options.arrayFilters).applyTo(result, options);
  }
  if (doc._id !== undefined && !sameId(doc._id, result._id)) {
    throw new CommandError('ImmutableField', IMMUTABLE_ID);
  }
  return idFirst(result);
}

function collectEqualities(filter: Document, seed: Document): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const clause of value) collectEqualities(clause as Document, seed);
      continue;
    }
    if (key.startsWith('$')) continue;
    const isOperatorObject =
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.keys(value as object).some((k) => k.startsWith('$')) &&
      // `{ $ref: …, $id: … }` is a DBRef the filter compares with: an equality, seeded as one.
      !isDbRefDocument(value, false);
    if (!isOperatorObject && !(value instanceof RegExp)) setPath(seed, key, cloneValue(value));
    else if (isOperatorObject && '$eq' in (value as Document)) setPath(seed, key, cloneValue((value as Document).$eq));
  }
}

/**
 * The document an upsert inserts: the filter's equality fields, then the
 * update applied with `$setOnInsert`, then a generated `_id` if none.
 */
export function buildUpsertDocument(
  filter: Document,
  update: Document | Document[],
  arrayFilters?: Document[],
): Document {
  const seed: Document = {};
  const kind = updateKind(update);
  if (kind === 'replacement') {
    const id = (filter as { _id?: unknown })._id;
    const replacement = cloneValue(update as Document);
    if (
      replacement._id === undefined &&
      id !== undefined &&
      (typeof id !== 'object' || id === null || !Object.keys(id).some((k) => k.startsWith('$')))
    ) {
      replacement._id = id;
    }
    return idFirst({ _id: new ObjectId(), ...replacement });
  }
  collectEqualities(filter, seed);
  if (kind === 'pipeline') {
    const updated = applyUpdate(seed, update, {});
    return updated._id === undefined ? { _id: new ObjectId(), ...updated } : updated;
  }
  const updated = cloneValue(seed);
  new ParsedUpdate(update as Document, arrayFilters).applyTo(updated, { isInsert: true });
  // The filter's `_id` may be repeated by the update, not changed.
  if (seed._id !== undefined && !sameId(seed._id, updated._id)) {
    throw new CommandError('ImmutableField', IMMUTABLE_ID);
  }
  if (updated._id === undefined) return { _id: new ObjectId(), ...updated };
  return idFirst(updated);
}
