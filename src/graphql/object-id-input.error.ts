import { GraphQLError, type ASTNode } from 'graphql';
import { ObjectIdParseError, type ObjectIdProblem } from '../core/index.js';

/**
 * The prefix of every message, the same as `ParseObjectIdPipe`'s 400 (the
 * adapter may import only the core, so the words are repeated here; a spec
 * keeps both equal).
 */
export const OBJECT_ID_EXPECTED = 'Validation failed (ObjectId is expected)';

/** Apollo's code for input the client must fix, which GraphQL clients already branch on. */
export const BAD_USER_INPUT = 'BAD_USER_INPUT';

/**
 * The error for an argument, variable or input field that is not an ObjectId:
 * the pipe's message, `extensions.code: 'BAD_USER_INPUT'`, the literal's
 * location when there is one, and the {@link ObjectIdParseError} (its
 * `reason` and `position`) as `originalError`.
 */
export function objectIdInputError(problem: ObjectIdProblem, node?: ASTNode): GraphQLError {
  return new GraphQLError(`${OBJECT_ID_EXPECTED}: ${problem.message}`, {
    nodes: node,
    originalError: new ObjectIdParseError(problem.reason, problem.message, problem.position),
    extensions: { code: BAD_USER_INPUT },
  });
}
