/**
 * The walk's entry point and dispatch: which part copies a value. It knows
 * the options and the order in which a value is recognised (ObjectId, plain
 * object, array, mongoose document, BSON scalar, Date, Map, Set, class
 * instance); the copying itself is in plain-data-copy.ts and
 * mongoose-document-frame.ts, the frames and their stack in walk-frames.ts.
 */
import {
  convertBsonValue,
  int64ToJson,
  knownObjectIdHex,
  knownObjectIdPrototype,
  NOT_BSON,
  objectIdToHex,
} from './bson-values.js';
import type { ExposeIdMetadata, ExposeIdOptions } from './expose-id.decorator.js';
import { arrayItems, enterDocument, type DocumentWalk } from './mongoose-document-frame.js';
import { isMongooseDocument } from './mongoose-document.js';
import { BAIL, copyFast } from './fast-copy.js';
import { arrayFrame, instanceFrame, mapFrame, plainObjectFrame } from './plain-data-copy.js';
import { FrameWalk, type Frame } from './walk-frames.js';

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

function resolveExposeId(option: WalkOptions['exposeId']): ExposeIdMetadata | undefined {
  if (!option) return undefined;
  const settings = option === true ? {} : option;
  return { source: '_id', as: settings.as ?? 'id', keepUnderscoreId: settings.keepUnderscoreId ?? false };
}

/** One walk; the state lives in fields so that nothing is allocated per call but the frames. */
class Walk extends FrameWalk implements DocumentWalk {
  hasClassInstances = false;
  readonly exposeId: ExposeIdMetadata | undefined;
  readonly keepVersionKey: boolean;
  private readonly readDecorators: boolean;

  constructor(options: WalkOptions) {
    super(options.enableCircularCheck === true);
    this.exposeId = resolveExposeId(options.exposeId);
    this.keepVersionKey = options.versionKey === true;
    this.readDecorators = options.ignoreDecorators !== true;
  }

  /** Returns the converted value, or a new frame to walk. */
  override enter(value: object, parent: Frame | undefined, key: string | number): unknown {
    const proto = Object.getPrototypeOf(value) as object | null;
    if (proto !== null && proto === knownObjectIdPrototype()) {
      // The usual case: an ObjectId of a bson copy already verified (see `objectIdToHex`).
      const hex = knownObjectIdHex(value);
      if (hex !== undefined) return hex;
    }
    if (proto === Object.prototype || proto === null) {
      // A look-alike ObjectId from another bson copy may be a plain object; other
      // `_bsontype` tags on plain objects are plain JSON data (no BSON class behind them).
      if ((value as { _bsontype?: unknown })._bsontype !== undefined) {
        const hex = objectIdToHex(value);
        if (hex !== undefined) return hex;
      }
      if (parent !== undefined && this.isAncestor(value)) return this.circular(value, parent, key);
      return plainObjectFrame(value, proto, this.exposeId, parent, key);
    }
    if (Array.isArray(value)) {
      if (parent !== undefined && this.isAncestor(value)) return this.circular(value, parent, key);
      return arrayFrame(value, arrayItems(value, parent), this.cutCycles, parent, key);
    }
    // Documents first: they are the common non-plain value and `$__` is one cheap read.
    if ((value as { $__?: unknown }).$__ != null && isMongooseDocument(value)) {
      if (parent !== undefined && this.isAncestor(value)) return this.circular(value, parent, key);
      return enterDocument(this, value, parent, key);
    }
    const bson = this.bson(value, parent, key);
    if (bson !== NOT_BSON) return bson;
    if (value instanceof Date) {
      return value;
    }
    if (parent !== undefined && this.isAncestor(value)) return this.circular(value, parent, key);
    if (value instanceof Map) {
      return mapFrame(value, parent, key);
    }
    if (value instanceof Set) {
      return arrayFrame(value, Array.from(value), this.cutCycles, parent, key);
    }
    if (isPromise(value)) {
      // An unawaited Promise in a response: written as JSON.stringify (and Nest's own
      // interceptor) write it, `{}`. Copied as a class instance, class-transformer would
      // call `then` on the copy, a rejection nobody handles, and the process would exit.
      return {};
    }
    this.hasClassInstances = true;
    return instanceFrame(value, proto, this.readDecorators, this.exposeId, parent, key);
  }

  /** A BSON scalar's JSON value, walking what other BSON types' `toJSON()` return (a DBRef's ObjectId). */
  private bson(value: object, parent: Frame | undefined, key: string | number): unknown {
    const bson = convertBsonValue(value);
    if (bson !== null && typeof bson === 'object' && bson !== value) return this.enter(bson, parent, key);
    return bson;
  }
}

/** A native Promise, from this realm or another (the tag cannot be faked by a plain object's `then`). */
function isPromise(value: object): boolean {
  return value instanceof Promise || Object.prototype.toString.call(value) === '[object Promise]';
}

/**
 * Copies `root` into JSON-ready data: every ObjectId becomes its lowercase
 * hex string, mongoose documents become plain objects, Map/Set become
 * object/array, BSON scalars become JSON scalars (see `convertBsonValue`).
 * Class instances are copied with their prototype (so class-transformer's
 * decorators still apply) and reported in `hasClassInstances`.
 *
 * The walk is iterative: depth is bounded by memory, not by the call stack.
 * A value that is its own ancestor throws `ObjectIdSerializationError`,
 * or is left out with `enableCircularCheck` (as class-transformer does).
 */
export function walk(root: unknown, options: WalkOptions): WalkResult {
  if (root === null || typeof root !== 'object') {
    return { value: typeof root === 'bigint' ? int64ToJson(root) : root, hasClassInstances: false };
  }
  if (!options.exposeId) {
    const fast = copyFast(root, options.versionKey === true);
    if (fast !== BAIL) return { value: fast, hasClassInstances: false };
  }
  return walkFrames(root, options);
}

/** The full walk alone, without the fast path first (the specs compare both). */
export function walkFrames(root: object, options: WalkOptions): WalkResult {
  const state = new Walk(options);
  const value = state.run(root);
  return { value, hasClassInstances: state.hasClassInstances };
}
