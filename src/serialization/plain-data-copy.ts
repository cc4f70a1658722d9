/**
 * Copying data that is not a mongoose document in the full walk: the frames
 * (walk-frames.ts) of plain objects, arrays, Maps, Sets, and class instances
 * (kept with their prototype for class-transformer). The recursive fast path
 * for JSON-like data and plain documents is fast-copy.ts.
 */
import { excludedOnSerialization } from './class-transformer-metadata.js';
import { getExposeIdMetadata, type ExposeIdMetadata } from './expose-id.decorator.js';
import { assignOwn, Frame, prefilledObject, renamedObject } from './walk-frames.js';

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
