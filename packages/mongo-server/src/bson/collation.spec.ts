import { Collation } from './collation.js';

function order(spec: Record<string, unknown>): (a: string, b: string) => number {
  const collation = Collation.parse(spec);
  if (!collation) throw new Error('expected a non-simple collation');
  return (a, b) => Math.sign(collation.compare(a, b));
}

describe('Collation', () => {
  describe('parse', () => {
    it('should stand for the simple collation with undefined', () => {
      expect(Collation.parse({ locale: 'simple' })).toBeUndefined();
    });

    it('should fill in the defaults as mongod reports them', () => {
      expect(Collation.parse({ locale: 'en' })?.spec).toEqual({
        locale: 'en',
        caseLevel: false,
        caseFirst: 'off',
        strength: 3,
        numericOrdering: false,
        alternate: 'non-ignorable',
        maxVariable: 'punct',
        normalization: false,
        backwards: false,
        version: '57.1',
      });
    });

    it('should give one instance per spec, so that the planner can compare them', () => {
      expect(
        Collation.same(Collation.parse({ locale: 'en', strength: 2 }), Collation.parse({ strength: 2, locale: 'en' })),
      ).toBe(true);
      expect(Collation.same(Collation.parse({ locale: 'en', strength: 2 }), Collation.parse({ locale: 'en' }))).toBe(
        false,
      );
      expect(Collation.same(undefined, Collation.parse({ locale: 'simple' }))).toBe(true);
    });
  });

  describe('compare', () => {
    it.each<[string, Record<string, unknown>, string, string, number]>([
      ['strength 1 ignores accents', { locale: 'en', strength: 1 }, 'cote', 'côté', 0],
      ['strength 1 ignores case', { locale: 'en', strength: 1 }, 'Cote', 'cote', 0],
      ['strength 1 with caseLevel tells case apart', { locale: 'en', strength: 1, caseLevel: true }, 'Cote', 'cote', 1],
      [
        'strength 1 with caseLevel still ignores accents',
        { locale: 'en', strength: 1, caseLevel: true },
        'cote',
        'côte',
        0,
      ],
      ['strength 2 tells accents apart', { locale: 'en', strength: 2 }, 'cote', 'côte', -1],
      ['strength 2 ignores case', { locale: 'en', strength: 2 }, 'COTE', 'cote', 0],
      ['strength 2 with caseLevel tells case apart', { locale: 'en', strength: 2, caseLevel: true }, 'COTE', 'cote', 1],
      ['strength 3 tells case apart', { locale: 'en' }, 'a', 'A', -1],
      ['caseFirst upper puts upper case first', { locale: 'en', caseFirst: 'upper' }, 'a', 'A', 1],
      ['numericOrdering compares digits as numbers', { locale: 'en', numericOrdering: true }, 'a10', 'a9', 1],
      ['alternate shifted ignores punctuation', { locale: 'en', alternate: 'shifted' }, 'e-mail', 'email', 0],
      [
        'strength 4 with shifted breaks ties by punctuation',
        { locale: 'en', strength: 4, alternate: 'shifted' },
        'e-mail',
        'email',
        -1,
      ],
      ['strength 5 breaks ties by code point', { locale: 'en', strength: 5 }, 'a\u0000', 'a', 1],
    ])('%s', (_label, spec, a, b, expected) => {
      expect(order(spec)(a, b)).toBe(expected);
    });
  });
});
