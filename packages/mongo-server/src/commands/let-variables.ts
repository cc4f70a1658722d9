import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';

import { typeAlias } from '../query/element-operators.js';
import { mingoOptions, withMingoErrors } from '../query/query-context.js';
import { wrongType } from './command-arguments.js';
import { CommandError } from './command-error.js';

/** Commands that take `let`, and where their filters and pipelines are. */
const TAKES_LET = new Set(['find', 'aggregate', 'update', 'delete', 'findAndModify', 'findandmodify']);
const VARIABLE = /^\$\$([^.]+)(?:\.(.+))?$/;

type Variables = ReadonlyMap<string, unknown>;

/** An aggregation expression with each `$$name` (or `$$name.path`) of `let` replaced by its value. */
function bind(expr: unknown, vars: Variables): unknown {
  if (typeof expr === 'string') {
    const [, name, path] = VARIABLE.exec(expr) ?? [];
    if (name === undefined || !vars.has(name)) return expr;
    const value = vars.get(name);
    return { $literal: path === undefined ? value : resolve(value as Document, path) };
  }
  if (Array.isArray(expr)) return expr.map((item) => bind(item, vars));
  if (typeAlias(expr) !== 'object') return expr;
  // fromEntries defines fields: assigning one named `__proto__` would set the copy's prototype instead.
  return Object.fromEntries(
    Object.entries(expr as Document).map(([key, value]) => [
      key,
      key === '$literal' || key === '$const' ? value : bind(value, vars),
    ]),
  );
}

/** A query filter with variables bound inside its `$expr`s only (elsewhere `'$$x'` is a plain string). */
function bindFilter(filter: unknown, vars: Variables): unknown {
  if (Array.isArray(filter)) return filter.map((clause) => bindFilter(clause, vars));
  if (typeAlias(filter) !== 'object') return filter;
  return Object.fromEntries(
    Object.entries(filter as Document).map(([key, value]) => [
      key,
      key === '$expr' ? bind(value, vars) : ['$and', '$or', '$nor'].includes(key) ? bindFilter(value, vars) : value,
    ]),
  );
}

/** A find projection (or findAndModify's `fields`) with variables bound in its expressions; an `$elemMatch` is a filter. */
function bindProjection(spec: unknown, vars: Variables): unknown {
  if (typeAlias(spec) !== 'object') return spec;
  return Object.fromEntries(
    Object.entries(spec as Document).map(([key, value]) => {
      const elemMatch = typeAlias(value) === 'object' && Object.keys(value as Document)[0] === '$elemMatch';
      return [key, elemMatch ? { $elemMatch: bindFilter((value as Document).$elemMatch, vars) } : bind(value, vars)];
    }),
  );
}

function bindPipeline(pipeline: unknown, vars: Variables): unknown {
  if (!Array.isArray(pipeline)) return pipeline;
  return pipeline.map((stage: unknown) => {
    if (typeAlias(stage) !== 'object') return stage;
    const keys = Object.keys(stage as Document);
    // A stage of several fields is left whole, for the pipeline check to refuse (40323).
    if (keys.length !== 1) return stage;
    const name = keys[0]!;
    const spec: unknown = (stage as Document)[name];
    return { [name]: name === '$match' ? bindFilter(spec, vars) : bind(spec, vars) };
  });
}

/** `let`'s variables, each evaluated once as mongod does (`{ total: { $add: [1, 2] } }` is 3). */
function variables(raw: unknown, name: string): Variables {
  if (typeAlias(raw) !== 'object') {
    throw wrongType(`${name}.let`, raw, 'object');
  }
  const vars = new Map<string, unknown>();
  for (const [key, expr] of Object.entries(raw as Document)) {
    if (!/^[a-z\u0080-\uffff][\w\u0080-\uffff]*$/.test(key)) {
      throw new CommandError('Location16870', `'${key}' starts with an invalid character for a user variable name`);
    }
    vars.set(
      key,
      withMingoErrors(() => evalExpr({}, bind(expr, vars), mingoOptions() as Options)),
    );
  }
  return vars;
}

/**
 * `cmd` with its `let` variables bound into its filters and pipelines
 * (find, aggregate, update, delete, findAndModify), and `let` removed;
 * `cmd` itself when it has none.
 */
export function bindLetVariables(name: string, cmd: Document): Document {
  if (!TAKES_LET.has(name) || cmd.let === undefined) return cmd;
  const vars = variables(cmd.let, name);
  const { let: _let, ...rest } = cmd;
  switch (name) {
    case 'find':
      return { ...rest, filter: bindFilter(rest.filter, vars), projection: bindProjection(rest.projection, vars) };
    case 'aggregate':
      return { ...rest, pipeline: bindPipeline(rest.pipeline, vars) };
    case 'update':
      return {
        ...rest,
        updates: (rest.updates as Document[]).map((s) => ({
          ...s,
          q: bindFilter(s.q, vars),
          u: Array.isArray(s.u) ? bindPipeline(s.u, vars) : s.u,
        })),
      };
    case 'delete':
      return { ...rest, deletes: (rest.deletes as Document[]).map((s) => ({ ...s, q: bindFilter(s.q, vars) })) };
    default:
      return {
        ...rest,
        query: bindFilter(rest.query, vars),
        update: Array.isArray(rest.update) ? bindPipeline(rest.update, vars) : rest.update,
        fields: bindProjection(rest.fields, vars),
      };
  }
}
