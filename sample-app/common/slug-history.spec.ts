import { BadRequestException } from '@nestjs/common';
import { MAX_SLUGS, nextSlugs, slugAfterUpdate, type SlugState } from './slug-history.js';

describe('slug history', () => {
  const pan: SlugState = { name: 'Pan', slug: 'pan', slugs: ['pan'] };

  describe('slugAfterUpdate', () => {
    it.each([
      ['no name and no slug', {}, 'pan'],
      ['the same name', { name: 'Pan' }, 'pan'],
      ['the same name with spaces the schema trims', { name: '  Pan ' }, 'pan'],
      ['a new name', { name: 'Big Pan' }, 'big-pan'],
      ['a new name that derives the same slug', { name: 'PAN!' }, 'pan'],
      ['a slug', { slug: 'skillet' }, 'skillet'],
      ['a new name and a slug: the slug wins', { name: 'Big Pan', slug: 'skillet' }, 'skillet'],
    ])('should answer the slug after %s', (_label, update, slug) => {
      expect(slugAfterUpdate(pan, update)).toBe(slug);
    });

    it('should keep an explicit slug when the name is sent unchanged', () => {
      expect(slugAfterUpdate({ name: 'Garden', slug: 'outdoor' }, { name: 'Garden' })).toBe('outdoor');
    });

    it('should refuse a new name no slug can be derived from, saying how to fix it', () => {
      expect(() => slugAfterUpdate(pan, { name: '寿司' })).toThrow(
        new BadRequestException(
          'cannot derive a slug from name "寿司"; send a slug (lowercase letters, digits and hyphens)',
        ),
      );
    });
  });

  describe('nextSlugs', () => {
    it.each([
      ['a first rename', ['pan'], 'big-pan', ['pan', 'big-pan']],
      ['a second rename', ['pan', 'big-pan'], 'skillet', ['pan', 'big-pan', 'skillet']],
      ['a rename back to an old slug', ['pan', 'big-pan', 'skillet'], 'pan', ['big-pan', 'skillet', 'pan']],
      ['a document stored before slug history', undefined, 'big-pan', ['pan', 'big-pan']],
    ])('should keep the old slugs in order and the new one last after %s', (_label, slugs, slug, expected) => {
      expect(nextSlugs({ name: 'Pan', slug: 'pan', slugs }, slug)).toEqual(expected);
    });

    it(`should keep at most ${MAX_SLUGS} slugs, dropping the oldest`, () => {
      const full = Array.from({ length: MAX_SLUGS }, (_, i) => `s${i}`);
      const next = nextSlugs({ name: 'x', slug: `s${MAX_SLUGS - 1}`, slugs: full }, 'new');
      expect(next).toHaveLength(MAX_SLUGS);
      expect(next).toEqual([...full.slice(1), 'new']);
    });
  });
});
