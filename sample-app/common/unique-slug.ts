import { BadRequestException, ConflictException } from '@nestjs/common';
import { duplicateKeyValue, isDuplicateKeyError } from '../database/duplicate-key.js';
import { slugify } from './slugify.js';

/** The slug a client sent, or one derived from `name`; 400 when none can be derived. */
export function slugOrDerive(slug: string | undefined, name: string): string {
  const result = slug ?? slugify(name);
  if (result === '') {
    throw new BadRequestException(
      `cannot derive a slug from name ${JSON.stringify(name)}; send a slug (lowercase letters, digits and hyphens)`,
    );
  }
  return result;
}

/**
 * Runs a write guarded by a unique index on `slug` and turns its E11000 into
 * `409 slug "…" is already taken`. The write itself is the check — no read
 * before it — so two requests racing for one slug cannot both succeed.
 */
export async function withUniqueSlug<T>(slug: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateKeyError(error)) {
      throw new ConflictException(`slug "${String(duplicateKeyValue(error, 'slug') ?? slug)}" is already taken`);
    }
    throw error;
  }
}
