/**
 * Copiers compiled for the key lists ("shapes") that a schema's documents
 * have, for the fast path (fast-copy.ts).
 *
 * Copying `_doc` key by key writes each key into a new object through a
 * keyed store, which V8 cannot specialise: on the flat entity of
 * bench/serializer.bench.ts that was a third of the walk. Code that names
 * the keys (reads `src.name`, a constructor assigning `this.name`) builds
 * the copy with its final layout in one allocation. Such code exists only
 * when generated, so it is compiled for each key list seen often enough,
 * with these bounds:
 *
 * - a key list is compiled only when every key is an identifier other than
 *   `__proto__` (whose assignment sets the prototype) and there
 *   are at most {@link MAX_KEYS}: the generated code contains nothing but
 *   those names, the `v0…vN` locals and fixed text;
 * - at most {@link MAX_SHAPES} key lists per schema, learnt after the schema
 *   was seen {@link LEARN_AFTER} times, so a schema serialized once costs no
 *   compilation and documents with varying keys (`strict: false`) cannot make
 *   the process compile without end;
 * - where code generation is not allowed (`--disallow-code-generation-from-strings`),
 *   the key-by-key copy simply stays.
 *
 * A compiled copier hands every entry that is not a string, number or boolean
 * to the same entry copy as the key-by-key path; when that entry is to be
 * left out (`minimize`), the copier gives up for the document and for its key
 * list, and the key-by-key copy does it. fast-copy.spec.ts compares both.
 */

/** Copies one entry, or returns a symbol: the fast path's BAIL, or an instruction to leave the entry out. */
export type EntryCopy = (item: unknown, depth: number, scope: object) => unknown;

/**
 * A compiled copier of one key list: the copy of `src` (whose keys are the
 * list), or the symbol an entry copy returned.
 */
export type ShapeCopy = (src: Record<string, unknown>, depth: number, scope: object, entry: EntryCopy) => unknown;

/** Key lists of one schema's documents and their copiers. */
export interface DocumentShapes {
  /** Documents seen, up to {@link LEARN_AFTER}. */
  seen: number;
  readonly shapes: Shape[];
}

export interface Shape {
  /** The keys of `_doc`, in order, version key included. */
  readonly keys: readonly string[];
  /**
   * The copier without and with the version key; `null` once it gave up
   * (or code generation is not allowed), `undefined` until compiled.
   */
  readonly copies: [ShapeCopy | null | undefined, ShapeCopy | null | undefined];
}

/** Documents of a schema to see before its key lists are compiled. */
export const LEARN_AFTER = 8;
/** Key lists per schema. */
export const MAX_SHAPES = 4;
/** Keys per key list. */
export const MAX_KEYS = 64;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** An empty record for a schema's plan. */
export function createDocumentShapes(): DocumentShapes {
  return { seen: 0, shapes: [] };
}

/** Whether `for…in` over `src` lists exactly `keys`. */
function hasKeys(src: Record<string, unknown>, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in src) {
    if (key !== keys[i++]) return false;
  }
  return i === keys.length;
}

/** Whether `own` (a document's `Object.keys`) is exactly `keys`. */
function sameKeys(own: readonly string[], keys: readonly string[]): boolean {
  if (own.length !== keys.length) return false;
  for (let i = 0; i < own.length; i++) {
    if (own[i] !== keys[i]) return false;
  }
  return true;
}

/**
 * The known key list `src` has, learning it when there is room, or
 * `undefined`. The caller has checked that `for…in` over `src` lists only
 * its own keys. `own` is `Object.keys(src)` when the caller listed it (a
 * `_doc` likely in V8's dictionary mode, where `for…in` has no cache);
 * otherwise the lists are matched by `for…in`.
 */
export function matchShape(
  shapes: DocumentShapes,
  src: Record<string, unknown>,
  own: readonly string[] | undefined,
): Shape | undefined {
  const list = shapes.shapes;
  if (list.length === 0 && shapes.seen < LEARN_AFTER) {
    shapes.seen += 1;
    return undefined;
  }
  for (let i = 0; i < list.length; i++) {
    if (own !== undefined ? sameKeys(own, list[i].keys) : hasKeys(src, list[i].keys)) return list[i];
  }
  if (list.length >= MAX_SHAPES) return undefined;
  const keys = own ?? Object.keys(src);
  // A list that cannot be compiled still takes its slot: it is not examined again.
  const compilable = keys.length <= MAX_KEYS && keys.every((key) => key !== '__proto__' && IDENTIFIER.test(key));
  const shape: Shape = { keys, copies: compilable ? [undefined, undefined] : [null, null] };
  list.push(shape);
  return shape;
}

/** The copier of `shape` leaving out `versionKey` if given, compiled on first use; `null` when there is none. */
export function shapeCopy(shape: Shape, versionKey: string | undefined): ShapeCopy | null {
  const variant = versionKey === undefined ? 1 : 0;
  let copy = shape.copies[variant];
  if (copy === undefined) {
    copy = compile(shape.keys, versionKey);
    shape.copies[variant] = copy;
  }
  return copy;
}

/** Stops using a shape's copiers: one of its entries has to be left out, which only the key-by-key copy does. */
export function abandonShape(shape: Shape): void {
  shape.copies[0] = null;
  shape.copies[1] = null;
}

/** The copier of `keys` without `versionKey`; `null` where code generation is not allowed. */
function compile(keys: readonly string[], versionKey: string | undefined): ShapeCopy | null {
  const reads: string[] = [];
  const stores: string[] = [];
  const locals: string[] = [];
  keys.forEach((key, i) => {
    if (key === versionKey) return;
    // Strings, numbers and booleans are copied as they are; anything else goes through `entry`.
    reads.push(
      `let v${i} = src.${key};`,
      `if (typeof v${i} === 'object' || typeof v${i} === 'bigint' || v${i} === undefined) {`,
      `  v${i} = entry(v${i}, depth, scope);`,
      `  if (typeof v${i} === 'symbol') return v${i};`,
      `}`,
    );
    stores.push(`this.${key} = v${i};`);
    locals.push(`v${i}`);
  });
  // The copy is built by a constructor whose prototype is Object.prototype, so it is a plain
  // object: V8 sizes a constructor's objects to the properties it assigns, one allocation,
  // where stores into `{}` grow a separate property array in steps. Not an object literal:
  // V8 tracks where a literal's objects live and, when a response's copies outlive a
  // young-generation collection, allocates them in the old generation, whose collections
  // then cost more than the copy saves.
  const source = [
    `'use strict';`,
    `function Copy(${locals.join(', ')}) {`,
    ...stores,
    `}`,
    `Copy.prototype = Object.prototype;`,
    `return function copy(src, depth, scope, entry) {`,
    ...reads,
    `return new Copy(${locals.join(', ')});`,
    `};`,
  ].join('\n');
  try {
    return new Function(source)() as ShapeCopy;
  } catch {
    return null;
  }
}
