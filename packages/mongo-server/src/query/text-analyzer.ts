import { snowballStemmer } from './snowball-stemmers.cjs';
import { STOP_WORD_LISTS } from './text-stop-words.js';

/** The languages of mongod's text indexes (version 3), by name and ISO 639-1 code, and `none`. */
const LANGUAGES = new Map<string, string>();
for (const [name, code] of [
  ['danish', 'da'],
  ['dutch', 'nl'],
  ['english', 'en'],
  ['finnish', 'fi'],
  ['french', 'fr'],
  ['german', 'de'],
  ['hungarian', 'hu'],
  ['italian', 'it'],
  ['norwegian', 'nb'],
  ['portuguese', 'pt'],
  ['romanian', 'ro'],
  ['russian', 'ru'],
  ['spanish', 'es'],
  ['swedish', 'sv'],
  ['turkish', 'tr'],
] as const) {
  LANGUAGES.set(name, name);
  LANGUAGES.set(code, name);
}
LANGUAGES.set('none', 'none');

const stopWordSets = new Map<string, ReadonlySet<string>>();

/** mongod's stop words for `language` (none for Romanian and `none`), parsed on first use. */
function stopWordsOf(language: string): ReadonlySet<string> {
  let words = stopWordSets.get(language);
  if (words === undefined) {
    const list = Object.hasOwn(STOP_WORD_LISTS, language) ? STOP_WORD_LISTS[language]! : '';
    words = new Set(list.split(/\s+/).filter((word) => word.length > 0));
    stopWordSets.set(language, words);
  }
  return words;
}

/** The canonical language name for `name` (a name or code, any case), or undefined when text indexes lack it. */
export function textLanguage(name: string): string | undefined {
  return LANGUAGES.get(name.toLowerCase());
}

/** How text is turned into terms: the language and what matching ignores. */
export interface TextAnalysis {
  /** A canonical name from {@link textLanguage}. */
  readonly language: string;
  readonly caseSensitive: boolean;
  readonly diacriticSensitive: boolean;
}

/** The analysis a text index applies: case and diacritics folded (text index version 3). */
export function indexAnalysis(language: string): TextAnalysis {
  return { language, caseSensitive: false, diacriticSensitive: false };
}

const COMBINING_MARKS = /\p{M}+/gu;

/** `text` with case and/or diacritics folded as `analysis` ignores them (for phrase matching too). */
export function foldText(text: string, analysis: TextAnalysis): string {
  let folded = analysis.diacriticSensitive ? text : text.normalize('NFD').replace(COMBINING_MARKS, '');
  if (!analysis.caseSensitive) folded = folded.toLowerCase();
  return folded;
}

// English keeps the apostrophe inside words ("don't" is one token, and a stop word), as mongod does.
const ENGLISH_TOKEN = /[\p{L}\p{M}\p{N}']+/gu;
const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Longer words are indexed as written, not stemmed: the JavaScript Snowball
 * stemmers take time quadratic in a word's length (each suffix edit copies
 * the word), so one hostile megabyte-long "word" would stall the server for
 * minutes. No word of a supported language comes near this length.
 */
const MAX_STEMMED_LENGTH = 128;

/** Lower case as mongod folds it: Turkish maps I to ı and İ to i. */
function lowerCase(token: string, language: string): string {
  return language === 'turkish' ? token.toLocaleLowerCase('tr') : token.toLowerCase();
}

/**
 * The terms of `text` in order (a term per word, repeated as often as the
 * word is), made as mongod's text tokenizer (version 3) makes them: a word
 * lower-cased with its diacritics is checked against the language's stop
 * words, then stemmed by the language's Snowball stemmer (the word as
 * written when case counts; see MAX_STEMMED_LENGTH), then stripped of
 * diacritics unless they count.
 */
export function* textTerms(text: string, analysis: TextAnalysis): Generator<string> {
  const { language, caseSensitive, diacriticSensitive } = analysis;
  const english = language === 'english';
  const stopWords = stopWordsOf(language);
  const stemmer = language === 'none' ? undefined : snowballStemmer(language);
  for (const match of text.matchAll(english ? ENGLISH_TOKEN : TOKEN)) {
    const token = english ? match[0].replace(/^'+|'+$/g, '') : match[0];
    if (token.length === 0) continue;
    const lower = lowerCase(token, language);
    if (stopWords.has(lower)) continue;
    const word = caseSensitive ? token : lower;
    const stem = stemmer && word.length <= MAX_STEMMED_LENGTH ? stemmer.stem(word) : word;
    yield diacriticSensitive ? stem : stem.normalize('NFD').replace(COMBINING_MARKS, '');
  }
}
