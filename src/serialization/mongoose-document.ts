/**
 * Reading hydrated mongoose documents without `toJSON()`.
 *
 * `doc.toJSON()` deep-clones the document and then the serializer would walk
 * the clone again; reading `doc._doc` directly is several times faster
 * (see bench/serializer.bench.ts). That is only equivalent while the schema
 * asks for nothing `toJSON()` computes, so every schema gets a plan once:
 * the fast read when its `toJSON` options are among {@link FAST_OPTIONS} and no
 * path has a `transform`, otherwise the walker calls `doc.toJSON()` and walks
 * its result. src/serialization/mongoose-document.spec.ts checks the fast read
 * against `toJSON({ flattenObjectIds: true, flattenDecimals: true })`.
 */
import { createDocumentShapes, type DocumentShapes } from './document-shapes.js';

/** The parts of a mongoose 9 document this file reads. */
export interface MongooseDocumentLike {
  $__: object;
  _doc: Record<string, unknown>;
  $__schema: SchemaLike;
  $isSubdocument?: boolean;
  $isDocumentArrayElement?: boolean;
  $__schemaTypeOptions?: { minimize?: boolean };
  constructor: { $__required?: boolean };
  toJSON(options?: object): unknown;
}

interface SchemaLike {
  paths?: Record<string, { defaultValue?: unknown }>;
  options: { toJSON?: Record<string, unknown>; minimize?: boolean; versionKey?: string | false };
  base?: { options?: { toJSON?: Record<string, unknown> } };
  virtuals: Record<string, unknown>;
  pathsWithTransforms?: () => string[] | null;
}

/** How the walker reads documents of one schema. */
export interface DocumentPlan {
  /** `_doc` may be read directly; otherwise call `toJSON()`. */
  fast: boolean;
  /** The schema's `toJSON.virtuals`; `undefined` inherits the parent's (subdocuments). */
  virtuals: boolean | undefined;
  /** The schema has virtuals other than `id`, which only `toJSON()` computes. */
  otherVirtuals: boolean;
  /** Adds `id` when virtuals are on (`false` with the schema option `id: false`). */
  idVirtual: boolean;
  /** Drop empty nested objects, as mongoose's `minimize` does. */
  minimize: boolean;
  /** Name of the version key, or `undefined` when the schema has none. */
  versionKey: string | undefined;
  /**
   * `_doc` is likely in V8's dictionary mode: mongoose deletes and re-adds a
   * key that has a default (array paths always have one) to keep its order
   * when it loads a document. Only the speed of the copy depends on it.
   */
  dictionary: boolean;
  /** Key lists of the schema's documents and their compiled copiers (fast-copy.ts). */
  shapes: DocumentShapes;
}

/** `toJSON` options that change nothing the fast read has to compute. */
const FAST_OPTIONS = new Set([
  'virtuals',
  'versionKey',
  'minimize',
  // The walker flattens Maps, ObjectIds, Decimal128s and UUIDs anyway.
  'flattenMaps',
  'flattenObjectIds',
  'flattenDecimals',
  'flattenUUIDs',
]);
/** Options the fast read supports only when they are off. */
const FAST_WHEN_FALSY = new Set(['getters', 'transform', 'depopulate', 'useProjection', 'schemaFieldsOnly']);

const plans = new WeakMap<object, DocumentPlan>();

/**
 * Whether `value` is a hydrated mongoose document or subdocument (from any
 * copy of mongoose): it carries the internal state `$__` and the data `_doc`.
 */
export function isMongooseDocument(value: object): value is MongooseDocumentLike {
  const candidate = value as Partial<MongooseDocumentLike>;
  return (
    candidate.$__ != null &&
    candidate._doc != null &&
    candidate.$__schema != null &&
    typeof (candidate as { toJSON?: unknown }).toJSON === 'function'
  );
}

function computePlan(schema: SchemaLike): DocumentPlan {
  const defaults: Record<string, unknown> = { ...schema.base?.options?.toJSON, ...schema.options.toJSON };
  let fast = true;
  for (const key of Object.keys(defaults)) {
    if (FAST_WHEN_FALSY.has(key) ? Boolean(defaults[key]) : !FAST_OPTIONS.has(key)) {
      fast = false;
    }
  }
  const virtuals = defaults.virtuals;
  if (virtuals !== undefined && typeof virtuals !== 'boolean') {
    fast = false; // e.g. a list of virtual names
  }
  const transforms = typeof schema.pathsWithTransforms === 'function' ? schema.pathsWithTransforms() : null;
  if (transforms != null && transforms.length > 0) {
    fast = false;
  }
  const minimize = defaults.minimize ?? schema.options.minimize;
  const versionKey = schema.options.versionKey;
  return {
    fast,
    virtuals: typeof virtuals === 'boolean' ? virtuals : undefined,
    otherVirtuals: Object.keys(schema.virtuals).some((name) => name !== 'id'),
    idVirtual: 'id' in schema.virtuals,
    minimize: minimize !== false,
    versionKey: typeof versionKey === 'string' ? versionKey : undefined,
    shapes: createDocumentShapes(),
    dictionary: Object.entries(schema.paths ?? {}).some(
      ([path, type]) => path !== '_id' && type.defaultValue !== undefined,
    ),
  };
}

/** The cached plan of `doc`'s schema. */
export function documentPlan(doc: MongooseDocumentLike): DocumentPlan {
  const schema = doc.$__schema;
  if (schema === lastSchema) return lastPlan!;
  if (schema === previousSchema) {
    // Swap, so that a document and its subdocuments alternate without a WeakMap lookup.
    const plan = previousPlan!;
    previousSchema = lastSchema;
    previousPlan = lastPlan;
    lastSchema = schema;
    lastPlan = plan;
    return plan;
  }
  let plan = plans.get(schema);
  if (plan === undefined) {
    plan = computePlan(schema);
    plans.set(schema, plan);
  }
  previousSchema = lastSchema;
  previousPlan = lastPlan;
  lastSchema = schema;
  lastPlan = plan;
  return plan;
}

// A document and its subdocuments alternate between few schemas; the last two skip the WeakMap.
let lastSchema: object | undefined;
let lastPlan: DocumentPlan | undefined;
let previousSchema: object | undefined;
let previousPlan: DocumentPlan | undefined;

/**
 * Whether the document's own `minimize` (schema type option first, as in
 * mongoose's `$toObject`) is on.
 */
export function documentMinimize(doc: MongooseDocumentLike, plan: DocumentPlan): boolean {
  const own = doc.$__schemaTypeOptions?.minimize;
  return own != null ? own : plan.minimize;
}

/**
 * Whether mongoose would leave an empty single-nested subdocument out of its
 * parent (it keeps required ones and document-array elements), given the
 * parent's `minimize`: the subdocument's own setting does not decide it.
 */
export function dropsWhenEmpty(doc: MongooseDocumentLike, parentMinimize: boolean): boolean {
  return (
    parentMinimize &&
    doc.$isSubdocument === true &&
    doc.$isDocumentArrayElement !== true &&
    !doc.constructor.$__required
  );
}

/** What a walk passes down from an enclosing document (walk-frames.ts `DocumentState`). */
interface EnclosingDocument {
  readonly isSubdocument: boolean;
  readonly optionsVirtuals: boolean | undefined;
}

/**
 * The document's effective `toJSON` virtuals, as mongoose 9 `$toObject`
 * decides them: its own schema's setting, then an enclosing *subdocument*'s.
 */
export function effectiveVirtuals(plan: DocumentPlan, enclosing: EnclosingDocument | undefined): boolean | undefined {
  return plan.virtuals ?? (enclosing?.isSubdocument === true ? enclosing.optionsVirtuals : undefined);
}

/** Whether only `toJSON()` gives the document's JSON (transforms, getters, custom virtuals). */
export function needsToJSON(plan: DocumentPlan, virtuals: boolean | undefined): boolean {
  return !plan.fast || (virtuals === true && plan.otherVirtuals);
}

/** The `virtuals` setting the document passes down to its children. */
export function passedVirtuals(plan: DocumentPlan, enclosing: EnclosingDocument | undefined): boolean | undefined {
  return enclosing?.optionsVirtuals ?? plan.virtuals;
}

/** The version key to leave out of `src`, or `undefined` when it is kept or absent. */
export function droppedVersionKey(
  plan: DocumentPlan,
  src: Record<string, unknown>,
  keepVersionKey: boolean,
): string | undefined {
  return !keepVersionKey && plan.versionKey !== undefined && plan.versionKey in src ? plan.versionKey : undefined;
}

/**
 * A shallow copy of `src` without `versionKey` (if given). A document's
 * `_doc` is often in V8's dictionary mode (see {@link DocumentPlan.dictionary}),
 * where a spread or rest copy takes the slow generic path (2.3 µs for the
 * entity of bench/serializer.bench.ts): key by key is several times faster.
 */
export function copyData(src: Record<string, unknown>, versionKey: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(src);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === versionKey) continue;
    // Assigning `__proto__` would set the copy's prototype: define it instead.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: src[key], enumerable: true, writable: true, configurable: true });
    else out[key] = src[key];
  }
  return out;
}
