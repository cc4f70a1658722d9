import type { Document } from 'bson';

import { isSubDocument } from '../bson/bson-compare.js';
import { CommandError } from '../commands/command-error.js';
import { indexAnalysis, textLanguage, textTerms, type TextAnalysis } from '../query/text-analyzer.js';
import type { IndexSpec } from './collection-index.js';
import { textIndexFields, type TextIndexFields } from './text-index-spec.js';

/** Deeper than this, a document's strings are not indexed (BSON nesting is limited well below it). */
const MAX_TEXT_DEPTH = 200;

/** One string of a document that a text index covers. */
export interface IndexedText {
  readonly text: string;
  readonly weight: number;
}

function collectStrings(value: unknown, parts: readonly string[], at: number, depth: number, out: string[]): void {
  if (depth > MAX_TEXT_DEPTH) return;
  if (Array.isArray(value)) {
    for (const element of value) collectStrings(element, parts, at, depth + 1, out);
    return;
  }
  if (at === parts.length) {
    if (typeof value === 'string') out.push(value);
    return;
  }
  if (isSubDocument(value) && Object.hasOwn(value, parts[at]!)) {
    collectStrings(value[parts[at]!], parts, at + 1, depth + 1, out);
  }
}

function collectAll(value: unknown, path: string, depth: number, visit: (path: string, text: string) => void): void {
  if (depth > MAX_TEXT_DEPTH) return;
  if (typeof value === 'string') visit(path, value);
  else if (Array.isArray(value)) for (const element of value) collectAll(element, path, depth + 1, visit);
  else if (isSubDocument(value)) {
    for (const [key, child] of Object.entries(value)) {
      collectAll(child, path ? `${path}.${key}` : key, depth + 1, visit);
    }
  }
}

/**
 * A text index: for each term (a folded, stemmed word), the documents that
 * hold it and their score for it, computed as mongod's text index version 3
 * scores a field (`FTSSpec::scoreDocument`: weight × damped frequency ×
 * (0.5 + 0.5 × share of the field's words), +10% when the field is the
 * word itself). A `$text` search reads the postings of its terms instead of
 * every document's text. Holds committed documents only, like the ordered
 * indexes; a transaction's own versions are analysed when searched.
 */
export class TextIndex {
  readonly fields: TextIndexFields;
  private readonly postings = new Map<string, Map<string, number>>();
  private readonly wildcard: number | undefined;
  /** Whether a document has given more than one key, which (as in mongod) stays true once set. */
  private multikeyFlag = false;

  constructor(spec: IndexSpec) {
    this.fields = textIndexFields(spec);
    this.wildcard = this.fields.weights.get('$**');
  }

  /** The language `doc` is indexed in: its `language_override` field when that names a language, else the default. */
  languageOf(doc: Document): string {
    const own: unknown = doc[this.fields.languageOverride];
    return (typeof own === 'string' && textLanguage(own)) || this.fields.defaultLanguage;
  }

  /** mongod's refusal of a document whose language override field is not a text index language. */
  checkLanguage(doc: Document): void {
    const own: unknown = doc[this.fields.languageOverride];
    if (own === undefined) return;
    if (typeof own !== 'string') {
      throw new CommandError('Location17261', 'found language override field in document with non-string type');
    }
    if (!textLanguage(own)) throw new CommandError('Location17262', `language override unsupported: ${own}`);
  }

  /** Every string of `doc` the index covers, with its field's weight. */
  textsOf(doc: Document): IndexedText[] {
    const out: IndexedText[] = [];
    if (this.wildcard !== undefined) {
      const wildcard = this.wildcard;
      collectAll(doc, '', 0, (path, text) => out.push({ text, weight: this.fields.weights.get(path) ?? wildcard }));
      return out;
    }
    for (const [path, weight] of this.fields.weights) {
      const strings: string[] = [];
      collectStrings(doc, path.split('.'), 0, 0, strings);
      for (const text of strings) out.push({ text, weight });
    }
    return out;
  }

  /** `doc`'s score per term, as the index stores it. */
  termScores(doc: Document, analysis: TextAnalysis = indexAnalysis(this.languageOf(doc))): Map<string, number> {
    const scores = new Map<string, number>();
    for (const { text, weight } of this.textsOf(doc)) {
      const counts = new Map<string, { count: number; freq: number; exp: number }>();
      let tokens = 0;
      for (const term of textTerms(text, analysis)) {
        tokens++;
        const data = counts.get(term) ?? { count: 0, freq: 0, exp: 0 };
        data.exp = data.exp === 0 ? 1 : data.exp * 2;
        data.count++;
        data.freq += 1 / data.exp;
        counts.set(term, data);
      }
      for (const [term, data] of counts) {
        const coefficient = (0.5 * data.count) / tokens + 0.5;
        const exact = text.length === term.length && text.toLowerCase() === term ? 1.1 : 1;
        scores.set(term, (scores.get(term) ?? 0) + weight * data.freq * coefficient * exact);
      }
    }
    return scores;
  }

  /** The documents (by `_id` key) holding `term`, with their score for it. */
  postingsOf(term: string): ReadonlyMap<string, number> | undefined {
    return this.postings.get(term);
  }

  /** Number of distinct terms, for explain and tests. */
  get size(): number {
    return this.postings.size;
  }

  /** Whether a document has had more than one term (explain's `isMultiKey`). */
  get multikey(): boolean {
    return this.multikeyFlag;
  }

  add(idKey: string, doc: Document): void {
    const scores = this.termScores(doc);
    if (scores.size > 1) this.multikeyFlag = true;
    for (const [term, score] of scores) {
      let docs = this.postings.get(term);
      if (!docs) this.postings.set(term, (docs = new Map()));
      docs.set(idKey, score);
    }
  }

  remove(idKey: string, doc: Document): void {
    for (const term of this.termScores(doc).keys()) {
      const docs = this.postings.get(term);
      if (!docs) continue;
      docs.delete(idKey);
      if (docs.size === 0) this.postings.delete(term);
    }
  }
}
