import { ConflictException } from '@nestjs/common';
import type { Model, Types } from 'mongoose';
import { slugOrDerive, withUniqueSlug } from './unique-slug.js';

/**
 * Most slugs a product or category keeps, its current one included. Past
 * this the oldest one stops redirecting and is free for others again, so a
 * document that is renamed over and over does not grow without bound.
 */
export const MAX_SLUGS = 20;

/** What a rename needs to know of the stored document. */
export interface SlugState {
  name: string;
  slug: string;
  /** Absent on documents stored before slug history, until the start-up backfill has run. */
  slugs?: string[];
}

/**
 * The slug after a `PATCH`: the one sent, else one derived from a changed name
 * (400 when none can be derived, as on creation), else the current one. A
 * name sent unchanged keeps an explicit slug such as `outdoor` for `Garden`.
 */
export function slugAfterUpdate(current: SlugState, update: { name?: string; slug?: string }): string {
  if (update.slug !== undefined) return update.slug;
  // The schema trims names, so "Pan " is no rename of "Pan".
  if (update.name === undefined || update.name.trim() === current.name) return current.slug;
  return slugOrDerive(undefined, update.name);
}

/**
 * The slugs a document answers to once its slug becomes `slug`: the earlier
 * ones in the order they were used and `slug` last (moved there when it is an
 * old one again), at most MAX_SLUGS.
 */
export function nextSlugs(current: SlugState, slug: string): string[] {
  const earlier = (current.slugs ?? [current.slug]).filter((old) => old !== slug);
  return [...earlier, slug].slice(-MAX_SLUGS);
}

/**
 * Gives documents stored before slug history (no `slugs` field, e.g. in a
 * `MONGO_URL` database) their current slug as history, so the lookups by
 * `slugs` find them. One `updateMany` at start-up; once done it matches nothing.
 */
export async function backfillSlugs<T extends SlugState>(model: Model<T>): Promise<void> {
  await model.updateMany({ slugs: { $exists: false } }, [{ $set: { slugs: ['$slug'] } }], { updatePipeline: true });
}

/**
 * Writes `$set` to document `id` and answers it as it is after, or null when
 * there is none. A rename (a new slug sent, or derived from a new name) also
 * writes the slug history that keeps the old slug working, and only if nobody
 * renamed the document since it was read, or the history would lose a slug:
 * 409 then, as for a slug that is taken (now or in another's history).
 */
export async function updateWithSlugHistory<T extends SlugState>(
  model: Model<T>,
  id: Types.ObjectId,
  $set: Partial<SlugState>,
  kind: string,
): Promise<T | null> {
  let filter: { _id: Types.ObjectId; slug?: string } = { _id: id };
  if ($set.name !== undefined || $set.slug !== undefined) {
    const current = await model.findById(id, { name: 1, slug: 1, slugs: 1 }).lean<SlugState>();
    if (current === null) return null;
    const slug = slugAfterUpdate(current, $set);
    if (slug === current.slug) {
      delete $set.slug;
    } else {
      Object.assign($set, { slug, slugs: nextSlugs(current, slug) });
      filter = { _id: id, slug: current.slug };
    }
  }
  const updated = await withUniqueSlug($set.slug, () =>
    model.findOneAndUpdate(filter, { $set }, { returnDocument: 'after', runValidators: true }).lean<T>(),
  );
  if (updated === null && filter.slug !== undefined && (await model.exists({ _id: id })) !== null) {
    throw new ConflictException(
      `${kind} ${id.toHexString()} was renamed by another request meanwhile; GET it and send the PATCH again`,
    );
  }
  return updated;
}
