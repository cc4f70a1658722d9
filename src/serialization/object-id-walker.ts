import {
  convertBsonValue,
  int64ToJson,
  knownObjectIdHex,
  knownObjectIdPrototype,
  NOT_BSON,
  objectIdToHex,
} from './bson-values.js';
import { excludedOnSerialization } from './class-transformer-metadata.js';
import { getExposeIdMetadata, type ExposeIdMetadata, type ExposeIdOptions } from './expose-id.decorator.js';
import {
  documentMinimize,
  documentPlan,
  dropsWhenEmpty,
  isMongooseDocument,
  type MongooseDocumentLike,
} from './mongoose-document.js';
import { ObjectIdSerializationError } from './object-id-serialization.error.js';

/** What the walker needs to know; see `SerializeObjectIdsOptions`. */
export interface WalkOptions {
  versionKey?: boolean;
  exposeId?: boolean | ExposeIdOptions;
  ignoreDecorators?: boolean;
  /** Omit circular references instead of throwing (class-transformer's `enableCircularCheck`). */
  enableCircularCheck?: boolean;
}

/** The walked value and whether it still holds class instances. */
export interface WalkResult {
  value: unknown;
  /** At least one class instance was copied with its prototype: class-transformer must finish the job. */
  hasClassInstances: boolean;
}

/** The enclosing mongoose document of a frame, for options mongoose passes down. */
interface DocumentState {
  readonly isSubdocument: boolean;
  /** mongoose's merged `options.virtuals` at this document, passed down to children. */
  readonly optionsVirtuals: boolean | undefined;
}

/** Returned by `enter` for a circular reference that is cut. */
const OMIT = Symbol('OMIT');

/**
 * How many frames are checked for cycles by a linear scan; deeper ones are
 * also kept in a Set. Typical payloads are a few levels deep, where scanning
 * a handful of frames is cheaper than Set bookkeeping.
 */
const SCAN_DEPTH = 32;

/** One container being copied. The walk keeps these on an explicit stack. */
class Frame {
  /** Position of the next entry. */
  i = 0;
  /** Entries written to an object `out` (for `minimize`). */
  count = 0;
  /** Key of `out` in the parent's `out`. */
  outKey: string | number = '';
  /** Inside a mongoose document with `minimize`: skip `undefined`, drop empty objects. */
  minimize = false;
  /** Remove `out` from the parent when it ends up empty. */
  dropIfEmpty = false;
  document: DocumentState | undefined = undefined;
  /** Output name of `keys[0]` when it is an exposed id. */
  renameFirst: string | undefined = undefined;
  /** Keys copied without walking (excluded by class-transformer). */
  raw: ReadonlySet<string> | undefined = undefined;
  /**
   * Values in the order of `keys` (or the array itself), read without a
   * keyed lookup per property; `undefined` to read `src[key]`.
   */
  values: readonly unknown[] | undefined = undefined;
  /**
   * `out` starts as a shallow copy of the source (spread/slice, done natively),
   * so only converted entries are written. Otherwise `out` is built entry by
   * entry (renamed id, Maps).
   */
  prefilled = false;
  /** `id` virtual to append when the frame is complete. */
  idVirtual: unknown = OMIT;

  constructor(
    /** The value whose copy this is, for cycle detection and error paths. */
    readonly ident: object,
    /** Object read by key, or the array read by index. */
    readonly src: Record<string, unknown> | readonly unknown[],
    /** Keys of an object-like `src`, or `undefined` for arrays. */
    readonly keys: string[] | undefined,
    readonly out: Record<string, unknown> | unknown[],
    readonly parent: Frame | undefined,
    /** Key or index of `ident` in the parent's source, for paths. */
    readonly parentKey: string | number,
  ) {
    if (parent !== undefined) {
      this.minimize = parent.minimize;
      this.document = parent.document;
    }
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function pathOf(frame: Frame | undefined, key?: string | number): string {
  const parts: string[] = [];
  const push = (f: Frame, k: string | number): void => {
    parts.push(
      f.keys === undefined ? `[${String(k)}]` : IDENTIFIER.test(String(k)) ? `.${k}` : `[${JSON.stringify(k)}]`,
    );
  };
  if (frame !== undefined && key !== undefined) push(frame, key);
  for (let f = frame; f?.parent !== undefined; f = f.parent) push(f.parent, f.parentKey);
  return '$' + parts.reverse().join('');
}

function resolveExposeId(option: WalkOptions['exposeId']): ExposeIdMetadata | undefined {
  if (!option) return undefined;
  const settings = option === true ? {} : option;
  return { source: '_id', as: settings.as ?? 'id', keepUnderscoreId: settings.keepUnderscoreId ?? false };
}

/** Keys with the id source first (written under its new name); without the target key and, if dropped, the source. */
function exposedKeys(keys: string[], expose: ExposeIdMetadata, dropSource: boolean): string[] {
  const reordered = [expose.source];
  for (const key of keys) {
    if (key !== expose.as && (key !== expose.source || !dropSource)) reordered.push(key);
  }
  return reordered;
}

/** mongoose's `id` virtual: `_id` as a string, or null. */
function idVirtualValue(id: unknown): unknown {
  if (id == null) return null;
  if (typeof id === 'object') {
    const converted = convertBsonValue(id);
    return typeof converted === 'string' ? converted : String(id);
  }
  return String(id);
}

/** One walk; the state lives in fields so that nothing is allocated per call but the frames. */
class Walk {
  hasClassInstances = false;
  private readonly stack: Frame[] = [];
  private deep: Set<object> | undefined;
  private readonly exposeId: ExposeIdMetadata | undefined;
  private readonly keepVersionKey: boolean;
  private readonly readDecorators: boolean;
  private readonly cutCycles: boolean;

  constructor(options: WalkOptions) {
    this.exposeId = resolveExposeId(options.exposeId);
    this.keepVersionKey = options.versionKey === true;
    this.readDecorators = options.ignoreDecorators !== true;
    this.cutCycles = options.enableCircularCheck === true;
  }

  run(root: object): unknown {
    const first = this.enter(root, undefined, '$');
    if (!(first instanceof Frame)) {
      return first;
    }
    const stack = this.stack;
    stack.push(first);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      const keys = frame.keys;
      const n = keys === undefined ? (frame.src as readonly unknown[]).length : keys.length;
      if (frame.i >= n) {
        this.leave(frame);
        continue;
      }
      const index = frame.i++;
      const values = frame.values;
      let key: string | number;
      let value: unknown;
      if (keys === undefined) {
        key = index;
        value = values![index];
      } else {
        key = keys[index];
        value = values !== undefined ? values[index] : (frame.src as Record<string, unknown>)[key];
      }
      const renaming = index === 0 && frame.renameFirst !== undefined;
      const outKey = renaming ? frame.renameFirst! : key;

      if (value === null || typeof value !== 'object') {
        if (frame.prefilled) {
          if (typeof value === 'bigint') (frame.out as Record<string, unknown>)[key] = int64ToJson(value);
          else if (value === undefined && frame.minimize) unset(frame, key);
        } else {
          write(frame, outKey, typeof value === 'bigint' ? int64ToJson(value) : value);
        }
        continue;
      }
      // An exposed id is walked even when its source property is excluded.
      if (frame.raw !== undefined && !renaming && frame.raw.has(key as string)) {
        if (!frame.prefilled) write(frame, outKey, value);
        continue;
      }
      const entered = this.enter(value, frame, key);
      if (entered instanceof Frame) {
        write(frame, outKey, entered.out);
        entered.outKey = outKey;
        if (stack.length >= SCAN_DEPTH) (this.deep ??= new Set()).add(entered.ident);
        stack.push(entered);
      } else if (entered === OMIT) {
        if (frame.prefilled) unset(frame, key);
      } else if (!frame.prefilled || entered !== value) {
        write(frame, outKey, entered);
      }
    }
    return first.out;
  }

  private leave(frame: Frame): void {
    if (frame.idVirtual !== OMIT) {
      (frame.out as Record<string, unknown>).id = frame.idVirtual;
      frame.count++;
    }
    if (this.stack.length > SCAN_DEPTH) this.deep!.delete(frame.ident);
    this.stack.pop();
    const parent = frame.parent;
    if (frame.dropIfEmpty && frame.count === 0 && parent !== undefined && parent.keys !== undefined) {
      delete (parent.out as Record<string, unknown>)[frame.outKey];
      parent.count--;
    }
  }

  private isAncestor(value: object): boolean {
    const stack = this.stack;
    const scan = stack.length < SCAN_DEPTH ? stack.length : SCAN_DEPTH;
    for (let j = 0; j < scan; j++) if (stack[j].ident === value) return true;
    return this.deep !== undefined && this.deep.has(value);
  }

  private circular(value: object, parent: Frame | undefined, key: string | number): typeof OMIT {
    if (this.cutCycles) return OMIT;
    const ancestor = this.stack.find((f) => f.ident === value);
    const path = pathOf(parent, key);
    throw new ObjectIdSerializationError(
      `Converting circular structure at ${path}: it refers back to ${pathOf(ancestor)}. ` +
        'Remove the back-reference, mark it @Exclude() on its class, leave it out of the query ' +
        '(select/populate), or pass enableCircularCheck: true to omit it.',
      path,
    );
  }

  /** Returns the converted value, or a new frame to walk. */
  private enter(value: object, parent: Frame | undefined, key: string | number): unknown {
    const proto = Object.getPrototypeOf(value) as object | null;
    if (proto !== null && proto === knownObjectIdPrototype()) {
      // The usual case: an ObjectId of a bson copy already verified (see `objectIdToHex`).
      const hex = knownObjectIdHex(value);
      if (hex !== undefined) return hex;
    }
    if (proto === Object.prototype || proto === null) {
      const src = value as Record<string, unknown>;
      // A look-alike ObjectId from another bson copy may be a plain object; other
      // `_bsontype` tags on plain objects are plain JSON data (no BSON class behind them).
      if (src._bsontype !== undefined) {
        const hex = objectIdToHex(value);
        if (hex !== undefined) return hex;
      }
      if (parent !== undefined && this.isAncestor(value)) return this.circular(value, parent, key);
      const expose = this.exposeId !== undefined && src._id !== undefined ? this.exposeId : undefined;
      const frame =
        expose === undefined
          ? prefilledObject(
              value,
              proto === null ? Object.assign(Object.create(null) as object, src) : { ...src },
              parent,
              key,
            )
          : this.renamedObject(value, src, Object.keys(src), expose, !expose.keepUnderscoreId, {}, parent, key);
      // mongoose's minimize drops empty nested objects, except directly inside arrays.
      frame.dropIfEmpty = frame.minimize && parent!.keys !== undefined;
      return frame;
    }
    if (Array.isArray(value)) {
      if (parent !== undefined && this.isAncestor(value)) return this.circular(value, parent, key);
      // Arrays of a document are proxies (mongoose 6+); their backing array is read much faster.
      const backing = parent?.document !== undefined ? (value as { __array?: unknown }).__array : undefined;
      return this.arrayFrame(value, Array.isArray(backing) ? (backing as unknown[]) : value, parent, key);
    }
    // Documents first: they are the common non-plain value and `$__` is one cheap read.
    if ((value as { $__?: unknown }).$__ != null && isMongooseDocument(value)) {
      if (parent !== undefined && this.isAncestor(value)) return this.circular(value, parent, key);
      return this.enterDocument(value, parent, key);
    }
    const bson = this.bson(value, parent, key);
    if (bson !== NOT_BSON) return bson;
    if (value instanceof Date) {
      return value;
    }
    if (parent !== undefined && this.isAncestor(value)) return this.circular(value, parent, key);
    if (value instanceof Map) {
      const keys: string[] = [];
      for (const k of value.keys()) keys.push(String(k));
      const frame = new Frame(value, [], keys, {}, parent, key);
      frame.values = Array.from(value.values());
      return frame;
    }
    if (value instanceof Set) {
      return this.arrayFrame(value, Array.from(value), parent, key);
    }
    return this.enterInstance(value, proto, parent, key);
  }

  private arrayFrame(ident: object, items: readonly unknown[], parent: Frame | undefined, key: string | number): Frame {
    // A left-out circular element must shorten the array (as in class-transformer), so build it then.
    const prefill = !this.cutCycles;
    const frame = new Frame(ident, items, undefined, prefill ? items.slice() : [], parent, key);
    frame.values = items;
    frame.prefilled = prefill;
    return frame;
  }

  /** An object whose copy is built key by key, with the id (`expose.source`) first under `expose.as`. */
  private renamedObject(
    ident: object,
    src: Record<string, unknown>,
    keys: string[],
    expose: ExposeIdMetadata,
    dropSource: boolean,
    out: Record<string, unknown>,
    parent: Frame | undefined,
    key: string | number,
  ): Frame {
    const frame = new Frame(ident, src, exposedKeys(keys, expose, dropSource), out, parent, key);
    frame.renameFirst = expose.as;
    return frame;
  }

  /** A BSON scalar's JSON value, walking what other BSON types' `toJSON()` return (a DBRef's ObjectId). */
  private bson(value: object, parent: Frame | undefined, key: string | number): unknown {
    const bson = convertBsonValue(value);
    if (bson !== null && typeof bson === 'object' && bson !== value) return this.enter(bson, parent, key);
    return bson;
  }

  /** A class instance: copied with its prototype, for class-transformer. */
  private enterInstance(value: object, proto: object | null, parent: Frame | undefined, key: string | number): Frame {
    this.hasClassInstances = true;
    const ctor = (value as { constructor?: unknown }).constructor;
    const src = value as Record<string, unknown>;
    let raw: ReadonlySet<string> | undefined;
    let expose: ExposeIdMetadata | undefined;
    // class-transformer drops the source itself (ExposeId registered it as excluded).
    let dropSource = false;
    if (typeof ctor === 'function') {
      if (this.readDecorators) raw = excludedOnSerialization(ctor);
      expose = getExposeIdMetadata(ctor);
    }
    if (expose === undefined && this.exposeId !== undefined) {
      expose = this.exposeId;
      dropSource = !expose.keepUnderscoreId;
    }
    let frame: Frame;
    if (expose !== undefined && src[expose.source] !== undefined) {
      const shadow = Object.create(proto) as Record<string, unknown>;
      frame = this.renamedObject(value, src, Object.keys(src), expose, dropSource, shadow, parent, key);
    } else {
      frame = prefilledObject(value, Object.assign(Object.create(proto) as object, src), parent, key);
    }
    frame.raw = raw;
    return frame;
  }

  private enterDocument(doc: MongooseDocumentLike, parent: Frame | undefined, key: string | number): unknown {
    const plan = documentPlan(doc);
    const enclosing = parent?.document;
    // Mirrors mongoose 9 `$toObject`: the document's own schema setting wins,
    // then the setting of an enclosing *subdocument*.
    const virtuals = plan.virtuals ?? (enclosing?.isSubdocument === true ? enclosing.optionsVirtuals : undefined);
    if (!plan.fast || (virtuals === true && plan.otherVirtuals)) {
      // Schema transforms, getters, custom virtuals: mongoose computes them, the walk converts its output.
      const json = doc.toJSON(this.keepVersionKey ? undefined : { versionKey: false });
      return json !== null && typeof json === 'object' ? this.enter(json, parent, key) : json;
    }
    const src = doc._doc;
    const expose = this.exposeId !== undefined && src._id !== undefined ? this.exposeId : undefined;
    const versionKey =
      !this.keepVersionKey && plan.versionKey !== undefined && plan.versionKey in src ? plan.versionKey : undefined;
    let frame: Frame;
    if (expose !== undefined) {
      let keys = Object.keys(src);
      if (versionKey !== undefined) keys = keys.filter((k) => k !== versionKey);
      frame = this.renamedObject(doc, src, keys, expose, !expose.keepUnderscoreId, {}, parent, key);
    } else if (versionKey !== undefined) {
      // Rest destructuring copies without the key natively; `delete` would slow the copy down.
      const { [versionKey]: _versionKey, ...rest } = src;
      frame = prefilledObject(doc, rest, parent, key);
    } else {
      frame = prefilledObject(doc, { ...src }, parent, key);
    }
    frame.minimize = documentMinimize(doc, plan);
    frame.dropIfEmpty = enclosing !== undefined && dropsWhenEmpty(doc, frame.minimize);
    frame.document = {
      isSubdocument: doc.$isSubdocument === true,
      optionsVirtuals: enclosing?.optionsVirtuals ?? plan.virtuals,
    };
    if (virtuals === true && plan.idVirtual && expose?.as !== 'id') {
      frame.idVirtual = idVirtualValue(src._id);
    }
    return frame;
  }
}

/** A frame whose `out` is `copy`, a shallow copy of the source; `ident`'s own keys are those of `copy`. */
function prefilledObject(ident: object, copy: object, parent: Frame | undefined, key: string | number): Frame {
  const out = copy as Record<string, unknown>;
  const frame = new Frame(ident, out, Object.keys(out), out, parent, key);
  frame.values = Object.values(out);
  frame.prefilled = true;
  frame.count = frame.keys!.length;
  return frame;
}

function write(frame: Frame, key: string | number, value: unknown): void {
  if (frame.prefilled) {
    if (value === undefined && frame.minimize && frame.keys !== undefined) unset(frame, key);
    else (frame.out as Record<string | number, unknown>)[key] = value;
  } else if (frame.keys === undefined) {
    (frame.out as unknown[]).push(value);
  } else if (value !== undefined || !frame.minimize) {
    (frame.out as Record<string, unknown>)[key as string] = value;
    frame.count++;
  }
}

/** Removes an entry of a prefilled copy (left out circular reference, `undefined` under minimize). */
function unset(frame: Frame, key: string | number): void {
  if (frame.keys === undefined) {
    (frame.out as unknown[])[key as number] = undefined;
  } else {
    delete (frame.out as Record<string, unknown>)[key];
    frame.count--;
  }
}

/** Returned by {@link copyPlain} when the value needs the full walk. */
const BAIL = Symbol('BAIL');

/**
 * Depth up to which {@link copyPlain} recurses. Beyond it (deep data, or a
 * cycle, which is infinitely deep) the full walk takes over, so the call
 * stack stays short and cycles get their error.
 */
const PLAIN_DEPTH = 32;

/**
 * The fast path for plain JSON-like data with ObjectIds of an already
 * verified bson copy: objects, arrays, primitives, Dates. Copies natively
 * (spread, slice) and overwrites only converted entries, without frames or
 * cycle bookkeeping. Anything else (documents, classes, Maps, another bson
 * type, depth) answers {@link BAIL} and the full walk starts over: the work
 * done so far is lost, at most one extra pass.
 */
function copyPlain(value: object, depth: number): unknown {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === Object.prototype) {
    if (depth > PLAIN_DEPTH || (value as { _bsontype?: unknown })._bsontype !== undefined) return BAIL;
    const out: Record<string, unknown> = { ...value };
    for (const key in out) {
      const item = out[key];
      if (item !== null && typeof item === 'object') {
        const copy = copyPlain(item, depth + 1);
        if (copy === BAIL) return BAIL;
        if (copy !== item) out[key] = copy;
      } else if (typeof item === 'bigint') {
        out[key] = int64ToJson(item);
      }
    }
    return out;
  }
  if (proto !== null && proto === knownObjectIdPrototype()) {
    return knownObjectIdHex(value) ?? BAIL;
  }
  const bsontype = (value as { _bsontype?: unknown })._bsontype;
  if (bsontype === 'ObjectId' || bsontype === 'ObjectID') {
    // Another verified copy (bson's ESM and CommonJS builds are two classes), or a first sighting.
    return objectIdToHex(value) ?? BAIL;
  }
  if (proto === Array.prototype && Array.isArray(value)) {
    if (depth > PLAIN_DEPTH) return BAIL;
    const out = value.slice() as unknown[];
    for (let i = 0; i < out.length; i++) {
      const item = out[i];
      if (item !== null && typeof item === 'object') {
        const copy = copyPlain(item, depth + 1);
        if (copy === BAIL) return BAIL;
        if (copy !== item) out[i] = copy;
      } else if (typeof item === 'bigint') {
        out[i] = int64ToJson(item);
      }
    }
    return out;
  }
  return value instanceof Date ? value : BAIL;
}

/**
 * Copies `root` into JSON-ready data: every ObjectId becomes its lowercase
 * hex string, mongoose documents become plain objects, Map/Set become
 * object/array, BSON scalars become JSON scalars (see `convertBsonValue`).
 * Class instances are copied with their prototype (so class-transformer's
 * decorators still apply) and reported in `hasClassInstances`.
 *
 * The walk is iterative: depth is bounded by memory, not by the call stack.
 * A value that is its own ancestor throws {@link ObjectIdSerializationError},
 * or is left out with `enableCircularCheck` (as class-transformer does).
 */
export function walk(root: unknown, options: WalkOptions): WalkResult {
  if (root === null || typeof root !== 'object') {
    return { value: typeof root === 'bigint' ? int64ToJson(root) : root, hasClassInstances: false };
  }
  if (!options.exposeId) {
    const fast = copyPlain(root, 0);
    if (fast !== BAIL) return { value: fast, hasClassInstances: false };
  }
  const state = new Walk(options);
  const value = state.run(root);
  return { value, hasClassInstances: state.hasClassInstances };
}
