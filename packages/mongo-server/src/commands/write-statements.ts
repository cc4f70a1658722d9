import type { Document } from 'bson';

/** The field holding a write command's statements; findAndModify is one statement. */
const STATEMENTS: Readonly<Record<string, string>> = { insert: 'documents', update: 'updates', delete: 'deletes' };

/** The statements' field of write command `name`; own properties only, so that `constructor` is none. */
function statementsField(name: string): string | undefined {
  return Object.hasOwn(STATEMENTS, name) ? STATEMENTS[name] : undefined;
}

/** Whether write command `name` holds an array of statements (insert, update, delete), which fail one by one as `writeErrors`. */
export function hasStatementArray(name: string): boolean {
  return statementsField(name) !== undefined;
}

/** How many statements the write command `name` holds (1 for findAndModify; 0 when not an array yet to be checked). */
export function statementCount(name: string, cmd: Document): number {
  const field = statementsField(name);
  if (field === undefined) return 1;
  const statements: unknown = cmd[field];
  return Array.isArray(statements) ? statements.length : 0;
}

/** `cmd` holding its statements `from` up to (not including) `until` only. */
export function statementSlice(name: string, cmd: Document, from: number, until: number): Document {
  const field = statementsField(name);
  if (field === undefined || (from === 0 && until === statementCount(name, cmd))) return cmd;
  return { ...cmd, [field]: (cmd[field] as unknown[]).slice(from, until) };
}

/** `entries` (`writeErrors`, `upserted`) with their statement indexes moved by `offset`. */
function shifted(entries: unknown, offset: number): Document[] {
  if (!Array.isArray(entries)) return [];
  return (entries as Document[]).map((entry) => ({ ...entry, index: Number(entry.index) + offset }));
}

/**
 * The reply of a write whose statements ran in two parts: `earlier`, the
 * reply of its first statements, and `later`, of those from `offset` on
 * (its indexes counted from there). Counts add up; `upserted` and
 * `writeErrors` entries are listed in statement order.
 */
export function joinedWriteReply(earlier: Document, later: Document, offset: number): Document {
  const joined: Document = { ...later, n: Number(earlier.n ?? 0) + Number(later.n ?? 0) };
  if (earlier.nModified !== undefined || later.nModified !== undefined) {
    joined.nModified = Number(earlier.nModified ?? 0) + Number(later.nModified ?? 0);
  }
  for (const field of ['upserted', 'writeErrors']) {
    const entries = [...shifted(earlier[field], 0), ...shifted(later[field], offset)];
    if (entries.length > 0) joined[field] = entries;
    else delete joined[field];
  }
  return joined;
}
