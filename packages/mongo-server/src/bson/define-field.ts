/**
 * Sets `key` of `target` as an own, enumerable, writable field. Defined, not
 * assigned: a field named "__proto__" (which BSON documents may hold) stays
 * a field instead of replacing the prototype.
 */
export function defineField(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
