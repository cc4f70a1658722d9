import type { Document } from 'bson';

import { typeAlias } from '../query/element-operators.js';
import { numericType, toDouble } from '../query/numeric-types.js';

/**
 * The `writeConcernError` mongod answers a write whose `w` asks more members
 * than the replica set has (this server is its one data-bearing member): the
 * write is applied, and the reply says it cannot be acknowledged by that many
 * (UnsatisfiableWriteConcern, 100, "Not enough data-bearing nodes").
 * Undefined for any other write concern, which this one member satisfies.
 */
export function unsatisfiableWriteConcern(cmd: Document): Document | undefined {
  const concern: unknown = cmd.writeConcern;
  if (typeAlias(concern) !== 'object') return undefined;
  const { w, wtimeout } = concern as Document;
  if (numericType(w) === undefined || !(toDouble(w) > 1)) return undefined;
  return {
    code: 100,
    codeName: 'UnsatisfiableWriteConcern',
    errmsg: 'Not enough data-bearing nodes',
    errInfo: { writeConcern: { w, wtimeout: wtimeout ?? 0, provenance: 'clientSupplied' } },
  };
}
