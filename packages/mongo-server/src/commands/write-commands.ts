import type { Document } from 'bson';

import { isBsonNumber } from '../bson/bson-compare.js';
import { BSON, ObjectId } from '../bson/bson-library.cjs';
import { Collation } from '../bson/collation.js';
import { applyUpdate, buildUpsertDocument, parseUpdate, updateKind } from '../query/apply-update.js';
import { idFirst } from '../query/document-paths.js';
import { typeAlias } from '../query/element-operators.js';
import { projectDocuments } from '../query/find-projection.js';
import { compileFilter } from '../query/query-context.js';
import { runQuery } from '../query/plan-executor.js';
import { CollectionStore } from '../store/collection-store.js';
import type { CollectionView } from '../store/collection-view.js';
import { checkStorable, type StoredBy } from '../store/document-limits.js';
import { validateDocument } from '../query/document-validation.js';
import {
  collectionName,
  documentArray,
  optionalDocument,
  optionalDocumentArray,
  safeBool,
  wrongType,
} from './command-arguments.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import { missingField, unknownField } from './idl-fields.js';
import { commandCollation, matchingDocuments } from './read-commands.js';
import { namedIdTwice } from '../wire/duplicate-ids.js';

/**
 * Byte-identical BSON, i.e. whether an update really modified the document.
 * An update result BSON cannot encode (a field name with a NUL byte, built
 * by `$setField`) counts as modified, for checkStorable to refuse it.
 */
function sameBson(a: Document, b: Document): boolean {
  let updated: Uint8Array;
  try {
    updated = BSON.serialize(b);
  } catch {
    return false;
  }
  return Buffer.from(BSON.serialize(a)).equals(Buffer.from(updated));
}

/** Write errors that become `writeErrors` entries; others abort the whole command. */
function isStatementError(error: unknown): error is CommandError {
  // An interrupted command (maxTimeMS) fails as a whole in mongod, not statement by statement.
  return error instanceof CommandError && error.codeName !== 'WriteConflict' && error.codeName !== 'MaxTimeMSExpired';
}

/** `doc` (a document: {@link documentArray} checked it) with an `_id`, first. */
function prepareInsert(doc: Document): Document {
  // mongod's fixDocumentForInsert: one _id at most, and anything but an array, a regular expression or undefined.
  if (namedIdTwice(doc)) throw new CommandError('BadValue', "can't have multiple _id fields in one document");
  const idType = typeAlias(doc._id);
  if (doc._id !== undefined && (idType === 'array' || idType === 'regex' || idType === 'undefined')) {
    throw new CommandError('InvalidIdField', `The '_id' value cannot be of type ${idType}`);
  }
  return doc._id === undefined ? { _id: new ObjectId(), ...doc } : idFirst(doc);
}

/** A document's checks before it is stored: size and depth, then the collection's validator. */
type Storable = (doc: Document, by: StoredBy, previous?: Document) => Document;

function storable(ctx: CommandContext, name: string, cmd: Document): Storable {
  const bypass = cmd.bypassDocumentValidation === true;
  return (doc, by, previous) => {
    checkStorable(doc, by);
    const options = ctx.collection(name)?.options;
    if (options) validateDocument(options, doc, previous, bypass);
    return doc;
  };
}

function writeReply(body: Document, writeErrors: Document[]): Document {
  return writeErrors.length > 0 ? { ...body, writeErrors, ok: 1 } : { ...body, ok: 1 };
}

/** A write's `ordered` (true unless false), typed as mongod's IDL types it: a boolean. */
function orderedOption(cmd: Document): boolean {
  const value: unknown = cmd.ordered;
  if (value === undefined || value === null) return true;
  if (typeof value !== 'boolean') throw wrongType(`${Object.keys(cmd)[0]}.ordered`, value, 'bool');
  return value;
}

const insert: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'insert');
  const docs = documentArray(cmd, 'documents');
  const ordered = orderedOption(cmd);
  const view = ctx.view(name, true)!;
  const check = storable(ctx, name, cmd);
  const writeErrors: Document[] = [];
  let n = 0;
  for (const [index, raw] of docs.entries()) {
    try {
      view.insert(check(prepareInsert(raw), 'insert'));
      n++;
    } catch (error) {
      if (!isStatementError(error)) throw error;
      writeErrors.push(error.toWriteError(index));
      if (ordered) break;
    }
  }
  return writeReply({ n }, writeErrors);
};

interface UpdateStatement {
  q?: Document;
  u: Document | Document[];
  multi?: boolean;
  upsert?: boolean;
  arrayFilters?: Document[];
  sort?: unknown;
  collation?: Document;
}

function runUpdate(
  view: CollectionView | undefined,
  statement: UpdateStatement,
  index: number,
  upserted: Document[],
  check: Storable,
): { n: number; nModified: number } {
  const filter = statement.q ?? {};
  const kind = updateKind(statement.u);
  // The update is parsed before any document is read: a bad one fails on an empty collection too.
  parseUpdate(statement.u, statement.arrayFilters);
  compileFilter(filter);
  if (statement.multi && kind === 'replacement') {
    throw new CommandError('FailedToParse', 'multi update is not supported for replacement-style update');
  }
  if (!view) return { n: 0, nModified: 0 };
  const collation = optionalDocument(statement, 'collation');
  let matched = matchingDocuments(view, filter, statement.multi ? 0 : 1, collation);
  if (!statement.multi) matched = matched.slice(0, 1);
  if (matched.length === 0) {
    if (!statement.upsert) return { n: 0, nModified: 0 };
    const doc = check(buildUpsertDocument(filter, statement.u, statement.arrayFilters), 'update');
    view.insert(doc);
    upserted.push({ index, _id: doc._id });
    return { n: 1, nModified: 0 };
  }
  let nModified = 0;
  for (const old of matched) {
    const updated = applyUpdate(old, statement.u, { filter, arrayFilters: statement.arrayFilters });
    if (sameBson(old, updated)) continue;
    view.replace(
      CollectionStore.idKey(old),
      check(updated, 'update', old),
      kind === 'replacement' ? 'replace' : 'update',
    );
    nModified++;
  }
  return { n: matched.length, nModified };
}

const update: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'update');
  const statements = documentArray(cmd, 'updates') as UpdateStatement[];
  for (const statement of statements) {
    optionalDocumentArray(statement.arrayFilters, 'update.updates.arrayFilters');
    // MongoDB 8.0 added `sort` to update statements; 7.0, which this server reports, refuses it.
    if (statement.sort !== undefined) {
      throw unknownField('update.updates.sort');
    }
  }
  const ordered = orderedOption(cmd);
  const view = ctx.view(
    name,
    statements.some((s) => s.upsert === true),
  );
  const check = storable(ctx, name, cmd);
  const writeErrors: Document[] = [];
  const upserted: Document[] = [];
  let n = 0;
  let nModified = 0;
  for (const [index, statement] of statements.entries()) {
    try {
      // $addToSet, $pull, $min and $max compare by the statement's collation too, as in mongod.
      const collation = commandCollation(ctx, name, statement as Document);
      const result = Collation.run(collation, () => runUpdate(view, statement, index, upserted, check));
      n += result.n;
      nModified += result.nModified;
    } catch (error) {
      if (!isStatementError(error)) throw error;
      writeErrors.push(error.toWriteError(index));
      if (ordered) break;
    }
  }
  const body: Document = { n, nModified };
  if (upserted.length > 0) body.upserted = upserted;
  return writeReply(body, writeErrors);
};

/**
 * A delete statement's `limit` (0 when absent), refused unless it is a
 * number as mongod's parser does: `Number()` read a string, a boolean or a
 * one-number array as a limit, and threw on an object whose `toString` is
 * not a function (InternalError, found by the server fuzzer).
 */
function deleteLimit(value: unknown): number {
  if (value === undefined || value === null) return 0;
  // Also the wrapped numbers the wire decoder gives (an integral double, an Int64, a Decimal128).
  if (isBsonNumber(value)) return typeof value === 'number' ? value : Number(String(value));
  throw new CommandError(
    'TypeMismatch',
    `BSON field 'delete.deletes.limit' is the wrong type '${typeAlias(value)}', expected types '[long, int, decimal, double]'`,
  );
}

const deleteCommand: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'delete');
  const statements = documentArray(cmd, 'deletes');
  const view = ctx.view(name);
  let n = 0;
  for (const statement of statements) {
    // Both are required fields of a delete statement (drivers always send them).
    for (const field of ['q', 'limit']) {
      if (statement[field] === undefined) {
        throw missingField(`delete.deletes.${field}`);
      }
    }
    const limit = deleteLimit(statement.limit);
    if (limit !== 0 && limit !== 1) {
      throw new CommandError('FailedToParse', `The limit field in delete objects must be 0 or 1. Got ${limit}`);
    }
    // Compiled even when the collection does not exist: a bad filter fails as on mongod.
    compileFilter(statement.q as Document | undefined);
    if (!view) continue;
    const collation = optionalDocument(statement, 'collation');
    let matched = matchingDocuments(view, statement.q as Document | undefined, limit, collation);
    if (limit === 1) matched = matched.slice(0, 1);
    for (const doc of matched) view.remove(CollectionStore.idKey(doc));
    n += matched.length;
  }
  return { n, ok: 1 };
};

/**
 * Runs `execute`, the part of findAndModify mongod's plan executor runs (the
 * update or insert of the document found), its errors worded as mongod's:
 * "Plan executor error during findAndModify :: caused by :: …" (an E11000
 * or a WriteConflict too), code and extra fields kept.
 */
function inPlanExecutor<T>(execute: () => T): T {
  try {
    return execute();
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    throw new CommandError(
      error.codeName,
      `Plan executor error during findAndModify :: caused by :: ${error.message}`,
      error.extra,
    );
  }
}

const findAndModify: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, Object.keys(cmd)[0]!);
  const query = optionalDocument(cmd, 'query') ?? {};
  const sort = optionalDocument(cmd, 'sort', 'findAndModify.sort');
  const fields = optionalDocument(cmd, 'fields');
  const remove = safeBool(cmd, 'remove', 'findAndModify.remove');
  const upsert = safeBool(cmd, 'upsert', 'findAndModify.upsert');
  const returnNew = safeBool(cmd, 'new', 'findAndModify.new');
  const updateSpec = cmd.update as Document | Document[] | undefined;
  if (remove) {
    if (updateSpec !== undefined)
      throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
    // mongod's message ends with a space.
    if (upsert) throw new CommandError('FailedToParse', 'Cannot specify both upsert=true and remove=true ');
    if (returnNew) {
      throw new CommandError(
        'FailedToParse',
        "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
      );
    }
  } else if (updateSpec === undefined) {
    throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  }
  const arrayFilters = optionalDocumentArray(cmd.arrayFilters, 'findAndModify.arrayFilters');
  if (!remove) parseUpdate(updateSpec!, arrayFilters);
  projectDocuments([], fields);
  const view = ctx.view(name, upsert);
  const collation = optionalDocument(cmd, 'collation');
  const [target] = runQuery(view, { filter: query, sort, limit: 1, collation }).docs;
  const project = (doc: Document | undefined): Document | null =>
    doc ? projectDocuments([doc], fields, query)[0]! : null;

  if (remove) {
    if (!target || !view) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
    view.remove(CollectionStore.idKey(target));
    return { lastErrorObject: { n: 1 }, value: project(target), ok: 1 };
  }
  if (target && view) {
    const updated = inPlanExecutor(() => {
      const next = applyUpdate(target, updateSpec!, { filter: query, arrayFilters });
      if (!sameBson(target, next)) {
        view.replace(
          CollectionStore.idKey(target),
          storable(ctx, name, cmd)(next, 'update', target),
          updateKind(updateSpec) === 'replacement' ? 'replace' : 'update',
        );
      }
      return next;
    });
    return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(returnNew ? updated : target), ok: 1 };
  }
  if (!upsert || !view) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  const doc = inPlanExecutor(() => {
    const built = storable(ctx, name, cmd)(buildUpsertDocument(query, updateSpec!, arrayFilters), 'update');
    view.insert(built);
    return built;
  });
  return {
    lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
    value: returnNew ? project(doc) : null,
    ok: 1,
  };
};

/** insert, update, delete, findAndModify. */
export const WRITE_COMMANDS: Record<string, CommandHandler> = {
  insert,
  update,
  delete: deleteCommand,
  findAndModify,
  findandmodify: findAndModify,
};
