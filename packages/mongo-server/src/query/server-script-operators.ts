import { CommandError } from '../commands/command-error.js';

const HOW_TO_FIX =
  'the embedded server runs no server-side JavaScript; use query operators, $expr or aggregation operators instead, or a real MongoDB (MONGO_URL)';

function refuseWhereClause(): never {
  throw new CommandError('BadValue', `no globalScriptEngine in $where parsing: ${HOW_TO_FIX}`);
}

function refuseScript(): never {
  throw new CommandError(
    'Location31264',
    `Cannot run server-side javascript without the javascript engine enabled: ${HOW_TO_FIX}`,
  );
}

/**
 * `$function` for mingo's own stages only: its `$setWindowFields` computes
 * each output field through a `$function` whose body is one of its own
 * JavaScript functions. A client's body arrives as BSON code (a `Code`
 * object, never a function: bson evaluates no code), so it is refused.
 */
function internalFunction(obj: unknown, expr: unknown): unknown {
  const spec = expr as { body?: unknown; args?: unknown } | null;
  if (typeof spec?.body !== 'function' || !Array.isArray(spec.args)) refuseScript();
  // mingo's stages pass `$$CURRENT` as the one argument: the document itself.
  return (spec.body as (...args: unknown[]) => unknown)(...spec.args.map((arg) => (arg === '$$CURRENT' ? obj : arg)));
}

/**
 * `$function` and `$accumulator` refused as a mongod started with
 * `--noscripting` refuses them: a client's script must never run inside the
 * hosting process (and BSON code would not be a function here anyway).
 */
export const SERVER_SCRIPT_OPERATORS = {
  expression: { $function: internalFunction },
  accumulator: { $accumulator: refuseScript },
};

/**
 * Refuses a filter using `$where` (at the top or inside `$and`, `$or`,
 * `$nor`), as `--noscripting` does; mingo handles `$where` itself, before
 * any operator of the context could.
 */
export function refuseWhere(filter: unknown): void {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) return;
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$where') refuseWhereClause();
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) value.forEach(refuseWhere);
  }
}
