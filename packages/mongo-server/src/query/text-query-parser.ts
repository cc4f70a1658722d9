import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { indexAnalysis, textTerms, type TextAnalysis } from './text-analyzer.js';

/** The arguments of a `$text` clause. */
export interface TextParams {
  readonly search: string;
  /** `$language` as given ('' or absent: the index's default language). */
  readonly language: string;
  readonly caseSensitive: boolean;
  readonly diacriticSensitive: boolean;
}

function optionalField<T>(clause: Document, field: string, type: 'string' | 'bool', fallback: T): [T, number] {
  const value: unknown = clause[field];
  if (value === undefined) return [fallback, 0];
  if (typeAlias(value) !== type) {
    throw new CommandError(
      'TypeMismatch',
      `"${field}" had the wrong type. Expected ${type}, found ${typeAlias(value)}`,
    );
  }
  return [value as T, 1];
}

/** Reads `{ $search, $language, $caseSensitive, $diacriticSensitive }` with mongod's checks and messages. */
export function parseTextParams(clause: unknown): TextParams {
  if (typeAlias(clause) !== 'object') throw new CommandError('BadValue', '$text expects an object');
  const doc = clause as Document;
  if (doc.$search === undefined) throw new CommandError('NoSuchKey', 'Missing expected field "$search"');
  const [search] = optionalField(doc, '$search', 'string', '');
  const [language, l] = optionalField(doc, '$language', 'string', '');
  const [caseSensitive, c] = optionalField(doc, '$caseSensitive', 'bool', false);
  const [diacriticSensitive, d] = optionalField(doc, '$diacriticSensitive', 'bool', false);
  if (Object.keys(doc).length !== 1 + l + c + d) throw new CommandError('BadValue', 'extra fields in $text');
  return { search, language, caseSensitive, diacriticSensitive };
}

/** A `$search` string read as mongod reads it. */
export interface ParsedSearch {
  /** The words to look up, as the index holds them (folded and stemmed). */
  readonly indexTerms: readonly string[];
  /** The same words as this search compares them (case or diacritics kept when asked). */
  readonly terms: ReadonlySet<string>;
  /** `-word`: a document holding one is not a match. */
  readonly negatedTerms: ReadonlySet<string>;
  /** `"a phrase"`: each must appear in one of the indexed strings. */
  readonly phrases: readonly string[];
  /** `-"a phrase"`: none may appear. */
  readonly negatedPhrases: readonly string[];
}

const WHITESPACE = /\s/u;

/**
 * Splits a `$search` string as mongod's `FTSQueryImpl::parse` does: words
 * (any one may match), `"phrases"` (all must), `-word` and `-"phrase"`
 * negations (a `-` counts only after whitespace or at the start; words of a
 * phrase count as words too, those of a negated phrase do not; an
 * unterminated phrase runs to the end).
 */
export function parseSearch(search: string, analysis: TextAnalysis): ParsedSearch {
  const index = indexAnalysis(analysis.language);
  const indexTerms: string[] = [];
  const terms = new Set<string>();
  const negatedTerms = new Set<string>();
  const phrases: string[] = [];
  const negatedPhrases: string[] = [];
  const sameAsIndex = !analysis.caseSensitive && !analysis.diacriticSensitive;
  const addWords = (text: string, negated: boolean): void => {
    if (negated) {
      for (const term of textTerms(text, analysis)) negatedTerms.add(term);
      return;
    }
    const before = indexTerms.length;
    for (const term of textTerms(text, index)) indexTerms.push(term);
    // Folding as the index does, the search's own terms are the same ones: not stemmed twice.
    if (sameAsIndex) for (let i = before; i < indexTerms.length; i++) terms.add(indexTerms[i]!);
    else for (const term of textTerms(text, analysis)) terms.add(term);
  };
  let negation = false;
  let inPhrase = false;
  let phraseStart = 0;
  let afterWhitespace = true;
  let i = 0;
  while (i < search.length) {
    const c = search[i]!;
    if (WHITESPACE.test(c)) {
      afterWhitespace = true;
      i++;
      continue;
    }
    if (c === '-') {
      if (!inPhrase && afterWhitespace) negation = true;
    } else if (c === '"') {
      if (inPhrase) {
        (negation ? negatedPhrases : phrases).push(search.slice(phraseStart, i));
        negation = false;
        inPhrase = false;
      } else {
        inPhrase = true;
        // A '-' negates a phrase only when the quote follows it directly.
        if (negation && afterWhitespace) negation = false;
        phraseStart = i + 1;
      }
    } else {
      let end = i;
      while (end < search.length && !WHITESPACE.test(search[end]!) && search[end] !== '-' && search[end] !== '"') end++;
      if (!(inPhrase && negation)) addWords(search.slice(i, end), negation && !inPhrase);
      if (!inPhrase) negation = false;
      afterWhitespace = false;
      i = end;
      continue;
    }
    afterWhitespace = false;
    i++;
  }
  if (inPhrase) (negation ? negatedPhrases : phrases).push(search.slice(phraseStart));
  return { indexTerms, terms, negatedTerms, phrases, negatedPhrases };
}
