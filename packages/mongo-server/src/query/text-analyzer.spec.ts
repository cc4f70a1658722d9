import { snowballStemmer } from './snowball-stemmers.cjs';
import { foldText, indexAnalysis, textTerms } from './text-analyzer.js';
import { parseSearch } from './text-query-parser.js';

const english = indexAnalysis('english');

describe('snowballStemmer', () => {
  // Porter2's (Snowball "english") stems, as snowballstem.org's sample vocabulary lists them.
  it.each([
    ['cats', 'cat'],
    ['runs', 'run'],
    ['running', 'run'],
    ['baking', 'bake'],
    ['hoping', 'hope'],
    ['hopping', 'hop'],
    ['filing', 'file'],
    ['fitted', 'fit'],
    ['agreed', 'agre'],
    ['bleed', 'bleed'],
    ['kneeling', 'kneel'],
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['ties', 'tie'],
    ['cries', 'cri'],
    ['gas', 'gas'],
    ['boys', 'boy'],
    ['played', 'play'],
    ['happily', 'happili'],
    ['coffee', 'coffe'],
    ["coffee's", 'coffe'],
    ['consistency', 'consist'],
    ['consistently', 'consist'],
    ['consolatory', 'consolatori'],
    ['consolidated', 'consolid'],
    ['consolingly', 'consol'],
    ['consonant', 'conson'],
    ['conspicuously', 'conspicu'],
    ['conspiracy', 'conspiraci'],
    ['constance', 'constanc'],
    ['knackeries', 'knackeri'],
    ['knightly', 'knight'],
    ['knives', 'knive'],
    ['skies', 'sky'],
    ['dying', 'die'],
    ['news', 'news'],
    ['generously', 'generous'],
    ['hopeful', 'hope'],
    // Steps 2 to 4 (derivational suffixes).
    ['nationalization', 'nation'],
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['rationalism', 'ration'],
    ['effectiveness', 'effect'],
    ['electrical', 'electr'],
    ['adjustment', 'adjust'],
    ['formality', 'formal'],
  ])('stems English %s to %s (Porter2)', (word, stem) => {
    expect(snowballStemmer('english').stem(word)).toBe(stem);
  });

  it.each([
    ['french', 'gâteaux', 'gâteau'],
    ['french', 'délicieuse', 'délici'],
    ['german', 'häuser', 'haus'],
    ['spanish', 'canciones', 'cancion'],
  ])('stems %s %s to %s', (language, word, stem) => {
    expect(snowballStemmer(language).stem(word)).toBe(stem);
  });

  it('makes one stemmer per language', () => {
    expect(snowballStemmer('french')).toBe(snowballStemmer('french'));
  });
});

describe('textTerms', () => {
  it.each([
    ['folds case and diacritics, drops stop words, stems', "The Café's CAKES", ['cafe', 'cake']],
    ['keeps an English apostrophe inside a word (a stop word here)', "don't stop", ['stop']],
    ['splits on punctuation and hyphens', 'green-tea,black_tea', ['green', 'tea', 'black', 'tea']],
    ['keeps digits', 'route 66', ['rout', '66']],
  ])('%s', (_label, text, terms) => {
    expect([...textTerms(text, english)]).toEqual(terms);
  });

  it.each([
    ['french', 'Les gâteaux étaient délicieux', ['gateau', 'delici']],
    ['german', 'Die Häuser und der Garten', ['haus', 'gart']],
    ['spanish', 'Las canciones de la noche', ['cancion', 'noch']],
    ['romanian (no stop words in mongod)', 'și casele', ['si', 'cas']],
    ['none (neither stems nor drops)', 'The Houses', ['the', 'houses']],
  ])('drops stop words and stems in %s', (language, text, terms) => {
    expect([...textTerms(text, indexAnalysis(language.split(' ')[0]!))]).toEqual(terms);
  });

  it('checks stop words before diacritics are stripped, as mongod does', () => {
    // "été" is a French stop word; "ete" is not one.
    expect([...textTerms('été ete', indexAnalysis('french'))]).toEqual(['ete']);
  });

  it('leaves a word longer than any real one unstemmed (stemming it would take quadratic time)', () => {
    expect([...textTerms('y'.repeat(128), english)]).toEqual([`${'y'.repeat(127)}i`]);
    expect([...textTerms('y'.repeat(130), english)]).toEqual(['y'.repeat(130)]);
  });

  it('lower-cases Turkish as Turkish', () => {
    expect([...textTerms('IRMAK', indexAnalysis('turkish'))]).toEqual([
      ...textTerms('ırmak', indexAnalysis('turkish')),
    ]);
  });

  it('keeps case and diacritics when asked', () => {
    const analysis = { language: 'english', caseSensitive: true, diacriticSensitive: true };
    expect([...textTerms('Café Cakes', analysis)]).toEqual(['Café', 'Cake']);
    expect(foldText('Café', analysis)).toBe('Café');
  });
});

describe('parseSearch', () => {
  it.each([
    ['terms', 'coffee tea', { indexTerms: ['coffe', 'tea'], phrases: [], negatedPhrases: [], negatedTerms: [] }],
    [
      'a phrase (its words are terms too) and a negated term',
      '"best coffee" -milk',
      { indexTerms: ['best', 'coffe'], phrases: ['best coffee'], negatedPhrases: [], negatedTerms: ['milk'] },
    ],
    [
      'a negated phrase',
      '-"a cup" tea',
      { indexTerms: ['tea'], phrases: [], negatedPhrases: ['a cup'], negatedTerms: [] },
    ],
    [
      'a hyphen inside a word',
      'green-tea',
      { indexTerms: ['green', 'tea'], phrases: [], negatedPhrases: [], negatedTerms: [] },
    ],
    [
      'a lone hyphen before a phrase',
      '- "tea"',
      { indexTerms: ['tea'], phrases: ['tea'], negatedPhrases: [], negatedTerms: [] },
    ],
    [
      'an unterminated phrase',
      '"tea time',
      { indexTerms: ['tea', 'time'], phrases: ['tea time'], negatedPhrases: [], negatedTerms: [] },
    ],
  ])('reads %s', (_label, search, expected) => {
    const parsed = parseSearch(search, english);
    expect({
      indexTerms: parsed.indexTerms,
      phrases: parsed.phrases,
      negatedPhrases: parsed.negatedPhrases,
      negatedTerms: [...parsed.negatedTerms],
    }).toEqual(expected);
  });
});
