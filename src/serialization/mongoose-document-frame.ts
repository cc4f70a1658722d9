/**
 * How the walk copies a hydrated mongoose document: straight from `_doc` as
 * a frame that carries mongoose's `minimize`, version key and `id` virtual,
 * or through `doc.toJSON()` when the schema's plan (mongoose-document.ts)
 * asks for getters, transforms or other virtuals; and reading the backing
 * array of a document's array proxy. Everything here reads mongoose internals.
 */
import { convertBsonValue } from './bson-values.js';
import type { ExposeIdMetadata } from './expose-id.decorator.js';
import {
  copyData,
  documentMinimize,
  documentPlan,
  droppedVersionKey,
  dropsWhenEmpty,
  effectiveVirtuals,
  needsToJSON,
  passedVirtuals,
  type MongooseDocumentLike,
} from './mongoose-document.js';
import { prefilledObject, renamedObject, type Frame } from './walk-frames.js';

/** What of the walk a document needs: its options, and `enter` for the output of `toJSON()`. */
export interface DocumentWalk {
  readonly exposeId: ExposeIdMetadata | undefined;
  readonly keepVersionKey: boolean;
  enter(value: object, parent: Frame | undefined, key: string | number): unknown;
}

/** mongoose's `id` virtual: `_id` as a string, or null. */
export function idVirtualValue(id: unknown): unknown {
  if (id == null) return null;
  if (typeof id === 'object') {
    const converted = convertBsonValue(id);
    return typeof converted === 'string' ? converted : String(id);
  }
  return String(id);
}

/** The items of an array to copy: arrays of a document are proxies (mongoose 6+); their backing array is read much faster. */
export function arrayItems(value: unknown[], parent: Frame | undefined): readonly unknown[] {
  const backing = parent?.document !== undefined ? (value as { __array?: unknown }).__array : undefined;
  return Array.isArray(backing) ? (backing as unknown[]) : value;
}

/** Returns the converted value, or a new frame to walk (as `walk.enter`). */
export function enterDocument(
  walk: DocumentWalk,
  doc: MongooseDocumentLike,
  parent: Frame | undefined,
  key: string | number,
): unknown {
  const plan = documentPlan(doc);
  const enclosing = parent?.document;
  const virtuals = effectiveVirtuals(plan, enclosing);
  if (needsToJSON(plan, virtuals)) {
    // Schema transforms, getters, custom virtuals: mongoose computes them, the walk converts its output.
    const json = doc.toJSON(walk.keepVersionKey ? undefined : { versionKey: false });
    return json !== null && typeof json === 'object' ? walk.enter(json, parent, key) : json;
  }
  const src = doc._doc;
  const expose = walk.exposeId !== undefined && src._id !== undefined ? walk.exposeId : undefined;
  const versionKey = droppedVersionKey(plan, src, walk.keepVersionKey);
  let frame: Frame;
  if (expose !== undefined) {
    let keys = Object.keys(src);
    if (versionKey !== undefined) keys = keys.filter((k) => k !== versionKey);
    frame = renamedObject(doc, src, keys, expose, !expose.keepUnderscoreId, {}, parent, key);
  } else {
    frame = prefilledObject(doc, copyData(src, versionKey), parent, key);
  }
  frame.minimize = documentMinimize(doc, plan);
  // Whether an empty subdocument leaves its parent is the parent's minimize, not its own (as in mongoose 9).
  frame.dropIfEmpty = enclosing !== undefined && dropsWhenEmpty(doc, parent!.minimize);
  frame.document = {
    isSubdocument: doc.$isSubdocument === true,
    optionsVirtuals: passedVirtuals(plan, enclosing),
  };
  if (virtuals === true && plan.idVirtual && expose?.as !== 'id') {
    frame.idVirtual = idVirtualValue(src._id);
  }
  return frame;
}
