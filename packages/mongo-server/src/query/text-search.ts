import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { TransactionOverlay } from '../session/transaction-overlay.js';
import { CollectionStore } from '../store/collection-store.js';
import type { CollectionView } from '../store/collection-view.js';
import type { CollectionIndex } from '../store/collection-index.js';
import type { TextIndex } from '../store/text-index.js';
import { OperationBudget } from './operation-budget.js';
import type { QueryRequest, QueryResult, QueryStats } from './plan-executor.js';
import { parseSortSpec, sortDocuments } from './sort-documents.js';
import { textLanguage, type TextAnalysis } from './text-analyzer.js';
import { checkOrBranches, checkPrefix, compileWithText, hasText, locateText } from './text-filter.js';
import { TextMatcher } from './text-matcher.js';
import { parseSearch, parseTextParams, type ParsedSearch } from './text-query-parser.js';
import type { TextQueryPlan } from './text-query-plan.js';

/** Each document's score in the last `$text` search that returned it (read by the projection right after). */
const SCORES = new WeakMap<Document, number>();

/** The `textScore` of `doc` in the `$text` search of the current command (0 when it has none). */
export function textScoreOf(doc: Document): number {
  return SCORES.get(doc) ?? 0;
}

/** `{ $meta: 'textScore' }`. */
export function isTextScoreMeta(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    (value as Document).$meta === 'textScore'
  );
}

/** mongod's error for a textScore asked of a query without `$text`. */
export function textScoreUnavailable(): CommandError {
  return new CommandError('Location40218', 'query requires text score metadata, but it is not available');
}

function storeOf(view: CollectionView): { store?: CollectionStore; changes?: Map<string, Document | null> } {
  if (view instanceof CollectionStore) return { store: view };
  if (view instanceof TransactionOverlay) {
    return { store: view.collection, changes: view.changes.size > 0 ? view.changes : undefined };
  }
  return {};
}

/** A collection's text index: its name and key pattern, and its postings. */
type TextCollectionIndex = CollectionIndex & { readonly text: TextIndex };

/**
 * The collection's text index: mongod's IndexNotFound when there is none,
 * its planner's NoQueryExecutionPlans when the one there is is hidden.
 */
function textIndexOf(store: CollectionStore | undefined): TextCollectionIndex {
  for (const index of store?.indexes.values() ?? []) {
    if (!index.text) continue;
    if (index.spec.hidden === true) {
      throw new CommandError(
        'NoQueryExecutionPlans',
        'error processing query: planner returned error :: caused by :: need exactly one text index for $text query',
      );
    }
    return index as TextCollectionIndex;
  }
  throw new CommandError('IndexNotFound', 'text index required for $text query');
}

/** The plan explain shows for a `$text` search through `index` (mongod's TEXT_MATCH stages). */
function textPlan(index: TextCollectionIndex, search: ParsedSearch, indexPrefix: Document): TextQueryPlan {
  const terms = [...new Set(search.indexTerms)].sort();
  return {
    kind: 'TEXT',
    indexName: index.name,
    keyPattern: index.spec.key,
    indexPrefix,
    isMultiKey: index.text.multikey,
    parsedTextQuery: {
      terms: [...search.terms].sort(),
      negatedTerms: [...search.negatedTerms].sort(),
      phrases: search.phrases,
      negatedPhrases: search.negatedPhrases,
    },
    scans: terms.map((term) => ({ term, keys: index.text.postingsOf(term)?.size ?? 0 })),
    wantTextScore: false,
    docsRejected: 0,
  };
}

/** Sorts by the spec's fields in order, `{ $meta: 'textScore' }` ones by descending score. */
function sortWithScores(docs: Document[], sort: Document, scores: Map<Document, number>): Document[] {
  let sorted = docs;
  for (const [path, direction] of Object.entries(sort).reverse()) {
    if (isTextScoreMeta(direction)) {
      sorted = [...sorted].sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0));
    } else {
      sorted = sortDocuments(sorted, { [path]: direction });
    }
  }
  return sorted;
}

/**
 * Runs a query whose filter holds `$text` (undefined for any other query).
 * Without `$or`, candidates come from the text index's postings of the
 * search's words (and the transaction's own versions); under `$or` every
 * document is checked. Each candidate must then pass the negations,
 * phrases and the rest of the filter. Scores are kept for a textScore
 * projection and sort, which is also what makes such a sort or projection
 * an error without `$text`.
 */
export function runTextQuery(view: CollectionView | undefined, request: QueryRequest): QueryResult | undefined {
  const filter = request.filter;
  const location = locateText(filter);
  const sort = request.sort && Object.keys(request.sort).length > 0 ? request.sort : undefined;
  const scoreSort = sort !== undefined && Object.values(sort).some(isTextScoreMeta);
  if (location.count === 0) {
    if (scoreSort) throw textScoreUnavailable();
    return undefined;
  }
  const params = parseTextParams(location.clause);
  const { store, changes } = view ? storeOf(view) : {};
  const textIndex = textIndexOf(store);
  const index = textIndex.text;
  if (location.count > 1) throw new CommandError('BadValue', 'Too many text expressions');
  if (location.underNor) throw new CommandError('BadValue', 'text expression not allowed in nor');
  const language = params.language === '' ? index.fields.defaultLanguage : textLanguage(params.language);
  if (!language) {
    throw new CommandError('BadValue', `unsupported language: "${params.language}" for text index version 3`);
  }
  if (sort)
    for (const [path, direction] of Object.entries(sort))
      if (!isTextScoreMeta(direction)) parseSortSpec({ [path]: direction });
  const indexPrefix = checkPrefix(index, filter!, store!.ns);
  if (location.underOr) checkOrBranches(filter!, store!);
  const analysis: TextAnalysis = {
    language,
    caseSensitive: params.caseSensitive,
    diacriticSensitive: params.diacriticSensitive,
  };
  const parsed = parseSearch(params.search, analysis);
  const search = new TextMatcher(index, parsed, analysis);
  const stats: QueryStats = { keysExamined: 0, docsExamined: 0, nReturned: 0 };
  const scores = new Map<Document, number>();
  const textMatches = (doc: Document): boolean => {
    let score = scores.get(doc);
    if (score === undefined) scores.set(doc, (score = search.score(doc)));
    return score > 0 && search.accepts(doc);
  };
  const matches = compileWithText(filter!, textMatches);
  const matched: Document[] = [];
  const consider = (doc: Document | undefined): void => {
    if (!doc) return;
    stats.docsExamined++;
    OperationBudget.tick();
    if (matches(doc)) matched.push(doc);
  };
  if (location.underOr) {
    for (const doc of view!.documents()) consider(doc);
  } else {
    const found = search.postings(stats);
    let added = store!.seqEnd;
    const seqs = new Map<string, number>();
    for (const idKey of found.keys()) seqs.set(idKey, store!.seqOf(idKey) ?? 0);
    // The transaction's own versions are analysed here: the postings hold committed documents only.
    for (const [idKey, doc] of changes ?? []) {
      found.delete(idKey);
      seqs.delete(idKey);
      if (doc) seqs.set(idKey, store!.seqOf(idKey) ?? added++);
    }
    const ordered = [...seqs].sort((a, b) => a[1] - b[1]);
    for (const [idKey] of ordered) {
      const doc = view!.get(idKey);
      const known = found.get(idKey);
      if (doc && known !== undefined) scores.set(doc, known);
      consider(doc);
    }
  }
  for (const doc of matched) SCORES.set(doc, scores.get(doc) ?? 0);
  let docs = sort ? sortWithScores(matched, sort, scores) : matched;
  const skip = request.skip ?? 0;
  const limit = request.limit ?? 0;
  if (skip > 0 || limit > 0) docs = docs.slice(skip, limit > 0 ? skip + limit : undefined);
  stats.nReturned = docs.length;
  // Under $or every document is checked, which explain shows as the collection scan it is.
  if (location.underOr) return { docs, plan: { kind: 'COLLSCAN' }, stats };
  const plan = { ...textPlan(textIndex, parsed, indexPrefix), docsRejected: stats.docsExamined - matched.length };
  return { docs, plan, stats };
}

/**
 * A find projection with `{ field: { $meta: 'textScore' } }` entries: the
 * rest projected by `project`, then each such field set to the document's
 * score (after the projected fields, as mongod adds computed ones).
 */
export function projectWithTextScore(
  docs: Document[],
  projection: Document | undefined,
  filter: Document | undefined,
  project: (docs: Document[], projection: Document | undefined, filter?: Document) => Document[],
): Document[] {
  const fields = projection ? Object.keys(projection).filter((key) => isTextScoreMeta(projection[key])) : [];
  if (fields.length === 0) return project(docs, projection, filter);
  if (!hasText(filter)) throw textScoreUnavailable();
  const rest = Object.fromEntries(Object.entries(projection!).filter(([key]) => !fields.includes(key)));
  return project(docs, rest, filter).map((doc, i) => {
    const out: Document = { ...doc };
    for (const field of fields) out[field] = textScoreOf(docs[i]!);
    return out;
  });
}
