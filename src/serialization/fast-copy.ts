/**
 * The recursive fast path of the walk, for JSON-like data and for hydrated
 * mongoose documents whose schema asks for nothing `toJSON()` computes:
 * plain objects, arrays (a document's array proxies through their backing
 * array), ObjectIds of an already verified bson copy, BSON scalars, Dates and
 * such documents and subdocuments. It copies plain objects and arrays
 * natively (spread, slice) and overwrites only converted entries, copies a
 * document's `_doc` by the copier compiled for its key list
 * (document-shapes.ts) or else key by key in one pass, and applies
 * mongoose's `minimize`, version key and `id` virtual exactly as the frame
 * walk does (mongoose-document-frame.ts), without frames or cycle bookkeeping:
 * on hydrated documents with id arrays and subdocument arrays that
 * bookkeeping was most of the cost (bench/serializer.bench.ts).
 *
 * Anything else (a schema with transforms, getters or other virtuals, class
 * instances, Maps, look-alike ObjectIds, a `__proto__` key, depth) answers
 * {@link BAIL} and the full walk starts over: the work done so far is lost,
 * at most one extra pass. serialize-object-ids.spec.ts and
 * mongoose-document.spec.ts compare both paths' output.
 */
import {
  convertBsonValue,
  int64ToJson,
  knownObjectIdHex,
  knownObjectIdPrototype,
  objectIdToHex,
} from './bson-values.js';
import { abandonShape, matchShape, shapeCopy, type EntryCopy } from './document-shapes.js';
import { idVirtualValue } from './mongoose-document-frame.js';
import {
  documentMinimize,
  documentPlan,
  dropsWhenEmpty,
  effectiveVirtuals,
  isMongooseDocument,
  needsToJSON,
  passedVirtuals,
} from './mongoose-document.js';
import type { DocumentState } from './walk-frames.js';

/** Returned when the value needs the full walk. */
export const BAIL = Symbol('BAIL');

/** Returned for an entry of an object that mongoose's `minimize` leaves out (an empty nested object). */
const DROP = Symbol('DROP');

/**
 * Depth up to which the fast path recurses. Beyond it (deep data, or a
 * cycle, which is infinitely deep) the full walk takes over, so the call
 * stack stays short and cycles get their error.
 */
const FAST_DEPTH = 32;

/** Where the copy is: inside which document, with which `minimize`, keeping the version key or not. */
interface Scope {
  readonly minimize: boolean;
  readonly document: DocumentState | undefined;
  readonly keepVersionKey: boolean;
}

const VIRTUALS = [true, false, undefined] as const;

/**
 * Every scope inside a document, by keepVersionKey, minimize, isSubdocument
 * and the index of optionsVirtuals in {@link VIRTUALS}: a document picks one
 * instead of allocating its own.
 */
const DOCUMENT_SCOPES: readonly Scope[][][][] = [false, true].map((keepVersionKey) =>
  [false, true].map((minimize) =>
    [false, true].map((isSubdocument) =>
      VIRTUALS.map((optionsVirtuals) =>
        Object.freeze({ minimize, keepVersionKey, document: Object.freeze({ isSubdocument, optionsVirtuals }) }),
      ),
    ),
  ),
);

const ROOT_SCOPES: readonly Scope[] = [
  Object.freeze({ minimize: false, document: undefined, keepVersionKey: false }),
  Object.freeze({ minimize: false, document: undefined, keepVersionKey: true }),
];

/**
 * JSON-ready copy of `root` (as the walker's), or {@link BAIL}. Used only
 * without `exposeId`, which the frame walk implements.
 */
export function copyFast(root: object, keepVersionKey: boolean): unknown {
  forInOwnOnly = undefined;
  return copyValue(root, 0, ROOT_SCOPES[keepVersionKey ? 1 : 0], false);
}

/**
 * Whether `for…in` over an object whose prototype is `Object.prototype` lists
 * only its own keys, i.e. nothing polluted `Object.prototype` with an
 * enumerable key. Checked once per {@link copyFast} call that reaches a document.
 */
let forInOwnOnly: boolean | undefined;

/** Whether `out` has no own enumerable key (what mongoose's `minimize` tests). */
function isEmpty(out: object): boolean {
  // `for…in` stops at the first key, an own one unless Object.prototype is polluted.
  for (const key in out) if (Object.hasOwn(out, key)) return false;
  return true;
}

/**
 * The copy of one value found in `scope`; `inObject` when it is an object's
 * entry, where an empty nested object may be dropped ({@link DROP}).
 */
function copyValue(value: object, depth: number, scope: Scope, inObject: boolean): unknown {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === Object.prototype) {
    if (depth > FAST_DEPTH || (value as { _bsontype?: unknown })._bsontype !== undefined) return BAIL;
    const out: Record<string, unknown> = { ...value };
    if (!copyEntries(out, depth, scope)) return BAIL;
    // mongoose's minimize drops empty nested objects, except directly inside arrays.
    return inObject && scope.minimize && isEmpty(out) ? DROP : out;
  }
  if (proto === knownObjectIdPrototype()) {
    return knownObjectIdHex(value) ?? BAIL;
  }
  if (proto === Date.prototype) return value;
  if (Array.isArray(value)) {
    // Outside documents only true arrays: the frame walk copies other array-likes.
    if (depth > FAST_DEPTH || (scope.document === undefined && proto !== Array.prototype)) return BAIL;
    // Arrays of a document are proxies (mongoose 6+); their backing array is read much faster.
    const backing = scope.document !== undefined ? (value as { __array?: unknown }).__array : undefined;
    const out = (Array.isArray(backing) ? backing : value).slice() as unknown[];
    const idPrototype = knownObjectIdPrototype();
    for (let i = 0; i < out.length; i++) {
      const item = out[i];
      if (item !== null && typeof item === 'object') {
        // The common entry first, without the call: an id of the verified bson copy.
        const hex = Object.getPrototypeOf(item) === idPrototype ? knownObjectIdHex(item) : undefined;
        if (hex !== undefined) {
          out[i] = hex;
          continue;
        }
        const copy = copyValue(item, depth + 1, scope, false);
        if (copy === BAIL) return BAIL;
        if (copy !== item) out[i] = copy;
      } else if (typeof item === 'bigint') {
        out[i] = int64ToJson(item);
      }
    }
    return out;
  }
  if ((value as { $__?: unknown }).$__ != null && isMongooseDocument(value)) {
    return depth > FAST_DEPTH ? BAIL : copyDocument(value, depth, scope, inObject);
  }
  const bsontype = (value as { _bsontype?: unknown })._bsontype;
  if (bsontype === 'ObjectId' || bsontype === 'ObjectID') {
    // Another verified copy (bson's ESM and CommonJS builds are two classes), or a first sighting.
    return objectIdToHex(value) ?? BAIL;
  }
  if (value instanceof Date) return value;
  if (typeof bsontype === 'string' || Buffer.isBuffer(value)) {
    // Decimal128, Long, Binary, Buffer…: scalars. Values whose own toJSON() gives an object go to the full walk.
    const converted = convertBsonValue(value);
    return typeof converted === 'string' || typeof converted === 'number' ? converted : BAIL;
  }
  return BAIL;
}

/** Converts the entries of `out` (a shallow copy) in place; `false` to bail. */
function copyEntries(out: Record<string, unknown>, depth: number, scope: Scope): boolean {
  const idPrototype = knownObjectIdPrototype();
  for (const key in out) {
    const item = out[key];
    if (item !== null && typeof item === 'object') {
      // Assigning `__proto__` would set the prototype: the frame walk defines it instead.
      if (key === '__proto__') return false;
      // The common entry first, without the call: an id of the verified bson copy.
      const hex = Object.getPrototypeOf(item) === idPrototype ? knownObjectIdHex(item) : undefined;
      if (hex !== undefined) {
        out[key] = hex;
        continue;
      }
      const copy = copyValue(item, depth + 1, scope, true);
      if (copy === BAIL) return false;
      if (copy === DROP) delete out[key];
      else if (copy !== item) out[key] = copy;
    } else if (typeof item === 'bigint') {
      out[key] = int64ToJson(item);
    } else if (item === undefined && scope.minimize) {
      delete out[key];
    }
  }
  return true;
}

/**
 * The copy of a document's `_doc` without `versionKey`, its entries
 * converted on the way, or `undefined` to bail. Key by key rather than a
 * spread, in one pass: a spread of `_doc` is slow when it is in V8's
 * dictionary mode (see `copyData`) and needs a second loop over the copy.
 * A `for…in` is faster than `Object.keys` over an object in fast mode, and
 * slower in dictionary mode; `keys` is `Object.keys(src)` when `_doc` is
 * likely in dictionary mode (`DocumentPlan.dictionary`).
 */
function copyDocumentEntries(
  src: Record<string, unknown>,
  keys: readonly string[] | undefined,
  versionKey: string | undefined,
  depth: number,
  scope: Scope,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (
    keys !== undefined ||
    !(forInOwnOnly ??= isEmpty(Object.prototype)) ||
    Object.getPrototypeOf(src) !== Object.prototype
  ) {
    const list = keys ?? Object.keys(src);
    for (let i = 0; i < list.length; i++) {
      const key = list[i];
      if (key !== versionKey && !copyEntry(out, key, src[key], depth, scope)) return undefined;
    }
  } else {
    for (const key in src) {
      if (key !== versionKey && !copyEntry(out, key, src[key], depth, scope)) return undefined;
    }
  }
  return out;
}

/** Writes the copy of one entry of a document to `out`; `false` to bail. */
function copyEntry(out: Record<string, unknown>, key: string, item: unknown, depth: number, scope: Scope): boolean {
  // Assigning `__proto__` would set the prototype: the frame walk defines it instead.
  if (key === '__proto__' && item !== null && typeof item === 'object') return false;
  const copy = copyEntryValue(item, depth, scope);
  if (copy === BAIL) return false;
  if (copy !== DROP) out[key] = copy;
  return true;
}

/**
 * The copy of a document's `_doc` by the compiled copier of its key list
 * (document-shapes.ts), {@link BAIL}, or `undefined` when the key-by-key
 * copy has to do it.
 */
function copyShape(
  plan: ReturnType<typeof documentPlan>,
  src: Record<string, unknown>,
  keys: readonly string[] | undefined,
  versionKey: string | undefined,
  depth: number,
  scope: Scope,
): Record<string, unknown> | typeof BAIL | undefined {
  // A key list matched by for…in must be the own keys; the copier reads them by name.
  if (!(forInOwnOnly ??= isEmpty(Object.prototype)) || Object.getPrototypeOf(src) !== Object.prototype)
    return undefined;
  const shape = matchShape(plan.shapes, src, keys);
  if (shape === undefined) return undefined;
  const copy = shapeCopy(shape, versionKey);
  if (copy === null) return undefined;
  const out = copy(src, depth, scope, copyEntryValue as EntryCopy);
  if (out === BAIL) return BAIL;
  if (typeof out === 'symbol') {
    // An entry to leave out (minimize): a compiled copier has every key, so this list goes key by key from now on.
    abandonShape(shape);
    return undefined;
  }
  return out as Record<string, unknown>;
}

/**
 * The copy of one entry of a document (for {@link copyEntry} and the
 * compiled copiers): the entry's copy, {@link BAIL}, or {@link DROP} to leave it out.
 */
function copyEntryValue(item: unknown, depth: number, scope: Scope): unknown {
  if (item !== null && typeof item === 'object') {
    // The common entry first, without the call: an id of the verified bson copy.
    const hex = Object.getPrototypeOf(item) === knownObjectIdPrototype() ? knownObjectIdHex(item) : undefined;
    return hex ?? copyValue(item, depth + 1, scope, true);
  }
  if (typeof item === 'bigint') return int64ToJson(item);
  return item === undefined && scope.minimize ? DROP : item;
}

/** A hydrated document read from `_doc`, as `enterDocument` does it, or {@link BAIL} when only `toJSON()` can. */
function copyDocument(
  doc: Parameters<typeof documentPlan>[0],
  depth: number,
  scope: Scope,
  inObject: boolean,
): unknown {
  const plan = documentPlan(doc);
  const enclosing = scope.document;
  const virtuals = effectiveVirtuals(plan, enclosing);
  if (needsToJSON(plan, virtuals)) return BAIL;
  const src = doc._doc;
  const minimize = documentMinimize(doc, plan);
  const isSubdocument = doc.$isSubdocument === true;
  const optionsVirtuals = passedVirtuals(plan, enclosing);
  const inner =
    DOCUMENT_SCOPES[+scope.keepVersionKey][+minimize][+isSubdocument][
      optionsVirtuals === true ? 0 : optionsVirtuals === false ? 1 : 2
    ];
  const versionKey = scope.keepVersionKey ? undefined : plan.versionKey;
  // One listing of a dictionary-mode `_doc`, for matching its key list and for the key-by-key copy.
  const keys = plan.dictionary ? Object.keys(src) : undefined;
  const compiled = copyShape(plan, src, keys, versionKey, depth, inner);
  if (compiled === BAIL) return BAIL;
  const out = compiled ?? copyDocumentEntries(src, keys, versionKey, depth, inner);
  if (out === undefined) return BAIL;
  if (virtuals === true && plan.idVirtual) out.id = idVirtualValue(src._id);
  // An empty single-nested subdocument leaves its parent object when the parent minimizes (as in mongoose 9).
  return inObject && enclosing !== undefined && dropsWhenEmpty(doc, scope.minimize) && isEmpty(out) ? DROP : out;
}
