/** The int32 range. */
export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;

/**
 * Whether `BSON.serialize` writes the JavaScript number `value` as an int32:
 * integral, in int32 range and not -0. It writes any other number as a double.
 */
export function writesAsInt32(value: number): boolean {
  return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX && !Object.is(value, -0);
}
