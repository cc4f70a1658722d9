/**
 * The checks mongod's projection parser makes on a projection's shape
 * (projection_parser.cpp, building its projection AST), for find's
 * projection and for `$project` and `$unset`, one field after another in
 * the specification's order: each name is a FieldPath (40352, 15998, 40353,
 * 16410), a positional `.$` is find's only (31324) and only at a path's end
 * (31394), a sub-projection is never empty (51270), inclusion and exclusion
 * do not mix (31253, 31254; `_id` may be excluded from an inclusion), and no
 * path is given twice or inside another (31250, 31249). mingo answered
 * BadValue (2) in its own words, or nothing.
 */
import type { Document } from 'bson';

import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { checkFieldPath } from './field-path.js';

/** Where a projection is parsed. */
export interface ProjectionShapeSite {
  /** find's projection: `.$`, `$slice` and `$elemMatch` are its own operators. */
  readonly find?: boolean;
}

const POSITIONAL_MIDDLE =
  "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional projection may only be " +
  "used at the end, for example: a.b.$. If the query previously used a form like a.b.$.d, remove the parts following the '$' and " +
  'the results will be equivalent.';

type Kind = 'include' | 'exclude' | 'neutral';

/** What a value (not a sub-projection) makes its field: an inclusion, an exclusion, or neither (find's `$slice`). */
function kindOf(value: unknown, find: boolean): Kind {
  if (value === false || value === 0 || value === 0n) return 'exclude';
  if (typeAlias(value) === 'object') {
    const [operator] = Object.keys(value as Document);
    // `$meta` fits either kind (an exclusion may add a text score).
    if (operator === '$meta' || (find && operator === '$slice')) return 'neutral';
  }
  // true, other numbers, expressions (computed fields), literals and find's $elemMatch.
  return 'include';
}

const INCLUSION_TYPES = new Set(['bool', 'int', 'long', 'double', 'decimal']);

/** A boolean or a number: what includes or excludes a field (anything else is a literal). */
function isInclusionOrExclusion(value: unknown): boolean {
  return INCLUSION_TYPES.has(typeAlias(value));
}

/** Whether `value` is a sub-projection rather than a value: an object, unless of one `$` field (an expression). */
function isSubProjection(value: unknown): value is Document {
  if (typeAlias(value) !== 'object') return false;
  const keys = Object.keys(value as Document);
  return !(keys.length === 1 && keys[0]!.startsWith('$'));
}

class ShapeCheck {
  /** Every path given so far, and every path on the way to one (`a` for `a.b`). */
  private readonly leaves = new Set<string>();
  private readonly inner = new Set<string>();
  private kind: 'include' | 'exclude' | undefined;
  private hasPositional = false;
  private hasElemMatch = false;

  constructor(private readonly find: boolean) {}

  /** One element after another, in parseElement's order of checks. */
  walk(entries: [string, unknown][], prefix: string): void {
    for (const [key, value] of entries) {
      const positional = key.endsWith('.$');
      if (positional && !this.find) {
        throw new CommandError('Location31324', 'Cannot use positional projection in aggregation projection');
      }
      if (key.includes('.$.')) throw new CommandError('Location31394', POSITIONAL_MIDDLE);
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (typeAlias(value) === 'object') {
        if (positional) {
          throw new CommandError(
            'Location31271',
            'positional projection cannot be used with an expression or sub object',
          );
        }
        if (isSubProjection(value)) {
          if (Object.keys(value).length === 0) {
            throw new CommandError(
              'Location51270',
              'An empty sub-projection is not a valid value. Found empty object at path',
            );
          }
          checkFieldPath(key);
          this.walk(Object.entries(value), path);
          continue;
        }
        checkFieldPath(key);
        const operator = Object.keys(value as Document)[0];
        if (this.find && operator === '$elemMatch') {
          if (this.hasPositional) {
            throw new CommandError('Location31255', 'Cannot specify positional operator and $elemMatch.');
          }
          this.hasElemMatch = true;
        }
        const findOwn = this.find && (operator === '$slice' || operator === '$elemMatch');
        if (!findOwn && operator !== '$meta' && this.kind === 'exclude') {
          throw new CommandError('Location31252', 'Cannot use expression other than $meta in exclusion projection');
        }
        this.add(path);
        this.checkKind(key, path, kindOf(value, this.find));
      } else if (positional) {
        this.checkPositional(key, value);
        this.add(path.slice(0, -2));
        this.checkKind(key, path, 'include');
      } else {
        checkFieldPath(key);
        this.add(path);
        if (!isInclusionOrExclusion(value) && this.kind === 'exclude') {
          throw new CommandError(
            'Location31310',
            `Cannot use an expression ${key}: ${formatKeyValue(value)} in an exclusion projection`,
          );
        }
        this.checkKind(key, path, kindOf(value, this.find));
      }
    }
  }

  /** find's `path.$`: `true` or a non-zero number, one per projection, not beside `$elemMatch`, on a field path. */
  private checkPositional(key: string, value: unknown): void {
    if (!isInclusionOrExclusion(value)) {
      throw new CommandError('Location31308', 'positional projection cannot be used with a literal');
    }
    if (kindOf(value, true) === 'exclude') {
      throw new CommandError('Location31395', 'positional projection cannot be used with exclusion');
    }
    if (this.hasPositional) {
      throw new CommandError('Location31276', 'Cannot specify more than one positional projection per query.');
    }
    if (this.hasElemMatch) {
      throw new CommandError('Location31256', 'Cannot specify positional operator and $elemMatch.');
    }
    if (key === '.$') throw new CommandError('Location5392900', `Projection on field ${key} is invalid`);
    checkFieldPath(key.slice(0, -2));
    this.hasPositional = true;
  }

  private checkKind(key: string, path: string, kind: Kind): void {
    if (kind === 'neutral') return;
    // `_id: 0` fits an inclusion, `_id: 1` an exclusion; neither decides the projection's kind.
    if (path === '_id') return;
    if (this.kind === undefined) this.kind = kind;
    else if (this.kind !== kind) {
      throw this.kind === 'include'
        ? new CommandError('Location31254', `Cannot do exclusion on field ${key} in inclusion projection`)
        : new CommandError('Location31253', `Cannot do inclusion on field ${key} in exclusion projection`);
    }
  }

  /** Adds `path`, refusing one given already, one inside a path given (31249), one around paths given (31250). */
  private add(path: string): void {
    if (this.leaves.has(path) || this.inner.has(path)) {
      throw new CommandError('Location31250', `Path collision at ${path}`);
    }
    const parts = path.split('.');
    for (let i = 1; i < parts.length; i++) {
      const above = parts.slice(0, i).join('.');
      if (this.leaves.has(above)) {
        throw new CommandError(
          'Location31249',
          `Path collision at ${path} remaining portion ${parts.slice(i).join('.')}`,
        );
      }
    }
    this.leaves.add(path);
    for (let i = 1; i < parts.length; i++) this.inner.add(parts.slice(0, i).join('.'));
  }
}

/** Checks a projection's shape as mongod's parser does; its expressions are checked apart (expression-check.ts). */
export function checkProjectionShape(spec: Document, site: ProjectionShapeSite = {}): void {
  new ShapeCheck(site.find === true).walk(Object.entries(spec), '');
}

/**
 * `$unset`'s specification, checked as mongod reads it: a string or a
 * non-empty array of strings (31002, 31119, 31120), then, inside
 * `$unset`'s own "Invalid $unset" context, as the exclusion projection it
 * is made into (each a path, given once).
 */
export function checkUnsetSpec(spec: unknown, inContext: (check: () => void) => void): void {
  const paths = unsetPaths(spec);
  inContext(() =>
    new ShapeCheck(false).walk(
      paths.map((path) => [path, 0]),
      '',
    ),
  );
}

function unsetPaths(spec: unknown): string[] {
  if (typeof spec === 'string') return [spec];
  if (!Array.isArray(spec)) {
    throw new CommandError('Location31002', '$unset specification must be a string or an array');
  }
  if (spec.length === 0) {
    throw new CommandError(
      'Location31119',
      '$unset specification must be a string or an array with at least one field',
    );
  }
  if (!spec.every((field) => typeof field === 'string')) {
    throw new CommandError(
      'Location31120',
      '$unset specification must be a string or an array containing only string values',
    );
  }
  return spec as string[];
}
