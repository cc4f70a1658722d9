import type { Document } from 'mongodb';

/** The winning plan of an explain reply, wherever the command put it (aggregate: under `stages[0].$cursor`). */
export function winningPlan(explain: Document): Document {
  const planner = (explain.queryPlanner ?? explain.stages?.[0]?.$cursor?.queryPlanner) as Document | undefined;
  if (!planner) throw new Error(`no queryPlanner in ${JSON.stringify(explain)}`);
  const plan = planner.winningPlan as Document;
  // SBE plans wrap the classic tree in `queryPlan`.
  return (plan.queryPlan as Document | undefined) ?? plan;
}

/** The executionStats of an explain reply (aggregate: under `stages[0].$cursor`). */
export function executionStats(explain: Document): Document {
  const stats = (explain.executionStats ?? explain.stages?.[0]?.$cursor?.executionStats) as Document | undefined;
  if (!stats) throw new Error(`no executionStats in ${JSON.stringify(explain)}`);
  return stats;
}

/** Every stage of a plan tree, top first. */
export function stagesOf(plan: Document): Document[] {
  const children = [plan.inputStage, ...((plan.inputStages as Document[] | undefined) ?? [])].filter(Boolean);
  return [plan, ...children.flatMap((child) => stagesOf(child as Document))];
}

/**
 * How the plan reads the collection: `COLLSCAN`, or the index it walks
 * (`IXSCAN`/`COUNT_SCAN`, and `_id_` for mongod's IDHACK and EXPRESS
 * look-ups by `_id`), with the walk's direction.
 */
export function accessPath(plan: Document): { stage: string; indexName?: string; direction?: string } {
  for (const stage of stagesOf(plan)) {
    const name = stage.stage as string;
    if (name === 'IDHACK' || name.startsWith('EXPRESS')) return { stage: name, indexName: '_id_' };
    if (name === 'IXSCAN' || name === 'COUNT_SCAN') {
      return { stage: name, indexName: stage.indexName as string, direction: stage.direction as string };
    }
    if (name === 'COLLSCAN') return { stage: name };
  }
  throw new Error(`no access stage in ${JSON.stringify(plan)}`);
}
