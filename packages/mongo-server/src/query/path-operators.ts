/** Query operators that take a path (`{ $gte: 6 }` is a condition on each value, `{ $or: … }` is not). */
export const PATH_OPERATORS: ReadonlySet<string> = new Set([
  ...['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$all', '$exists', '$type', '$size', '$mod'],
  ...['$regex', '$options', '$elemMatch', '$not', '$bitsAllSet', '$bitsAllClear', '$bitsAnySet', '$bitsAnyClear'],
  ...['$geoWithin', '$geoIntersects', '$near', '$nearSphere', '$within'],
]);
