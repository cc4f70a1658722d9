import type { Binary, Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';

import { typeAlias } from '../query/element-operators.js';
import { allowStage, checkPipeline } from '../query/pipeline-check.js';
import { mingoOptions, withMingoErrors } from '../query/query-context.js';
import { sessionUserDigest } from '../session/logical-session-cache.js';
import type { CommandContext } from './command-context.js';
import { aggregateCursor, wrongType } from './command-arguments.js';
import { CommandError } from './command-error.js';
import { missingField, unknownField } from './idl-fields.js';
import { openCursor } from './read-commands.js';

const STAGE = '$listLocalSessions';

allowStage(STAGE);

function stageWrongType(field: string, value: unknown, expected: string): CommandError {
  return wrongType(`${STAGE}.${field}`, value, expected);
}

function requiredString(user: Document, field: 'user' | 'db'): string {
  const value: unknown = user[field];
  if (value === undefined) {
    throw missingField(`${STAGE}.users.${field}`);
  }
  if (typeof value !== 'string') throw stageWrongType(`users.${field}`, value, 'string');
  return value;
}

/**
 * The user digests a `$listLocalSessions` spec asks for, read as mongod's
 * `listSessionsParseSpec` does; undefined for `allUsers: true`. Without a
 * user list it is the caller's own sessions: on a server without
 * authentication, those of the empty user.
 */
function parseSpec(spec: unknown): Binary[] | undefined {
  if (typeAlias(spec) !== 'object') {
    throw new CommandError(
      'TypeMismatch',
      `${STAGE} options must be specified in an object, but found: ${typeAlias(spec)}`,
    );
  }
  const doc = spec as Document;
  for (const key of Object.keys(doc)) {
    if (key !== 'allUsers' && key !== 'users' && key !== '$_internalPredicate') {
      throw unknownField(`${STAGE}.${key}`);
    }
  }
  if (doc.allUsers !== undefined && typeof doc.allUsers !== 'boolean')
    throw stageWrongType('allUsers', doc.allUsers, 'bool');
  if (doc.users !== undefined && !Array.isArray(doc.users)) throw stageWrongType('users', doc.users, 'array');
  const users = ((doc.users as unknown[] | undefined) ?? []).map((user, i) => {
    if (typeAlias(user) !== 'object') throw stageWrongType(`users.${i}`, user, 'object');
    return sessionUserDigest(requiredString(user as Document, 'user'), requiredString(user as Document, 'db'));
  });
  if (doc.allUsers === true && users.length > 0) {
    throw new CommandError(
      'UnsupportedFormat',
      `${STAGE} may not specify {allUsers:true} and {users:[...]} at the same time`,
    );
  }
  if (doc.allUsers === true) return undefined;
  return users.length > 0 ? users : [sessionUserDigest()];
}

/**
 * Runs an `aggregate: 1` that starts with `$listLocalSessions`: one
 * document per logical session the server knows (`_id: { id, uid }`,
 * `lastUse`), then the rest of the pipeline. Undefined for any other command.
 */
export function runListLocalSessions(name: string, cmd: Document, ctx: CommandContext): Document | undefined {
  if (name !== 'aggregate' || !Array.isArray(cmd.pipeline)) return undefined;
  const stages = cmd.pipeline as Document[];
  const at = stages.flatMap((stage, i) => (stage !== null && typeof stage === 'object' && STAGE in stage ? [i] : []));
  if (at.length === 0) return undefined;
  checkPipeline(stages);
  if (at.some((i) => i > 0))
    throw new CommandError('Location40602', `${STAGE} is only valid as the first stage in a pipeline`);
  if (cmd.aggregate !== 1) {
    throw new CommandError(
      'InvalidNamespace',
      `${STAGE} must be run against the database with {aggregate: 1}, not a collection`,
    );
  }
  const sessions = ctx.sessions.localSessions.list(parseSpec(stages[0]![STAGE]));
  const docs = withMingoErrors(() => new Aggregator(stages.slice(1), mingoOptions()).run(sessions) as Document[]);
  return openCursor(ctx, `${ctx.db}.$cmd.aggregate`, docs, aggregateCursor(cmd)?.batchSize);
}
