import type { ClientSession, HydratedDocument, Schema } from 'mongoose';
import { SequenceConfigError } from './sequence-config.error.js';
import { SequenceFieldBatcher } from './sequence-field-batcher.js';
import type { SequenceScope, SequenceScopeValue } from './sequence-key.js';
import type { SequenceService } from './sequence.service.js';

/** A new document as the plugin's callbacks see it. */
export type SequenceDocument = HydratedDocument<Record<string, unknown>>;

/** Options of {@link sequencePlugin}: which field gets numbers from which sequence. */
export interface SequencePluginOptions {
  /**
   * The service that hands out the numbers, or a function returning it, called
   * at the first save (for schemas built before the service exists). In Nest,
   * inject it into `MongooseModule.forFeatureAsync({ useFactory, inject: [SequenceService] })`;
   * outside Nest, use `SequenceService.fromConnection(connection)`.
   */
  sequences: SequenceService | (() => SequenceService);
  /** Path that receives the number, `_id` included (declare it `Number` or `String` then). */
  field: string;
  /**
   * Name of the sequence, defined in `SequenceModule.forRoot({ definitions })` or with `define()`.
   * @default the field name (`'number'`); `_id` needs an explicit name
   */
  sequence?: string;
  /**
   * `true`: the value of `nextFormatted()` (`ORD-2026-000042`); `false`: the number.
   * @default true when the field is a `String` path, false otherwise
   */
  formatted?: boolean;
  /**
   * Which counter: a path (one counter per value, e.g. `'tenantId'`), several
   * paths (one per combination, `['storeId', 'region']` → scope
   * `{ storeId, region }`), or a function of the document returning a scope.
   * @default none: one counter for the whole collection
   */
  scope?: string | readonly string[] | ((doc: SequenceDocument) => SequenceScope | undefined);
  /**
   * Leaves the field empty for this document when it returns `true`, e.g.
   * `(doc) => doc.$locals.imported === true`. A field that already has a value
   * is never overwritten, whatever this says.
   * @default none
   */
  skip?: (doc: SequenceDocument) => boolean;
  /**
   * Takes the number in the document's session (`doc.$session()`, set by
   * `save({ session })`, `create(docs, { session })` and `insertMany(docs, { session })`),
   * so an aborted transaction gives it back. `false` for sequences with `cache`.
   * @default true
   */
  useSession?: boolean;
}

const NUMERIC_PATHS = new Set(['Number', 'BigInt', 'Decimal128', 'Mixed']);

/**
 * A mongoose schema plugin that fills `field` from a sequence when a new
 * document is first validated or saved: `save()`, `Model.create()` and
 * `insertMany()` (whose documents share one counter round trip per counter).
 * It runs before validation, so the field may be `required`; a document
 * validated and then thrown away leaves a gap, as any unused number does.
 *
 * `schema.plugin(sequencePlugin, { sequences, field: 'number', sequence: 'orders', scope: ['storeId', 'region'] })`
 * @throws SequenceConfigError at once when the options do not fit the schema
 */
export function sequencePlugin(schema: Schema, options: SequencePluginOptions): void {
  const config = resolvePluginOptions(schema, options);
  const { field, skip, useSession } = config;
  const batcher = new SequenceFieldBatcher(config.service, { name: config.sequence, formatted: config.formatted });

  async function assign(this: SequenceDocument): Promise<void> {
    if (!this.isNew) return;
    const current: unknown = this.get(field);
    if (current !== undefined && current !== null) return;
    if (skip?.(this) === true) return;
    const session: ClientSession | null = useSession ? this.$session() : null;
    const value = await batcher.take(config.scopeOf(this), session ?? undefined);
    this.set(field, value);
  }

  // validate: before the validators, so `required` holds; save: for saves that skip validation.
  schema.pre('validate', assign);
  schema.pre('save', assign);
}

interface ResolvedPluginOptions {
  field: string;
  sequence: string;
  formatted: boolean;
  useSession: boolean;
  skip: ((doc: SequenceDocument) => boolean) | undefined;
  service: () => SequenceService;
  scopeOf: (doc: SequenceDocument) => SequenceScope | undefined;
}

function resolvePluginOptions(schema: Schema, options: SequencePluginOptions): ResolvedPluginOptions {
  const label = 'sequencePlugin';
  if (options === null || typeof options !== 'object') {
    throw new SequenceConfigError(
      `${label} needs options: schema.plugin(sequencePlugin, { sequences, field: 'number', sequence: 'orders' }).`,
    );
  }
  const { field, sequences, skip, scope } = options;
  if (typeof field !== 'string' || field === '') {
    throw new SequenceConfigError(`${label}: field must name a path of the schema, e.g. field: 'number'.`);
  }
  const path = schema.path(field) as { instance?: string } | undefined;
  if (path === undefined) {
    throw new SequenceConfigError(
      `${label}: the schema has no path "${field}"; declare it first, e.g. @Prop({ type: String, required: true, unique: true }) ${field}.`,
    );
  }
  const instance = path.instance ?? '';
  if (instance !== 'String' && !NUMERIC_PATHS.has(instance)) {
    throw new SequenceConfigError(
      `${label}: path "${field}" is ${instance}; a sequence fills Number, BigInt or String paths` +
        (field === '_id' ? ' (declare _id: Number or _id: String in the schema).' : '.'),
    );
  }
  if (field === '_id' && options.sequence === undefined) {
    throw new SequenceConfigError(`${label}: numbering _id needs a sequence name, e.g. sequence: 'orders'.`);
  }
  const sequence = options.sequence ?? field;
  const formatted = options.formatted ?? instance === 'String';
  if (typeof formatted !== 'boolean') throw new SequenceConfigError(`${label}: formatted must be true or false.`);
  const useSession = options.useSession ?? true;
  if (typeof useSession !== 'boolean') throw new SequenceConfigError(`${label}: useSession must be true or false.`);
  if (skip !== undefined && typeof skip !== 'function') {
    throw new SequenceConfigError(`${label}: skip must be a function (doc) => boolean.`);
  }
  if (typeof sequences !== 'function' && (typeof sequences !== 'object' || sequences === null)) {
    throw new SequenceConfigError(
      `${label}: sequences must be the SequenceService (or () => service); in Nest, inject it into MongooseModule.forFeatureAsync().`,
    );
  }
  const service = (): SequenceService => {
    const resolved = typeof sequences === 'function' ? sequences() : sequences;
    if (resolved === undefined || resolved === null || typeof resolved.nextBlock !== 'function') {
      throw new SequenceConfigError(`${label}: sequences() returned no SequenceService.`);
    }
    return resolved;
  };
  return { field, sequence, formatted, useSession, skip, service, scopeOf: scopeReader(schema, scope, label) };
}

function scopeReader(
  schema: Schema,
  scope: SequencePluginOptions['scope'],
  label: string,
): (doc: SequenceDocument) => SequenceScope | undefined {
  if (scope === undefined) return () => undefined;
  if (typeof scope === 'function') return scope;
  const paths = typeof scope === 'string' ? [scope] : Array.isArray(scope) ? [...(scope as string[])] : undefined;
  if (paths === undefined || paths.length === 0) {
    throw new SequenceConfigError(`${label}: scope must be a path, an array of paths or a function of the document.`);
  }
  for (const p of paths) {
    // Through `unknown`: comparing mongoose's SchemaType generics with `undefined` cost
    // the type-checker 4–5 s, two thirds of the library's whole type-check.
    const declared: unknown = typeof p === 'string' ? schema.path(p) : undefined;
    if (declared === undefined) {
      throw new SequenceConfigError(`${label}: scope path ${JSON.stringify(p)} is not a path of the schema.`);
    }
  }
  const read = (doc: SequenceDocument, p: string): SequenceScopeValue => {
    const value: unknown = doc.get(p);
    if (value === undefined || value === null) {
      throw new SequenceConfigError(
        `${label}: the document has no value at "${p}", which scopes its sequence number; set it before saving.`,
      );
    }
    return value as SequenceScopeValue;
  };
  if (typeof scope === 'string') return (doc) => read(doc, scope);
  // Nested paths become field names with "_" ("store.id" → store_id), as scope fields are identifiers.
  return (doc) => Object.fromEntries(paths.map((p) => [p.replace(/\./g, '_'), read(doc, p)]));
}
