import { CommandError } from '../commands/command-error.js';
import { notSupported } from './expression-check.js';

type Predicate = (doc: unknown) => boolean;

/** mongod's geospatial query operators: this server keeps no geo index and computes no geometry. */
const GEO_QUERY_OPERATORS = ['$geoWithin', '$within', '$geoIntersects', '$near', '$nearSphere'] as const;

/**
 * The geospatial query operators, each refusing its query with
 * CommandNotSupported naming it, where mingo's "unknown operator" would
 * read as a malformed query. At a filter's top level they are unknown
 * operators, as in mongod.
 */
export const GEO_OPERATORS = Object.fromEntries(
  GEO_QUERY_OPERATORS.map((name) => [
    name,
    (selector: string): Predicate => {
      if (selector === name) throw new CommandError('BadValue', `unknown top level operator: ${name}`);
      throw notSupported(`The ${name} query operator (geospatial queries)`);
    },
  ]),
);
