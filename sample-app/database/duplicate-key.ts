/** The fields of a MongoDB E11000 error this app reads. */
interface DuplicateKeyError {
  code: 11000;
  /** The conflicting key, e.g. `{ slug: 'espresso-cup' }` (MongoDB 4.4+, also on the embedded server). */
  keyValue?: Record<string, unknown>;
}

/** Whether `error` is a unique-index violation (E11000) reported by the server. */
export function isDuplicateKeyError(error: unknown): error is DuplicateKeyError {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

/**
 * The value of `field` that violated a unique index, read from the error the
 * server sent. The write itself is the check (no read before it), so two
 * requests racing for the same value cannot both succeed.
 */
export function duplicateKeyValue(error: unknown, field: string): unknown {
  return isDuplicateKeyError(error) ? error.keyValue?.[field] : undefined;
}
