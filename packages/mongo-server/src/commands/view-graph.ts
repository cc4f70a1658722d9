import type { Document } from 'bson';

import { typeAlias } from '../query/element-operators.js';
import type { CommandContext } from './command-context.js';
import { CommandError, type ErrorCodeName } from './command-error.js';

/** mongod's limit on views defined on views (`ViewGraph::kMaxViewDepth`). */
export const MAX_VIEW_DEPTH = 20;

/** Stages that write to disk: never in a view's definition. */
const WRITING_STAGES = new Set(['$out', '$merge']);
/** Stages that read no collection: never in a view's definition. */
const COLLECTIONLESS_STAGES = new Set(['$documents', '$listLocalSessions']);

/**
 * The collections and views `pipeline` reads besides its source: `from` of
 * `$lookup` and `$graphLookup`, `$unionWith`'s collection, in sub-pipelines
 * too (`$lookup`, `$unionWith`, `$facet`). mongod's view graph has an edge to each.
 */
export function involvedNames(pipeline: unknown, names = new Set<string>()): Set<string> {
  if (!Array.isArray(pipeline)) return names;
  for (const stage of pipeline) {
    if (typeAlias(stage) !== 'object') continue;
    for (const [name, spec] of Object.entries(stage as Document)) {
      const fields = typeAlias(spec) === 'object' ? (spec as Document) : undefined;
      if (name === '$unionWith' && typeof spec === 'string') names.add(spec);
      if ((name === '$lookup' || name === '$graphLookup') && typeof fields?.from === 'string') names.add(fields.from);
      if (name === '$unionWith' && typeof fields?.coll === 'string') names.add(fields.coll);
      if (name === '$lookup' || name === '$unionWith') involvedNames(fields?.pipeline, names);
      if (name === '$facet' && fields) for (const sub of Object.values(fields)) involvedNames(sub, names);
    }
  }
  return names;
}

/** mongod's error for a read that would resolve {@link MAX_VIEW_DEPTH} views on views. */
export function readDepthExceeded(): CommandError {
  return new CommandError(
    'ViewDepthLimitExceeded',
    `View depth too deep or view cycle detected; maximum depth is ${MAX_VIEW_DEPTH}`,
  );
}

/**
 * Resolves every view `pipeline` reads through `$lookup`, `$graphLookup` and
 * `$unionWith`, and every view those read, before anything runs, as mongod
 * resolves a command's namespaces first: a read of a view too deep is refused
 * at once rather than after the work above it. Each name is resolved once.
 */
export function checkInvolvedViews(ctx: CommandContext, pipeline: unknown): void {
  const seen = new Set<string>();
  const pending = [...involvedNames(pipeline)];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    let current = name;
    for (let depth = 0; ; depth++) {
      const options = ctx.store.collection(ctx.db, current)?.options;
      if (options?.viewOn === undefined) break;
      // mongod resolves at most MAX_VIEW_DEPTH - 1 views on views in a read (its create allows one more).
      if (depth >= MAX_VIEW_DEPTH - 1) throw readDepthExceeded();
      pending.push(...involvedNames(options.pipeline));
      current = options.viewOn;
    }
  }
}

/** A view of the database as the graph sees it: what it reads and its default collation. */
interface ViewNode {
  readonly children: readonly string[];
  /** The default collation as text ('' for simple): views that read each other must agree on it. */
  readonly collation: string;
}

function nodeOf(viewOn: string, pipeline: unknown, collation: unknown): ViewNode {
  return {
    children: [viewOn, ...involvedNames(pipeline)],
    collation: collation === undefined ? '' : JSON.stringify(collation),
  };
}

/**
 * Checks a view about to be created, as mongod's `create` does before it
 * stores one: its pipeline neither writes ($out, $merge) nor reads without a
 * collection ($documents), and with it the views of the database form no
 * cycle (through `viewOn`, `$lookup`, `$graphLookup` or `$unionWith`), no
 * chain deeper than {@link MAX_VIEW_DEPTH} views, and no view reads a view of
 * another default collation. Without these checks a read of such a view
 * failed late or, through `$lookup`, recursed.
 */
export function checkNewView(ctx: CommandContext, name: string, definition: Document): void {
  const ns = `${ctx.db}.${name}`;
  const pipeline = (definition.pipeline ?? []) as Document[];
  pipeline.forEach((stage, location) => {
    const stageName = Object.keys(stage)[0] ?? '';
    if (WRITING_STAGES.has(stageName)) {
      throw invalidPipeline(
        ns,
        'OptionNotSupportedOnView',
        `The aggregation stage ${stageName} in location ${location} of the pipeline cannot be used in the view definition of ${ns} because it writes to disk`,
      );
    }
    if (COLLECTIONLESS_STAGES.has(stageName)) {
      throw invalidPipeline(ns, 'InvalidNamespace', `'${stageName}' cannot be used in a view definition`);
    }
  });
  const created = nodeOf(definition.viewOn as string, pipeline, definition.collation);
  const nodes = new Map<string, ViewNode | undefined>([[name, created]]);
  const node = (view: string): ViewNode | undefined => {
    if (!nodes.has(view)) {
      const options = ctx.store.collection(ctx.db, view)?.options;
      nodes.set(
        view,
        options?.viewOn === undefined ? undefined : nodeOf(options.viewOn, options.pipeline, options.collation),
      );
    }
    return nodes.get(view);
  };
  const childrenHeight = validateChildren(ctx.db, name, node) - 1;
  const parentsHeight = validateParents(ctx, name, created);
  // Both heights count the new view.
  if (parentsHeight + childrenHeight - 1 > MAX_VIEW_DEPTH) throw depthExceeded();
}

function invalidPipeline(ns: string, code: ErrorCodeName, reason: string): CommandError {
  return new CommandError(code, `Invalid pipeline for view ${ns} :: caused by :: ${reason}`);
}

function depthExceeded(): CommandError {
  return new CommandError('ViewDepthLimitExceeded', `View depth limit exceeded; maximum depth is ${MAX_VIEW_DEPTH}`);
}

function collationMismatch(db: string, view: string, other: string): CommandError {
  return new CommandError(
    'OptionNotSupportedOnView',
    `View ${db}.${view} has a collation that does not match the collation of view ${db}.${other}`,
  );
}

/**
 * The height of `start` in the graph of what views read (a collection, or a
 * name that is nothing yet, is 1), walked depth first with the path kept for
 * mongod's cycle message. Iterative, so a long chain cannot exhaust the stack.
 */
function validateChildren(db: string, start: string, node: (view: string) => ViewNode | undefined): number {
  const heights = new Map<string, number>();
  const path: { view: string; next: number; height: number }[] = [{ view: start, next: 0, height: 0 }];
  for (;;) {
    const top = path[path.length - 1]!;
    const current = node(top.view);
    const child = current?.children[top.next++];
    if (child === undefined) {
      path.pop();
      const height = top.height + 1;
      heights.set(top.view, height);
      if (path.length === 0) return height;
      const parent = path[path.length - 1]!;
      parent.height = Math.max(parent.height, height);
      continue;
    }
    const known = heights.get(child);
    if (known !== undefined) {
      top.height = Math.max(top.height, known);
      continue;
    }
    const childNode = node(child);
    if (childNode && childNode.collation !== current!.collation) throw collationMismatch(db, top.view, child);
    if (child === start) {
      const names = [...path.map((entry) => entry.view), child].reverse().map((view) => `${db}.${view}`);
      throw new CommandError('GraphContainsCycle', `View cycle detected: ${names[0]} => ${names.join(' => ')}`);
    }
    if (path.length > MAX_VIEW_DEPTH) throw depthExceeded();
    path.push({ view: child, next: 0, height: 0 });
  }
}

/** The height of the views that read `name` (directly or through others) above it, `name` counted. */
function validateParents(ctx: CommandContext, name: string, created: ViewNode): number {
  const parents = new Map<string, { view: string; node: ViewNode }[]>();
  for (const collection of ctx.store.collections(ctx.db)) {
    const { viewOn, pipeline, collation } = collection.options;
    if (viewOn === undefined || collection.name === name) continue;
    const node = nodeOf(viewOn, pipeline, collation);
    for (const child of new Set(node.children)) {
      const list = parents.get(child) ?? [];
      list.push({ view: collection.name, node });
      parents.set(child, list);
    }
  }
  const heights = new Map<string, number>();
  const height = (view: string, collation: string, depth: number): number => {
    if (depth > MAX_VIEW_DEPTH) throw depthExceeded();
    const known = heights.get(view);
    if (known !== undefined) return known;
    let highest = 0;
    for (const parent of parents.get(view) ?? []) {
      if (parent.node.collation !== collation) throw collationMismatch(ctx.db, view, parent.view);
      highest = Math.max(highest, height(parent.view, parent.node.collation, depth + 1));
    }
    heights.set(view, highest + 1);
    return highest + 1;
  };
  return height(name, created.collation, 0);
}
