import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ObjectIdParseError } from '../core/index.js';
import { BAD_USER_INPUT } from './object-id-input.error.js';

/** Apollo Server's code for an operation that failed validation. */
const GRAPHQL_VALIDATION_FAILED = 'GRAPHQL_VALIDATION_FAILED';

/**
 * A `formatError` for Apollo Server that gives an invalid ObjectId *literal*
 * (`product(id: "abc")`) the code `BAD_USER_INPUT`, as an invalid variable
 * already has. Apollo checks literals while it validates the operation and
 * replaces every validation error's code with `GRAPHQL_VALIDATION_FAILED`,
 * whatever the scalar set; the message (the pipe's) is kept either way.
 * Other errors pass through unchanged.
 *
 * ```ts
 * GraphQLModule.forRoot<ApolloDriverConfig>({ driver: ApolloDriver, formatError: formatObjectIdError })
 * // with a formatError of your own: formatError: (formatted, error) => mine(formatObjectIdError(formatted, error), error)
 * ```
 * @see https://www.apollographql.com/docs/apollo-server/data/errors#for-client-responses
 */
export function formatObjectIdError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const invalidObjectId = error instanceof GraphQLError && error.originalError instanceof ObjectIdParseError;
  if (!invalidObjectId || formatted.extensions?.code !== GRAPHQL_VALIDATION_FAILED) return formatted;
  return { ...formatted, extensions: { ...formatted.extensions, code: BAD_USER_INPUT } };
}
