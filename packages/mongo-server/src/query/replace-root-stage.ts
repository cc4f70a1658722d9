/**
 * `$replaceRoot` and `$replaceWith` as mongod runs them
 * (document_source_replace_root.cpp): a new root that is not a document
 * fails with 40228, naming the value, its type and the input document, where
 * mingo answered BadValue "$replaceRoot expression must return an object".
 * mongod's message shows the input document as the stage received it, after
 * the pipeline's dependency analysis left out the fields no stage reads; here
 * that is the fields the new root's expression reads (all of them when it
 * reads `$$ROOT` or `$$CURRENT`). `$documents` is mongod's `$replaceRoot` of
 * each element too, so an element that is no document fails the same way
 * (mingo's stage passed it on, and the reply carried a number where the
 * driver reads a document).
 */
import { randomUUID } from 'node:crypto';

import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { isSubDocument } from '../bson/bson-compare.js';
import { formatValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { pathsAsOperators } from './aggregation-paths.js';
import { typeAlias } from './element-operators.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

/** The top-level fields `expr` reads, or `undefined` when it reads the whole document. */
function fieldsRead(expr: unknown): Set<string> | undefined {
  const fields = new Set<string>();
  const stack = [expr];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') {
      if (/^\$\$(ROOT|CURRENT)(\.|$)/.test(next)) return undefined;
      if (next.startsWith('$') && !next.startsWith('$$')) fields.add(next.slice(1).split('.')[0]!);
    } else if (Array.isArray(next)) {
      for (const element of next as unknown[]) stack.push(element);
    } else if (isSubDocument(next)) {
      if (Object.hasOwn(next, '$literal')) continue;
      for (const key of Object.keys(next)) stack.push(next[key]);
    }
  }
  return fields;
}

/** `doc` as mongod's message shows it: only the fields the stage reads. */
function inputAsSeen(doc: Document, fields: Set<string> | undefined): Document {
  if (fields === undefined) return doc;
  const seen: Document = {};
  for (const key of Object.keys(doc)) {
    if (fields.has(key)) Object.defineProperty(seen, key, { value: doc[key], enumerable: true });
  }
  return seen;
}

function notADocument(context: string, value: unknown, input: Document): CommandError {
  return new CommandError(
    'Location40228',
    `${context} must evaluate to an object, but resulting value was: ${formatValue(value)}. ` +
      `Type of resulting value: '${typeAlias(value)}'. Input document: ${formatValue(input)}`,
  );
}

/**
 * `$documents` (`original`, mingo's) with each element checked as mongod's
 * rewrite checks it: `$replaceRoot` of a field named by a new UUID.
 */
export function documentsStage(original: PipelineOperator): PipelineOperator {
  return (collection, expr, options) =>
    original(collection, expr, options).map((doc: unknown) => {
      if (!isSubDocument(doc)) throw notADocument("'newRoot' expression", doc, { [randomUUID()]: doc });
      return doc;
    });
}

/** `$replaceRoot` (`{ newRoot }`) or `$replaceWith` (the expression itself). */
export function replaceRootStage(name: '$replaceRoot' | '$replaceWith'): PipelineOperator {
  const context = name === '$replaceRoot' ? "'newRoot' expression" : "'replacement document'";
  return (collection, expr, options) => {
    const newRoot = name === '$replaceRoot' ? (expr as Document).newRoot : expr;
    const rewritten = pathsAsOperators(newRoot);
    const fields = fieldsRead(newRoot);
    return collection.map((doc: Document) => {
      const value: unknown = evalExpr(doc, rewritten, options);
      if (!isSubDocument(value)) throw notADocument(context, value, inputAsSeen(doc, fields));
      return value;
    });
  };
}
