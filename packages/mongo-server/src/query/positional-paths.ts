import { randomUUID } from 'node:crypto';

import type { Document } from 'bson';
import { updateOne } from 'mingo/updater';
import type { Modifier } from 'mingo/updater';
import { cloneDeep } from 'mingo/util';

import { conditionForMingo } from './mingo-values.js';
import { mingoOptions, withMingoErrors } from './query-context.js';

const POSITIONAL = /^\$(\[[^\]]*\])?$/;

/** True when a component of `path` is `$`, `$[]` or `$[identifier]`. */
export function isPositionalPath(path: string): boolean {
  return path.split('.').some((part) => POSITIONAL.test(part));
}

function collect(value: unknown, prefix: string, marker: string, out: string[]): void {
  if (value === marker) {
    out.push(prefix);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return;
  for (const [key, child] of Object.entries(value as Document)) {
    collect(child, prefix === '' ? key : `${prefix}.${key}`, marker, out);
  }
}

/**
 * The plain dotted paths (`items.1.q`) a positional update path
 * (`items.$.q`, `items.$[].q`, `items.$[big].q`) addresses in `doc`.
 *
 * mingo resolves positional paths correctly but then applies `$min`, `$max`,
 * `$addToSet` and `$push`+`$sort` with its own comparison, which orders
 * Int64 as text. So mingo is only asked where the path leads — by `$set`ting
 * a unique marker on a throw-away copy — and the embedded server's own
 * operators (BSON order) are applied at the paths found.
 */
export function concretePaths(
  doc: Document,
  path: string,
  filter: Document | undefined,
  arrayFilters: Document[] | undefined,
): string[] {
  if (!isPositionalPath(path)) return [path];
  const marker = `\u0000embedded-positional-${randomUUID()}`;
  const docs = [cloneDeep(doc) as Document];
  const condition = path.split('.').includes('$') ? conditionForMingo(filter ?? {}) : {};
  withMingoErrors(() =>
    updateOne(
      docs,
      condition,
      { $set: { [path]: marker } } as Modifier<Document>,
      { arrayFilters: conditionForMingo(arrayFilters), cloneMode: 'copy' },
      mingoOptions(),
    ),
  );
  const found: string[] = [];
  collect(docs[0], '', marker, found);
  return found;
}
