/**
 * A find projection's inclusions, exclusions and computed fields, applied as
 * mongod's projection executor applies them (ProjectionNode, InclusionNode,
 * ExclusionNode, with find's policy of recursing into nested arrays). mingo
 * differed where paths meet arrays: it read `a.2` as an array index (mongod:
 * a field named "2"), set a computed `a.b` on an array as one sub-document
 * instead of in each element, did not exclude through arrays of arrays, and
 * kept `_id` whole for `{"_id.a": 1}` when `_id` is a scalar.
 */
import type { Document } from 'bson';

import { typeAlias } from './element-operators.js';
import { isContainer, write } from './update-paths.js';

/** How a computed field gets its value: from the whole (root) document, as mongod evaluates it. */
export type ComputeField = (root: Document) => unknown;

/** A value a projection left out of an array; the array drops it once every step ran (mongod's missing Value). */
const MISSING: unique symbol = Symbol('missing');

type Projected = unknown;

function isDocument(value: unknown): value is Document {
  return isContainer(value) && !Array.isArray(value);
}

/** Whether a projection's value is a document (a sub-projection or an expression), not a scalar. */
export function isPlainSpec(value: unknown): value is Document {
  return typeAlias(value) === 'object';
}

/** 'include', 'exclude' or 'other' (a computed field, which counts as an inclusion). */
export function projectionKind(value: unknown): 'include' | 'exclude' | 'other' {
  if (value === 0 || value === false || value === 0n) return 'exclude';
  if (typeof value === 'number' || typeof value === 'bigint' || value === true) return 'include';
  if (isPlainSpec(value) && !Object.keys(value).some((k) => k.startsWith('$'))) {
    const kinds = Object.values(value).map(projectionKind);
    return kinds.includes('exclude') ? 'exclude' : 'include';
  }
  return 'other';
}

/**
 * The projection's entries with sub-projections written as dotted paths
 * (`{ a: { b: { $slice: 1 } } }` is `{ 'a.b': { $slice: 1 } }` to mongod).
 * An expression (an object of one `$` field) ends a path.
 */
export function projectionPaths(spec: Document, prefix = ''): [path: string, value: unknown][] {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(spec)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const keys = isPlainSpec(value) ? Object.keys(value) : [];
    if (keys.length > 0 && !keys[0]!.startsWith('$')) {
      // One by one: as arguments, a sub-projection of many fields would overflow the stack.
      for (const entry of projectionPaths(value as Document, path)) entries.push(entry);
    } else entries.push([path, value]);
  }
  return entries;
}

/** Whether a projection's `path` is `_id` or a path under it: then an inclusion keeps `_id` only if it says so. */
export function namesId(path: string): boolean {
  return path === '_id' || path.startsWith('_id.');
}

/** Whether a projection of `entries` keeps only what it names: a field other than `_id` included or computed, or `_id` alone. */
export function isInclusion(entries: readonly [string, unknown][]): boolean {
  return entries.some(
    ([path, value]) => projectionKind(value) !== 'exclude' && (path !== '_id' || entries.length === 1),
  );
}

/** One level of the projection: its fields kept or removed, its sub-levels and its computed fields. */
class ProjectionNode {
  /** Fields named at this level: included in an inclusion, excluded in an exclusion. */
  readonly fields = new Set<string>();
  readonly children = new Map<string, ProjectionNode>();
  readonly computed = new Map<string, ComputeField>();
  /** Computed fields and sub-levels in the order the projection names them (mongod's `_orderToProcessAdditionsAndChildren`). */
  readonly order: string[] = [];
  /** Whether a computed field is here or below. */
  hasComputed = false;

  constructor(private readonly inclusion: boolean) {}

  child(name: string): ProjectionNode {
    let node = this.children.get(name);
    if (!node) {
      node = new ProjectionNode(this.inclusion);
      this.children.set(name, node);
      this.order.push(name);
    }
    return node;
  }

  /** The document's fields this level keeps (inclusion) or the document without those it removes (exclusion). */
  applyProjections(input: Document): Document {
    const output: Document = {};
    for (const key of Object.keys(input)) {
      const value: unknown = input[key];
      let projected: Projected;
      if (this.fields.has(key)) projected = this.inclusion ? value : MISSING;
      else if (this.children.has(key)) projected = this.children.get(key)!.applyProjectionsToValue(value);
      else projected = this.inclusion ? MISSING : value;
      if (projected !== MISSING) write(output, key, projected);
    }
    return output;
  }

  private applyProjectionsToValue(value: unknown): Projected {
    if (isDocument(value)) return this.applyProjections(value);
    if (Array.isArray(value)) {
      const items = value.map((item) => this.applyProjectionsToValue(item));
      // Computed fields may still fill a dropped element (`{"a.b": "x"}` makes a scalar `{b: "x"}`).
      return this.hasComputed ? items : items.filter((item) => item !== MISSING);
    }
    // An inclusion keeps no scalar below a projected path (`{"a.b": 1}` of `{a: 2}` has no `a`); an exclusion keeps it.
    return this.inclusion ? MISSING : value;
  }

  /** Sets this level's computed fields and those below, in `output` (in place: a new field goes last). */
  applyExpressions(root: Document, output: Document): void {
    for (const name of this.order) {
      const node = this.children.get(name);
      const current: unknown = Object.hasOwn(output, name) ? output[name] : MISSING;
      const value: Projected = node ? node.applyExpressionsToValue(root, current) : this.computed.get(name)!(root);
      if (value === MISSING || value === undefined) delete output[name];
      else write(output, name, value);
    }
  }

  private applyExpressionsToValue(root: Document, value: Projected): Projected {
    if (!this.hasComputed) {
      return Array.isArray(value) ? value.filter((item) => item !== MISSING) : value;
    }
    if (isDocument(value)) {
      this.applyExpressions(root, value);
      return value;
    }
    if (Array.isArray(value)) {
      return value.map((item) => this.applyExpressionsToValue(root, item)).filter((item) => item !== MISSING);
    }
    // A computed field below a scalar (or nothing) replaces it with a document of the computed fields.
    const output: Document = {};
    this.applyExpressions(root, output);
    return output;
  }
}

/**
 * An inclusion or exclusion projection of find, built path by path
 * (`a.b.c`, already flattened from `{a: {b: {c: 1}}}`). An inclusion keeps
 * `_id` unless the projection names it (or a path under it).
 */
export class ProjectionTree {
  private readonly root: ProjectionNode;

  constructor(readonly inclusion: boolean) {
    this.root = new ProjectionNode(inclusion);
  }

  /** The tree of a `$project` (or a find projection without find's operators); `computeOf` makes an expression's field. */
  static of(spec: Document, computeOf: (expr: unknown) => ComputeField): ProjectionTree {
    const entries = projectionPaths(spec);
    const tree = new ProjectionTree(isInclusion(entries));
    for (const [path, value] of entries) {
      const kind = projectionKind(value);
      if (kind === 'other') tree.addComputed(path, computeOf(value));
      else if ((kind === 'exclude') !== tree.inclusion) tree.addField(path);
    }
    if (tree.inclusion && !entries.some(([path]) => namesId(path))) tree.addField('_id');
    return tree;
  }

  /**
   * The tree of `$addFields`/`$set`: every field kept, each named path set to
   * its expression's value (a nested document names more paths, as mongod
   * reads `{a: {b: 1}}` there: `a.b` set in `a`, not `a` replaced).
   */
  static addingFields(spec: Document, computeOf: (expr: unknown) => ComputeField): ProjectionTree {
    const tree = new ProjectionTree(false);
    for (const [path, value] of projectionPaths(spec)) tree.addComputed(path, computeOf(value));
    return tree;
  }

  /** Includes (inclusion) or excludes (exclusion) `path`. */
  addField(path: string): void {
    const { node, leaf } = this.levelOf(path);
    node.fields.add(leaf);
  }

  /** Computes `path`'s value from the root document (in an inclusion, or in the exclusion `$addFields` makes). */
  addComputed(path: string, compute: ComputeField): void {
    const parts = path.split('.');
    let node = this.root;
    for (const part of parts.slice(0, -1)) {
      node.hasComputed = true;
      node = node.child(part);
    }
    node.hasComputed = true;
    const leaf = parts[parts.length - 1]!;
    if (!node.computed.has(leaf)) node.order.push(leaf);
    node.computed.set(leaf, compute);
  }

  apply(doc: Document): Document {
    const output = this.root.applyProjections(doc);
    if (this.root.hasComputed) this.root.applyExpressions(doc, output);
    return output;
  }

  private levelOf(path: string): { node: ProjectionNode; leaf: string } {
    const parts = path.split('.');
    let node = this.root;
    for (const part of parts.slice(0, -1)) node = node.child(part);
    return { node, leaf: parts[parts.length - 1]! };
  }
}
