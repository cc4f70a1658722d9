import type { Document } from 'bson';

import { bsonEquals } from '../bson/bson-compare.js';
import { UUID } from '../bson/bson-library.cjs';
import { Collation } from '../bson/collation.js';
import { formatDocument, formatKeyValue } from '../bson/format-key-value.js';
import type { IndexSpec } from '../store/collection-index.js';
import { normalizeTextIndexSpec, secondTextIndexError, TEXT_INDEX_OPTIONS } from '../store/text-index-spec.js';
import { typeAlias } from '../query/element-operators.js';
import { collectionName, wrongType } from './command-arguments.js';
import type { CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import { missingField } from './idl-fields.js';
import { openCursor } from './read-commands.js';

function sameKey(a: Document, b: Document): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && bsonEquals(a[k], b[k]));
}

const OPTION_FIELDS = [
  ...(['unique', 'sparse', 'partialFilterExpression', 'expireAfterSeconds', 'collation', 'hidden'] as const),
  ...TEXT_INDEX_OPTIONS,
];

function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  return OPTION_FIELDS.every((field) => {
    const x: unknown = a[field];
    const y: unknown = b[field];
    if (field === 'unique' || field === 'sparse') return Boolean(x) === Boolean(y);
    return x === undefined || y === undefined ? x === y : bsonEquals(x, y);
  });
}

/** MongoDB's largest `expireAfterSeconds` (a signed 32-bit integer). */
const MAX_EXPIRE_AFTER_SECONDS = 2_147_483_647;

/** A TTL index is on one field, with a whole number of seconds from 0 to 2^31 - 1, as in mongod. */
function checkTtl(spec: IndexSpec): void {
  const seconds: unknown = spec.expireAfterSeconds;
  if (seconds === undefined) return;
  const fields = Object.keys(spec.key);
  if (fields.length !== 1) {
    throw new CommandError(
      'CannotCreateIndex',
      `TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: ${formatDocument(spec)}`,
    );
  }
  const n = typeof seconds === 'bigint' ? Number(seconds) : seconds;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > MAX_EXPIRE_AFTER_SECONDS) {
    throw new CommandError(
      'CannotCreateIndex',
      `TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number. Index spec: ${formatDocument(spec)}`,
    );
  }
}

/**
 * An index's collation as listIndexes reports it: its own (`{ locale: 'simple' }`
 * drops it), else the collection's default, with every field filled in.
 */
function indexCollation(spec: IndexSpec, collectionDefault: unknown): IndexSpec {
  const { collation: requested, ...rest } = spec;
  const collation = Collation.resolve(requested, collectionDefault);
  return collation ? { ...rest, collation: { ...collation.spec } } : rest;
}

/** Indexes a collection may have, `_id_` included, as in mongod. */
const MAX_INDEXES = 64;

/** Fields a compound index may have, as in mongod. */
const MAX_COMPOUND_INDEX_KEYS = 32;

/** Types an index key pattern's values may have, as mongod's key pattern check allows: directions and plugin names. */
const KEY_VALUE_TYPES = new Set(['int', 'long', 'double', 'decimal', 'string']);

/** mongod's wording of an error in index specification `spec`. */
function specificationError(
  codeName: 'FailedToParse' | 'TypeMismatch' | 'CannotCreateIndex',
  spec: Document,
  reason: string,
) {
  return new CommandError(codeName, `Error in specification ${formatDocument(spec)} :: caused by :: ${reason}`);
}

/** Index options that are booleans (mongod: "convertible to bool", so numbers too, not strings). */
const BOOLEAN_OPTIONS = new Set(['unique', 'sparse']);
const NUMBER_TYPES = new Set(['int', 'long', 'double', 'decimal']);

/** Options an `_id` index may not have. */
const ID_INDEX_FORBIDDEN = ['unique', 'sparse', 'partialFilterExpression', 'expireAfterSeconds'];

function validateSpec(raw: unknown, collectionDefault: unknown): IndexSpec {
  const spec = raw as IndexSpec;
  // As mongod's validateIndexSpec: each field's type, then the required ones.
  for (const [field, value] of Object.entries(spec)) {
    const type = typeAlias(value);
    if (BOOLEAN_OPTIONS.has(field) && type !== 'bool' && !NUMBER_TYPES.has(type)) {
      throw specificationError(
        'TypeMismatch',
        spec,
        `The field '${field} has value ${field}: ${formatKeyValue(value)}, which is not convertible to bool`,
      );
    }
    // Word for word mongod's (index_key_validate.cpp), which names the wrong field.
    if (field === 'hidden' && type !== 'bool') {
      throw specificationError('TypeMismatch', spec, `The field 'name' must be a bool, but got ${type}`);
    }
  }
  for (const field of ['key', 'name']) {
    if (!Object.hasOwn(spec, field)) {
      throw specificationError(
        'FailedToParse',
        spec,
        `The '${field}' field is a required property of an index specification`,
      );
    }
  }
  if (spec.name === '') {
    throw specificationError('CannotCreateIndex', { ...spec, v: 2 }, 'index name cannot be empty');
  }
  // Documents only: an array key (or a string, enumerated key by key) is no key pattern.
  if (typeAlias(spec.key) !== 'object' || Object.keys(spec.key).length === 0) {
    throw new CommandError('FailedToParse', "Each index specification must have a non-empty 'key' document");
  }
  for (const value of Object.values(spec.key)) {
    const type = typeAlias(value);
    if (!KEY_VALUE_TYPES.has(type)) {
      throw new CommandError(
        'CannotCreateIndex',
        `Values in v:2 index key pattern cannot be of type ${type}. Only numbers > 0, numbers < 0, and strings are allowed.`,
      );
    }
  }
  if (typeof spec.name !== 'string' || spec.name.length === 0) {
    throw new CommandError('FailedToParse', "Each index specification must have a 'name' string");
  }
  // A hashed index hashes one field (compound since 4.4) and cannot enforce uniqueness (HashAccessMethod).
  const hashed = Object.values(spec.key).filter((value) => value === 'hashed').length;
  if (hashed > 1) {
    throw new CommandError(
      'Location31303',
      `A maximum of one index field is allowed to be hashed but found ${hashed} for 'key' ${formatDocument(spec.key)}`,
    );
  }
  if (hashed === 1 && spec.unique === true) {
    throw new CommandError(
      'Location16764',
      'Currently hashed indexes cannot guarantee uniqueness. Use a regular index.',
    );
  }
  const idIndex = Object.keys(spec.key).length === 1 && bsonEquals(spec.key._id, 1);
  const forbidden = idIndex ? ID_INDEX_FORBIDDEN.find((field) => Object.hasOwn(spec, field)) : undefined;
  if (forbidden !== undefined) {
    throw new CommandError(
      'InvalidIndexSpecificationOption',
      `The field '${forbidden}' is not valid for an _id index specification. Specification: ${formatDocument({ ...spec, v: 2 })}`,
    );
  }
  if (idIndex && Object.hasOwn(spec, 'hidden')) throw new CommandError('BadValue', "can't hide _id index");
  checkTtl(spec);
  const { background: _background, ...rest } = spec;
  // mongod keeps `hidden` in a spec only when true (hidden_index.js: "hidden: false" is not added).
  if (rest.hidden === false) delete rest.hidden;
  // mongod names every {_id: 1} index `_id_` (_fixIndexSpec), so creating one again is "already exists", not a name conflict.
  if (idIndex) rest.name = '_id_';
  const normalized = normalizeTextIndexSpec({ v: 2, ...rest } as IndexSpec);
  // mongod's limit on a compound key (its Ordering holds one bit per field); each write computes every field's keys.
  if (Object.keys(normalized.key).length > MAX_COMPOUND_INDEX_KEYS) {
    throw new CommandError('Location13103', 'too many compound keys');
  }
  return indexCollation(normalized, collectionDefault);
}

const createIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'createIndexes', 'BadValue');
  const specs: unknown = cmd.indexes;
  if (specs === undefined) {
    throw missingField('createIndexes.indexes');
  }
  if (specs === null) throw new CommandError('Location10065', 'invalid parameter: expected an object (indexes)');
  if (!Array.isArray(specs)) throw wrongType('createIndexes.indexes', specs, 'array');
  for (const [i, spec] of specs.entries()) {
    if (typeAlias(spec) !== 'object') throw wrongType(`createIndexes.indexes.${i}`, spec, 'object');
  }
  if (specs.length === 0) throw new CommandError('BadValue', 'Must specify at least one index to create');
  const committed = ctx.store.collection(ctx.db, name);
  const { collection, created } = ctx.ensureCollection(name);
  const before = collection.indexSpecs().length;
  const toBuild: IndexSpec[] = [];
  for (const raw of specs) {
    const spec = validateSpec(raw, collection.options.collation);
    const pending = toBuild.find((s) => s.name === spec.name);
    const existing = collection.indexSpecs().find((s) => s.name === spec.name) ?? pending;
    if (existing) {
      if (!sameKey(existing.key, spec.key)) {
        throw new CommandError(
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${formatDocument(spec)}, existing index: ${formatDocument(existing)}`,
        );
      }
      // The same index twice in one command is an error, not "already exists".
      if (pending && sameOptions(pending, spec)) {
        throw new CommandError('IndexAlreadyExists', `Identical index already exists: ${spec.name}`);
      }
      if (!sameOptions(existing, spec)) {
        throw new CommandError(
          'IndexOptionsConflict',
          `An equivalent index already exists with the same name but different options. Requested index: ${spec.name}`,
        );
      }
      continue;
    }
    const sameKeyIndex = [...collection.indexSpecs(), ...toBuild].find(
      (s) => sameKey(s.key, spec.key) && sameOptions(s, spec),
    );
    if (sameKeyIndex) {
      throw new CommandError(
        'IndexOptionsConflict',
        `Index already exists with a different name: ${sameKeyIndex.name}`,
      );
    }
    const textConflict = secondTextIndexError([...collection.indexSpecs(), ...toBuild], spec);
    if (textConflict) throw textConflict;
    // mongod's limit, `_id_` included; every write updates every index.
    if (collection.indexSpecs().length + toBuild.length >= MAX_INDEXES) {
      throw new CommandError(
        'CannotCreateIndex',
        `add index fails, too many indexes for ${ctx.db}.${name} key:${formatDocument(spec.key)}`,
      );
    }
    toBuild.push(spec);
  }
  // mongod builds an index inside a transaction only on a collection the transaction created.
  if (ctx.transaction && committed && toBuild.length > 0) {
    throw new CommandError(
      'OperationNotSupportedInTransaction',
      `Cannot create new indexes on existing collection ${ctx.db}.${name} in a multi-document transaction.`,
    );
  }
  const built: string[] = [];
  try {
    for (const spec of toBuild) {
      collection.addIndex(spec);
      built.push(spec.name);
    }
  } catch (error) {
    // An index build is all-or-nothing for the command.
    for (const indexName of built) collection.indexes.delete(indexName);
    if (!(error instanceof CommandError)) throw error;
    // mongod's words: the build's own UUID, then the collection's.
    const build = new UUID().toHexString(true);
    throw new CommandError(
      error.codeName,
      `Index build failed: ${build}: Collection ${collection.ns} ( ${collection.uuid.toHexString(true)} ) :: caused by :: ${error.message}`,
      error.extra,
    );
  }
  // Built outside a transaction, the indexes (and a collection made for them) move the cluster time now.
  if ((toBuild.length > 0 || created) && !ctx.transaction) ctx.store.changes.catalogChanged();
  const reply: Document = {
    numIndexesBefore: before,
    numIndexesAfter: collection.indexSpecs().length,
    createdCollectionAutomatically: created,
    ok: 1,
  };
  if (toBuild.length === 0) reply.note = 'all indexes already exist';
  return reply;
};

const listIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'listIndexes');
  const collection = ctx.store.collection(ctx.db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
  const batchSize = (cmd.cursor as Document | undefined)?.batchSize as number | undefined;
  return openCursor(ctx, `${ctx.db}.$cmd.listIndexes.${name}`, collection.indexSpecs(), batchSize);
};

const dropIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, Object.keys(cmd)[0]!, 'BadValue');
  const collection = ctx.store.collection(ctx.db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns not found ${ctx.db}.${name}`);
  const before = collection.indexSpecs().length;
  const target: unknown = cmd.index;
  const names: string[] = [];
  if (target === '*') names.push(...collection.indexes.keys());
  else if (Array.isArray(target)) {
    // One by one: spreading a client's array of 400,000 names into push() overflowed the stack.
    for (const item of target) {
      if (typeof item !== 'string') {
        throw new CommandError(
          'TypeMismatch',
          "BSON field 'dropIndexes.index' is the wrong type 'array', expected types '[string']",
        );
      }
      names.push(item);
    }
  } else if (typeof target === 'string') names.push(target);
  else if (target === undefined) {
    throw missingField('dropIndexes.index');
  } else if (typeAlias(target) !== 'object') {
    throw new CommandError(
      'TypeMismatch',
      `BSON field 'dropIndexes.index' is the wrong type '${typeAlias(target)}', expected types '[string, object']`,
    );
  } else if (sameKey(target as Document, { _id: 1 })) {
    throw new CommandError('InvalidOptions', 'cannot drop _id index');
  } else {
    const match = [...collection.indexes.values()].find((index) => sameKey(index.spec.key, target as Document));
    if (!match)
      throw new CommandError('IndexNotFound', `can't find index with key: ${formatDocument(target as Document)}`);
    names.push(match.name);
  }
  for (const indexName of names) {
    if (indexName === '_id_') throw new CommandError('InvalidOptions', 'cannot drop _id index');
    if (!collection.indexes.has(indexName)) {
      throw new CommandError('IndexNotFound', `index not found with name [${indexName}]`);
    }
  }
  for (const indexName of names) {
    collection.indexes.delete(indexName);
    // The cursors whose plan walked it are killed, as on mongod (their getMores fail).
    ctx.cursors.killPlans(collection.ns, `index '${indexName}' dropped`, indexName);
  }
  ctx.store.changes.catalogChanged();
  return { nIndexesWas: before, ok: 1 };
};

/** createIndexes, listIndexes, dropIndexes. */
export const INDEX_COMMANDS: Record<string, CommandHandler> = {
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
};
