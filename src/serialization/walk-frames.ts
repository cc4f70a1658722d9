/**
 * The frame bookkeeping of the iterative walk: what one container being
 * copied holds ({@link Frame}), how its entries are written, the explicit
 * stack that replaces recursion (depth and cycle tracking), and the path of
 * an entry for error messages. It knows nothing of which values become frames:
 * {@link FrameWalk.enter} decides that.
 */
import { int64ToJson } from './bson-values.js';
import type { ExposeIdMetadata } from './expose-id.decorator.js';
import { ObjectIdSerializationError } from './object-id-serialization.error.js';

/** The enclosing mongoose document of a frame, for options mongoose passes down. */
export interface DocumentState {
  readonly isSubdocument: boolean;
  /** mongoose's merged `options.virtuals` at this document, passed down to children. */
  readonly optionsVirtuals: boolean | undefined;
}

/** Returned by `enter` for a circular reference that is cut. */
export const OMIT = Symbol('OMIT');

/**
 * How many frames are checked for cycles by a linear scan; deeper ones are
 * also kept in a Set. Typical payloads are a few levels deep, where scanning
 * a handful of frames is cheaper than Set bookkeeping.
 */
const SCAN_DEPTH = 32;

/** One container being copied. The walk keeps these on an explicit stack. */
export class Frame {
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

/**
 * The iterative walk over a stack of frames; `enter` (the subclass) turns one
 * value into its converted value or a new frame. The state lives in fields so
 * that nothing is allocated per call but the frames.
 */
export abstract class FrameWalk {
  private readonly stack: Frame[] = [];
  private deep: Set<object> | undefined;

  constructor(
    /** Omit circular references instead of throwing. */
    protected readonly cutCycles: boolean,
  ) {}

  /** Returns the converted value, or a new frame to walk. */
  abstract enter(value: object, parent: Frame | undefined, key: string | number): unknown;

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

  /** Whether `value` is being copied by an open frame: entering it again would loop forever. */
  protected isAncestor(value: object): boolean {
    const stack = this.stack;
    const scan = stack.length < SCAN_DEPTH ? stack.length : SCAN_DEPTH;
    for (let j = 0; j < scan; j++) if (stack[j].ident === value) return true;
    return this.deep !== undefined && this.deep.has(value);
  }

  /** {@link OMIT} for a circular reference, or its error naming both paths. */
  protected circular(value: object, parent: Frame | undefined, key: string | number): typeof OMIT {
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
}

/** A frame whose `out` is `copy`, a shallow copy of the source; `ident`'s own keys are those of `copy`. */
export function prefilledObject(ident: object, copy: object, parent: Frame | undefined, key: string | number): Frame {
  const out = copy as Record<string, unknown>;
  const frame = new Frame(ident, out, Object.keys(out), out, parent, key);
  frame.values = Object.values(out);
  frame.prefilled = true;
  frame.count = frame.keys!.length;
  return frame;
}

/** Keys with the id source first (written under its new name); without the target key and, if dropped, the source. */
function exposedKeys(keys: string[], expose: ExposeIdMetadata, dropSource: boolean): string[] {
  const reordered = [expose.source];
  for (const key of keys) {
    if (key !== expose.as && (key !== expose.source || !dropSource)) reordered.push(key);
  }
  return reordered;
}

/** An object whose copy is built key by key, with the id (`expose.source`) first under `expose.as`. */
export function renamedObject(
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

/**
 * Sets an own property. A key named `__proto__` (JSON.parse, a Map key) is
 * defined, never assigned: assignment would run `Object.prototype`'s setter and
 * make the client's object the output's prototype.
 */
export function setOwn(target: object, key: string | number, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    (target as Record<string | number, unknown>)[key] = value;
  }
}

/** `Object.assign(target, src)` for own enumerable string keys, with `__proto__` kept an own property (see `setOwn`). */
export function assignOwn<T extends object>(target: T, src: object): T {
  if (!Object.hasOwn(src, '__proto__')) return Object.assign(target, src);
  for (const key of Object.keys(src)) setOwn(target, key, (src as Record<string, unknown>)[key]);
  return target;
}

function write(frame: Frame, key: string | number, value: unknown): void {
  if (frame.prefilled) {
    if (value === undefined && frame.minimize && frame.keys !== undefined) unset(frame, key);
    else (frame.out as Record<string | number, unknown>)[key] = value;
  } else if (frame.keys === undefined) {
    (frame.out as unknown[]).push(value);
  } else if (value !== undefined || !frame.minimize) {
    setOwn(frame.out as object, key, value);
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
