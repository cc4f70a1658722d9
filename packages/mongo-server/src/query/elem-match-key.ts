/**
 * The array position a filter matched a document at: mongod's
 * `MatchDetails::elemMatchKey`, which a find projection's positional `.$`
 * applies to the first array on its own path (not necessarily the array
 * the filter read: `find({a: 2}, {'b.$': 1})` takes `b` at `a`'s position).
 *
 * As mongod's matcher records it: a condition on a path through an array
 * records the position of the first element it matched (in the first
 * array on the path); of `$and`'s children (and a document's fields, and an
 * operator document's operators) the last that records one wins; `$or`,
 * `$not`, `$ne`, `$nin`, `$nor` and `$expr` record none. A condition
 * matching the whole array records none.
 */
import type { Document } from 'bson';

import { OperationBudget } from './operation-budget.js';
import { compileFilter } from './query-context.js';
import { isDbRefDocument } from './db-ref-fields.js';

/** Operators that match by what an element is not: mongod's NOT nodes, which record no position. */
const NEGATIONS = new Set(['$not', '$ne', '$nin']);

type Matcher = (doc: Document) => boolean;

/** A filter read for positions: its conditions in order. */
type Plan = { kind: 'all'; steps: Plan[] } | { kind: 'path'; names: string[]; matches: Matcher };

function isOperatorDocument(value: unknown): value is Document {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.keys(value).some((key) => key.startsWith('$')) &&
    // `{ $ref: …, $id: … }` is a DBRef to compare with, not operators.
    !isDbRefDocument(value, false)
  );
}

/** A path's condition: each operator on its own (`$regex` with its `$options`), negations left out. */
function pathPlan(path: string, condition: unknown): Plan {
  const names = path.split('.');
  if (!isOperatorDocument(condition)) return { kind: 'path', names, matches: compileFilter({ [path]: condition }) };
  const steps: Plan[] = [];
  for (const [operator, operand] of Object.entries(condition)) {
    if (NEGATIONS.has(operator) || operator === '$options') continue;
    const single: Document =
      operator === '$regex' && Object.hasOwn(condition, '$options')
        ? { $regex: operand, $options: condition.$options }
        : { [operator]: operand };
    steps.push({ kind: 'path', names, matches: compileFilter({ [path]: single }) });
  }
  return { kind: 'all', steps };
}

/** The value a one-field `$or` branch asks its field to equal (`{a: 2}`, `{a: {$eq: 2}}`); undefined otherwise. */
function equality(branch: Document): { path: string; value: unknown } | undefined {
  const entries = Object.entries(branch);
  if (entries.length !== 1 || entries[0]![0].startsWith('$')) return undefined;
  const [path, condition] = entries[0]!;
  if (!isOperatorDocument(condition)) return { path, value: condition };
  const keys = Object.keys(condition);
  return keys.length === 1 && keys[0] === '$eq' ? { path, value: condition.$eq } : undefined;
}

/**
 * An `$or` records no position (mongod's OR matches its children without
 * details), except as mongod rewrites it first: one branch is that branch,
 * equalities on one field are an `$in`.
 */
function orPlan(branches: Document[]): Plan | undefined {
  if (branches.length === 1) return planOf(branches[0]!);
  const equalities = branches.map(equality);
  const path = equalities[0]?.path;
  if (path === undefined || !equalities.every((item) => item?.path === path)) return undefined;
  return pathPlan(path, { $in: equalities.map((item) => item!.value) });
}

function planOf(filter: Document): Plan {
  const steps: Plan[] = [];
  for (const [name, value] of Object.entries(filter)) {
    if (name === '$and' && Array.isArray(value)) {
      steps.push({ kind: 'all', steps: (value as Document[]).map(planOf) });
    } else if (name === '$or' && Array.isArray(value)) {
      const plan = orPlan(value as Document[]);
      if (plan) steps.push(plan);
    } else if (!name.startsWith('$')) {
      steps.push(pathPlan(name, value));
    }
    // Other top-level operators ($nor, $expr, $text, …) record no position.
  }
  return { kind: 'all', steps };
}

/**
 * The first element of the first array on the path that alone (in a
 * one-element array in its place) makes the path's condition match.
 */
function position(names: readonly string[], matches: Matcher, doc: Document): number | undefined {
  let value: unknown = doc;
  let depth = -1;
  for (let i = 0; i < names.length; i++) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, names[i]!) ? (value as Document)[names[i]!] : undefined;
    if (Array.isArray(value)) {
      depth = i;
      break;
    }
  }
  if (depth < 0) return undefined;
  const array = value as unknown[];
  for (let index = 0; index < array.length; index++) {
    OperationBudget.tick();
    let probe: unknown = [array[index]];
    for (let i = depth; i >= 0; i--) probe = { [names[i]!]: probe };
    if (matches(probe as Document)) return index;
  }
  return undefined;
}

function keyOf(plan: Plan, doc: Document): number | undefined {
  switch (plan.kind) {
    case 'path':
      return position(plan.names, plan.matches, doc);
    case 'all': {
      let key: number | undefined;
      for (const step of plan.steps) key = keyOf(step, doc) ?? key;
      return key;
    }
  }
}

/** A filter's elemMatchKey for the documents it matched, its conditions compiled once. */
export class ElemMatchKey {
  private readonly plan: Plan;

  constructor(filter: Document) {
    this.plan = planOf(filter);
  }

  /** The position the filter matched `doc` at, or undefined when no condition recorded one. */
  of(doc: Document): number | undefined {
    return keyOf(this.plan, doc);
  }
}
