/**
 * Copying data that is not a mongoose document: plain objects, arrays, Maps,
 * Sets, Dates, and class instances (kept with their prototype for
 * class-transformer). {@link copyPlain} is the recursive fast path for
 * JSON-like data; the `…Frame` functions start the frames of the full walk
 * (walk-frames.ts) for the same containers and the ones the fast path leaves to it.
 */
import { int64ToJson, knownObjectIdHex, knownObjectIdPrototype, objectIdToHex } from './bson-values.js';
import { excludedOnSerialization } from './class-transformer-metadata.js';
import { getExposeIdMetadata, type ExposeIdMetadata } from './expose-id.decorator.js';
import { assignOwn, Frame, prefilledObject, renamedObject } from './walk-frames.js';

/** Returned by {@link copyPlain} when the value needs the full walk. */
export const BAIL = Symbol('BAIL');

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
export function copyPlain(value: object, depth: number): unknown {
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

/** The frame of a plain object (prototype `Object.prototype` or `null`), its `_id` renamed if `exposeId` says so. */
export function plainObjectFrame(
  value: object,
  proto: object | null,
  exposeId: ExposeIdMetadata | undefined,
  parent: Frame | undefined,
  key: string | number,
): Frame {
  const src = value as Record<string, unknown>;
  const expose = exposeId !== undefined && src._id !== undefined ? exposeId : undefined;
  const frame =
    expose === undefined
      ? prefilledObject(
          value,
          proto === null ? Object.assign(Object.create(null) as object, src) : { ...src },
          parent,
          key,
        )
      : renamedObject(value, src, Object.keys(src), expose, !expose.keepUnderscoreId, {}, parent, key);
  // mongoose's minimize drops empty nested objects, except directly inside arrays.
  frame.dropIfEmpty = frame.minimize && parent!.keys !== undefined;
  return frame;
}

/** The frame of an array, or of a Set's or a document array's `items`, copied as an array. */
export function arrayFrame(
  ident: object,
  items: readonly unknown[],
  cutCycles: boolean,
  parent: Frame | undefined,
  key: string | number,
): Frame {
  // A left-out circular element must shorten the array (as in class-transformer), so build it then.
  const prefill = !cutCycles;
  const frame = new Frame(ident, items, undefined, prefill ? items.slice() : [], parent, key);
  frame.values = items;
  frame.prefilled = prefill;
  return frame;
}

/** The frame of a Map, copied as an object keyed by the keys as strings. */
export function mapFrame(value: Map<unknown, unknown>, parent: Frame | undefined, key: string | number): Frame {
  const keys: string[] = [];
  for (const k of value.keys()) keys.push(String(k));
  const frame = new Frame(value, [], keys, {}, parent, key);
  frame.values = Array.from(value.values());
  return frame;
}

/** A class instance: copied with its prototype, for class-transformer. */
export function instanceFrame(
  value: object,
  proto: object | null,
  readDecorators: boolean,
  exposeId: ExposeIdMetadata | undefined,
  parent: Frame | undefined,
  key: string | number,
): Frame {
  const ctor = (value as { constructor?: unknown }).constructor;
  const src = value as Record<string, unknown>;
  let raw: ReadonlySet<string> | undefined;
  let expose: ExposeIdMetadata | undefined;
  // class-transformer drops the source itself (ExposeId registered it as excluded).
  let dropSource = false;
  if (typeof ctor === 'function') {
    if (readDecorators) raw = excludedOnSerialization(ctor);
    expose = getExposeIdMetadata(ctor);
  }
  if (expose === undefined && exposeId !== undefined) {
    expose = exposeId;
    dropSource = !expose.keepUnderscoreId;
  }
  let frame: Frame;
  if (expose !== undefined && src[expose.source] !== undefined) {
    const shadow = Object.create(proto) as Record<string, unknown>;
    frame = renamedObject(value, src, Object.keys(src), expose, dropSource, shadow, parent, key);
  } else {
    frame = prefilledObject(value, assignOwn(Object.create(proto) as object, src), parent, key);
  }
  frame.raw = raw;
  return frame;
}
