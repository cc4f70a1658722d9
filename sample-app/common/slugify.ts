/** Longest slug {@link slugify} produces; longer names are cut at a hyphen boundary when possible. */
export const MAX_SLUG_LENGTH = 100;

/** What a slug may look like: lowercase ASCII letters and digits, separated by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * URL slug of a name: `"Crème Brûlée  Set"` → `"creme-brulee-set"`. NFKD splits
 * accented letters into letter + combining mark, the marks are dropped, and
 * every run of other characters becomes one hyphen. Letters without an ASCII
 * decomposition (`ß`, `ł`, CJK) are dropped as well, so the result may be empty:
 * the caller must then ask for an explicit slug.
 */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    // Letters and digits left outside ASCII have no ASCII form: drop them rather than split the word.
    .replace(/(?![a-z0-9])[\p{L}\p{N}]/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= MAX_SLUG_LENGTH) return slug;
  const cut = slug.slice(0, MAX_SLUG_LENGTH);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen > 0 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '');
}
