import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ObjectIdParseError } from '../core/object-id-parse.error.js';
import { formatObjectIdError } from './format-object-id-error.js';
import { objectIdInputError } from './object-id-input.error.js';

/** What Apollo Server makes of a validation error: its `ValidationError` keeps `originalError` and sets the code. */
function asApolloValidationError(error: GraphQLError): [GraphQLFormattedError, GraphQLError] {
  const wrapped = new GraphQLError(error.message, {
    originalError: error.originalError ?? error,
    extensions: { ...error.extensions, code: 'GRAPHQL_VALIDATION_FAILED' },
  });
  return [wrapped.toJSON(), wrapped];
}

describe('formatObjectIdError', () => {
  const invalidLiteral = objectIdInputError({ reason: 'length', message: '"abc" is 3 characters long' });

  it('should give an invalid ObjectId literal the code BAD_USER_INPUT, keeping message and locations', () => {
    const [formatted, error] = asApolloValidationError(invalidLiteral);
    expect(formatObjectIdError({ ...formatted, locations: [{ line: 1, column: 12 }] }, error)).toEqual({
      message: 'Validation failed (ObjectId is expected): "abc" is 3 characters long',
      locations: [{ line: 1, column: 12 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('should leave other validation errors alone', () => {
    const [formatted, error] = asApolloValidationError(new GraphQLError('Cannot query field "nope" on type "Query".'));
    expect(formatObjectIdError(formatted, error)).toBe(formatted);
  });

  it("should leave a resolver's own ObjectIdParseError alone (not a validation error: its code stays)", () => {
    const error = new GraphQLError('boom', { originalError: new ObjectIdParseError('length', 'boom') });
    const formatted = { message: 'boom', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    expect(formatObjectIdError(formatted, error)).toBe(formatted);
  });

  it('should pass anything that is not a GraphQLError through', () => {
    const formatted = { message: 'x' };
    expect(formatObjectIdError(formatted, new Error('x'))).toBe(formatted);
    expect(formatObjectIdError(formatted, undefined)).toBe(formatted);
  });
});
