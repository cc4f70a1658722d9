import type { Document } from 'bson';

import { ObjectId } from '../bson/bson-library.cjs';
import { encodeIndexValue } from '../bson/index-key-encoder.js';
import { OperationBudget } from '../query/operation-budget.js';
import { idFirst, nestedField } from '../query/document-paths.js';
import { typeAlias } from '../query/element-operators.js';
import { allowStage, checkPipeline } from '../query/pipeline-check.js';
import { CollectionStore } from '../store/collection-store.js';
import { checkStorable } from '../store/document-limits.js';
import type { CollectionView } from '../store/collection-view.js';
import { checkCollectionName, checkDatabaseName } from './command-arguments.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { runSourceStage } from './source-stages.js';
import { READ_COMMANDS } from './read-commands.js';
import { notSupported } from '../query/expression-check.js';

allowStage('$out');
allowStage('$merge');

const WHEN_MATCHED = ['replace', 'keepExisting', 'merge', 'fail'];
const WHEN_NOT_MATCHED = ['insert', 'discard', 'fail'];

/** `'coll'` or `{ db, coll }`: the namespace a `$out`/`$merge` writes to. */
function namespace(target: unknown, db: string, stage: string): { db: string; coll: string } {
  const spec = target as Document | null;
  const ns =
    typeof target === 'string' && target.length > 0
      ? { db, coll: target }
      : spec && typeof spec === 'object' && typeof spec.coll === 'string' && spec.coll.length > 0
        ? { db: typeof spec.db === 'string' ? spec.db : db, coll: spec.coll }
        : undefined;
  if (!ns) throw new CommandError('FailedToParse', `${stage} needs a collection name or { db, coll } to write to`);
  checkDatabaseName(ns.db);
  checkCollectionName(ns.db, ns.coll);
  return ns;
}

/** The pipeline's results before its last stage, read to the end. */
function results(ctx: CommandContext, cmd: Document, stages: Document[]): Document[] {
  const read = {
    aggregate: cmd.aggregate,
    pipeline: stages,
    cursor: { batchSize: Number.MAX_SAFE_INTEGER },
    $db: cmd.$db,
  };
  // A pipeline that makes its own documents (`$listLocalSessions`, `$collStats`, a `$text` search) first.
  const reply = runSourceStage('aggregate', read, ctx) ?? READ_COMMANDS.aggregate!(read, ctx);
  const cursor = reply.cursor as { firstBatch: Document[]; id: bigint | number };
  if (Number(cursor.id) !== 0) ctx.cursors.kill(BigInt(cursor.id));
  // Checked as an insert is: a computed document may nest too deep or name a field with a NUL byte.
  return cursor.firstBatch.map((doc) =>
    checkStorable(doc._id === undefined ? { _id: new ObjectId(), ...doc } : idFirst(doc), 'insert'),
  );
}

function target(ctx: CommandContext, ns: { db: string; coll: string }): CollectionView {
  const store = ctx.store.ensureCollection(ns.db, ns.coll).collection;
  if (store.options.viewOn !== undefined) {
    throw new CommandError('CommandNotSupportedOnView', `Namespace ${ns.db}.${ns.coll} is a view, not a collection`);
  }
  return ctx.transaction ? ctx.transaction.view(store) : store;
}

/** `$out`: replaces the target's documents with the results, all or nothing. */
function out(ctx: CommandContext, docs: Document[], spec: unknown): void {
  const view = target(ctx, namespace(spec, ctx.db, '$out'));
  const previous = [...view.documents()];
  for (const doc of previous) view.remove(CollectionStore.idKey(doc));
  try {
    for (const doc of docs) view.insert(doc);
  } catch (error) {
    for (const doc of [...view.documents()]) view.remove(CollectionStore.idKey(doc));
    for (const doc of previous) view.insert(doc);
    throw error;
  }
}

/** mongod's checks of a result's 'on' fields (extractMergeOnFieldsFromDoc): 51185 for an array, 51132 for nullish. */
function checkMergeOnFields(doc: Document, on: readonly string[]): void {
  for (const field of on) {
    const value = nestedField(doc, field);
    if (Array.isArray(value)) {
      throw new CommandError('Location51185', `$merge write error: 'on' field '${field}' is an array`);
    }
    if (value === undefined || value === null || typeAlias(value) === 'undefined') {
      throw new CommandError(
        'Location51132',
        `$merge write error: 'on' field '${field}' cannot be missing, null, undefined or an array`,
      );
    }
  }
}

/** `$merge` with `on` fields and the string forms of `whenMatched`/`whenNotMatched`. */
function merge(ctx: CommandContext, docs: Document[], raw: unknown): void {
  const spec: Document = typeof raw === 'string' ? { into: raw } : ((raw ?? {}) as Document);
  const ns = namespace(spec.into, ctx.db, '$merge');
  const on = spec.on === undefined ? ['_id'] : Array.isArray(spec.on) ? (spec.on as string[]) : [spec.on as string];
  const whenMatched: unknown = spec.whenMatched ?? 'merge';
  const whenNotMatched: unknown = spec.whenNotMatched ?? 'insert';
  if (Array.isArray(whenMatched)) throw notSupported('$merge with a whenMatched pipeline');
  if (spec.let !== undefined) throw notSupported("$merge's let");
  if (!WHEN_MATCHED.includes(whenMatched as string) || !WHEN_NOT_MATCHED.includes(whenNotMatched as string)) {
    throw new CommandError(
      'BadValue',
      `Enumeration value for $merge's whenMatched or whenNotMatched is not a valid value.`,
    );
  }
  const view = target(ctx, ns);
  const store = ctx.store.collection(ns.db, ns.coll)!;
  const unique = store
    .indexSpecs()
    .some(
      (index) =>
        (index.name === '_id_' || index.unique === true) &&
        Object.keys(index.key).sort().join() === [...on].sort().join(),
    );
  if (!unique) {
    throw new CommandError('Location51183', 'Cannot find index to verify that join fields will be unique');
  }
  // One pass over the target, then a lookup per result: never results × documents comparisons.
  const keyOf = (doc: Document): string => encodeIndexValue(on.map((field) => nestedField(doc, field) ?? null));
  const byKey = new Map<string, Document>();
  for (const stored of view.documents()) byKey.set(keyOf(stored), stored);
  for (const result of docs) {
    OperationBudget.tick();
    // mongod gives a result without an _id one when _id is among the 'on' fields (makeBatchObject).
    const doc = on.includes('_id') && result._id === undefined ? { _id: new ObjectId(), ...result } : result;
    checkMergeOnFields(doc, on);
    const existing = byKey.get(keyOf(doc));
    if (!existing) {
      if (whenNotMatched === 'fail') {
        throw new CommandError(
          'Location13113',
          '$merge could not find a matching document in the target collection for at least one document in the source collection',
        );
      }
      if (whenNotMatched === 'insert') {
        view.insert(doc);
        byKey.set(keyOf(doc), doc);
      }
      continue;
    }
    if (whenMatched === 'keepExisting') continue;
    if (whenMatched === 'fail') {
      // mongod inserts: the target's unique index refuses it with its own E11000 (keyPattern, keyValue).
      view.insert(doc);
      byKey.set(keyOf(doc), doc);
      continue;
    }
    const updated =
      whenMatched === 'replace' ? { ...doc, _id: existing._id } : { ...existing, ...doc, _id: existing._id };
    view.replace(CollectionStore.idKey(existing), idFirst(updated));
    byKey.set(keyOf(updated), updated);
  }
}

/**
 * Runs an `aggregate` that ends with `$out` or `$merge`: the rest of the
 * pipeline, then the write, then an empty cursor as mongod answers;
 * undefined for any other command.
 */
export function runOutputStage(name: string, cmd: Document, ctx: CommandContext): Document | undefined {
  if (name !== 'aggregate' || !Array.isArray(cmd.pipeline)) return undefined;
  const stages = cmd.pipeline as Document[];
  const position = stages.findIndex((s) => s !== null && typeof s === 'object' && ('$out' in s || '$merge' in s));
  if (position < 0) return undefined;
  checkPipeline(stages);
  const stage = Object.keys(stages[position]!)[0]!;
  if (position !== stages.length - 1) {
    throw new CommandError('Location40601', `${stage} can only be the final stage in the pipeline`);
  }
  // A write stage reads with any level but linearizable (mongod's supportsReadConcern of $out and $merge).
  const readConcern: unknown = cmd.readConcern;
  if (typeAlias(readConcern) === 'object' && (readConcern as Document).level === 'linearizable') {
    throw new CommandError('InvalidOptions', `${stage} cannot be used with a 'linearizable' read concern level`);
  }
  const docs = results(ctx, cmd, stages.slice(0, -1));
  if (stage === '$out') out(ctx, docs, stages[position]!.$out);
  else merge(ctx, docs, stages[position]!.$merge);
  return { cursor: { firstBatch: [], id: 0n, ns: `${ctx.db}.${String(cmd.aggregate)}` }, ok: 1 };
}
