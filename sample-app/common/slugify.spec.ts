import { MAX_SLUG_LENGTH, SLUG_PATTERN, slugify } from './slugify.js';

describe('slugify', () => {
  it.each([
    ['Espresso Cup', 'espresso-cup'],
    ['  Crème   Brûlée -- Set  ', 'creme-brulee-set'],
    ['Żółć Gęślą', 'zoc-gesla'], // ł has no decomposition and is dropped
    ['ＡＢＣ １２３', 'abc-123'], // full-width forms fold to ASCII under NFKD
    ['ﬁne ½ pint', 'fine-1-2-pint'],
    ['C++ & C#', 'c-c'],
    ['already-a-slug', 'already-a-slug'],
    ['UPPER_snake_Case', 'upper-snake-case'],
  ])('should turn %j into %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
    expect(SLUG_PATTERN.test(slug)).toBe(true);
  });

  it.each([[''], ['   '], ['日本語'], ['---'], ['ßłø']])('should give an empty slug for %j', (name) => {
    expect(slugify(name)).toBe('');
  });

  it('should cut long names at a hyphen and keep the slug valid', () => {
    const slug = slugify('word '.repeat(40));
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(slug).toBe(Array.from({ length: 20 }, () => 'word').join('-'));
    expect(slugify('x'.repeat(150))).toBe('x'.repeat(MAX_SLUG_LENGTH));
  });
});
