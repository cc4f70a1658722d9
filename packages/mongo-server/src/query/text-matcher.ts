import type { Document } from 'bson';

import type { TextIndex } from '../store/text-index.js';
import { OperationBudget } from './operation-budget.js';
import type { QueryStats } from './plan-executor.js';
import { foldText, textTerms, type TextAnalysis } from './text-analyzer.js';
import type { ParsedSearch } from './text-query-parser.js';

/**
 * One `$text` search bound to a collection's text index: the scores and
 * candidates from the index's postings, then the checks the postings
 * cannot make (negations, phrases, case- or diacritic-sensitive words).
 */
export class TextMatcher {
  private readonly checkTerms: boolean;
  /** The distinct words, and the distinct phrases folded once (a search may repeat them many times). */
  private readonly indexTerms: ReadonlySet<string>;
  private readonly phrases: readonly string[];
  private readonly negatedPhrases: readonly string[];

  constructor(
    private readonly index: TextIndex,
    private readonly search: ParsedSearch,
    private readonly analysis: TextAnalysis,
  ) {
    this.checkTerms = analysis.caseSensitive || analysis.diacriticSensitive;
    this.indexTerms = new Set(search.indexTerms);
    const fold = (phrases: readonly string[]) => [...new Set(phrases.map((phrase) => foldText(phrase, analysis)))];
    this.phrases = fold(search.phrases);
    this.negatedPhrases = fold(search.negatedPhrases);
  }

  /** `doc`'s score for the search's words (0: it holds none), as the index computes it. */
  score(doc: Document): number {
    const scores = this.index.termScores(doc);
    let total = 0;
    for (const term of this.indexTerms) total += scores.get(term) ?? 0;
    return total;
  }

  /** The committed documents holding a word of the search (through the postings), with their scores. */
  postings(stats: QueryStats): Map<string, number> {
    const found = new Map<string, number>();
    for (const term of this.indexTerms) {
      for (const [idKey, score] of this.index.postingsOf(term) ?? []) {
        stats.keysExamined++;
        OperationBudget.tick();
        found.set(idKey, (found.get(idKey) ?? 0) + score);
      }
    }
    return found;
  }

  /** Negations, phrases and (when asked) case- or diacritic-sensitive words, checked on a document holding a word. */
  accepts(doc: Document): boolean {
    const { negatedTerms, terms } = this.search;
    const { phrases, negatedPhrases } = this;
    const texts = this.index.textsOf(doc);
    if (negatedTerms.size > 0 || this.checkTerms) {
      const analysis = { ...this.analysis, language: this.index.languageOf(doc) };
      let positive = !this.checkTerms;
      for (const { text } of texts) {
        OperationBudget.tick();
        for (const term of textTerms(text, analysis)) {
          if (negatedTerms.has(term)) return false;
          if (terms.has(term)) positive = true;
        }
      }
      if (!positive) return false;
    }
    if (phrases.length === 0 && negatedPhrases.length === 0) return true;
    const folded = texts.map(({ text }) => foldText(text, this.analysis));
    const holds = (phrase: string): boolean => {
      OperationBudget.tick();
      return folded.some((text) => text.includes(phrase));
    };
    return phrases.every(holds) && !negatedPhrases.some(holds);
  }
}
