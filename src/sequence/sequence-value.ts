/**
 * What the service returns for a number: `number` by default, `bigint` for
 * sequences defined with `bigint: true`. Methods take it as a type parameter,
 * `next<bigint>('big')`, because the definition is only known at run time.
 */
export type SequenceValue = number | bigint;
