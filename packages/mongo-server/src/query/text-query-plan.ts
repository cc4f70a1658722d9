import type { Document } from 'bson';

import type { QueryStats } from './plan-executor.js';

/** A `$search` as mongod's explain lists it (`parsedTextQuery`). */
export interface ParsedTextQuery {
  readonly terms: readonly string[];
  readonly negatedTerms: readonly string[];
  readonly phrases: readonly string[];
  readonly negatedPhrases: readonly string[];
}

/**
 * How a `$text` query was answered, for explain: the text index's postings
 * of each search term, then the checks the postings cannot make, which
 * mongod shows as TEXT_MATCH over one IXSCAN of the text index per term.
 */
export interface TextQueryPlan {
  readonly kind: 'TEXT';
  readonly indexName: string;
  readonly keyPattern: Document;
  /** The equalities on the text index's prefix fields. */
  readonly indexPrefix: Document;
  readonly isMultiKey: boolean;
  readonly parsedTextQuery: ParsedTextQuery;
  /** One per distinct term looked up (sorted, as mongod's set of terms is), with the keys the index holds for it. */
  readonly scans: readonly { readonly term: string; readonly keys: number }[];
  /** Whether the query projects or sorts by textScore (explain sets it): TEXT_OR then scores the union. */
  readonly wantTextScore: boolean;
  /** Documents fetched but not returned by the text match and the rest of the filter. */
  readonly docsRejected: number;
}

/** Whether `value` (a projection, sort or pipeline) asks for `{ $meta: 'textScore' }` anywhere. */
export function wantsTextScore(value: unknown, depth = 0): boolean {
  if (depth > 100 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((element) => wantsTextScore(element, depth + 1));
  if ((value as Document).$meta === 'textScore') return true;
  return Object.values(value).some((child) => wantsTextScore(child, depth + 1));
}

/**
 * The stages mongod's classic engine shows for a `$text` query: TEXT_MATCH
 * over TEXT_OR (when a textScore is wanted) or over FETCH of an OR of index
 * scans (a single scan needs no OR; no term at all gives EOF). Each IXSCAN
 * walks one term's keys backwards, by descending score.
 * @see https://www.mongodb.com/docs/manual/reference/explain-results/
 */
export function textPlanStages(plan: TextQueryPlan, stats?: QueryStats): Document {
  const scans: Document[] = plan.scans.map(({ keys }) => ({
    stage: 'IXSCAN',
    keyPattern: { ...plan.keyPattern },
    indexName: plan.indexName,
    isMultiKey: plan.isMultiKey,
    isUnique: false,
    isSparse: false,
    isPartial: false,
    indexVersion: 2,
    direction: 'backward',
    indexBounds: {},
    ...(stats && { keysExamined: keys }),
  }));
  if (scans.length === 0) scans.push({ stage: 'EOF' });
  const docsExamined = stats && { docsExamined: stats.docsExamined };
  const input = plan.wantTextScore
    ? { stage: 'TEXT_OR', ...docsExamined, inputStages: scans }
    : {
        stage: 'FETCH',
        ...docsExamined,
        inputStage: scans.length === 1 ? scans[0] : { stage: 'OR', inputStages: scans },
      };
  return {
    stage: 'TEXT_MATCH',
    indexPrefix: { ...plan.indexPrefix },
    indexName: plan.indexName,
    parsedTextQuery: {
      terms: [...plan.parsedTextQuery.terms],
      negatedTerms: [...plan.parsedTextQuery.negatedTerms],
      phrases: [...plan.parsedTextQuery.phrases],
      negatedPhrases: [...plan.parsedTextQuery.negatedPhrases],
    },
    textIndexVersion: 3,
    ...(stats && { docsRejected: plan.docsRejected }),
    inputStage: input,
  };
}
