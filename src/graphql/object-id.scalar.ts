import { GraphQLError, GraphQLScalarType, Kind, print, valueFromASTUntyped, type ValueNode } from 'graphql';
import { describeInvalidObjectId, isObjectIdLike, tryParseObjectId, type ObjectId } from '../core/index.js';
import { objectIdInputError } from './object-id-input.error.js';

/**
 * Reads an ObjectId sent by a client, in a variable (`{ "id": "…" }`):
 * exactly 24 hex characters, as `ParseObjectIdPipe` accepts. ObjectId
 * instances are accepted too, for servers that run operations in process.
 */
function parseValue(value: unknown): ObjectId {
  const id = tryParseObjectId(value);
  if (id === undefined) throw objectIdInputError(describeInvalidObjectId(value));
  return id;
}

/**
 * Reads an ObjectId written in the operation itself (`product(id: "…")`):
 * only a string literal of 24 hex characters. A number, list or object
 * literal is refused with the same words as the pipe gives for that JSON
 * type; an unquoted word (`id: abc`, an enum value to GraphQL) is named as such.
 */
function parseLiteral(node: ValueNode, variables?: Record<string, unknown> | null): ObjectId {
  switch (node.kind) {
    case Kind.STRING: {
      const id = tryParseObjectId(node.value, { allowInstance: false });
      if (id === undefined) throw objectIdInputError(describeInvalidObjectId(node.value), node);
      return id;
    }
    case Kind.VARIABLE:
      // graphql-js resolves variables before it asks a scalar; this is for other executors.
      return parseValue(variables?.[node.name.value]);
    case Kind.ENUM:
      throw objectIdInputError(
        {
          reason: 'type',
          message: `received the unquoted word ${print(node)}, expected a string of 24 hex characters in double quotes`,
        },
        node,
      );
    default:
      throw objectIdInputError(describeInvalidObjectId(valueFromASTUntyped(node), { allowInstance: false }), node);
  }
}

/**
 * Writes an ObjectId as its 24 lowercase hex characters: an ObjectId of any
 * bson copy (mongoose's `Types.ObjectId` included) or a hex string already
 * (what a resolver behind `ObjectIdSerializerInterceptor` returns). Anything
 * else is a bug in the resolver, not the client's input: a plain `GraphQLError`
 * (an internal error to Apollo), never a made-up id.
 */
function serialize(value: unknown): string {
  const id = tryParseObjectId(value);
  if (id !== undefined) return id.toHexString();
  const problem = describeInvalidObjectId(value);
  const hint = isObjectIdLike(value) ? '' : '; return the ObjectId itself or its 24-character hex string';
  throw new GraphQLError(`ObjectId cannot represent this value: ${problem.message}${hint}`);
}

/**
 * The `ObjectId` scalar: a MongoDB ObjectId that travels as 24 hex
 * characters, parsed strictly into an `ObjectId` (mongoose's class) and written
 * back as lowercase hex. Invalid input is a `BAD_USER_INPUT` error with the
 * same message as `ParseObjectIdPipe`'s 400.
 *
 * Code first: `@Field(() => ObjectIdScalar) id: Types.ObjectId`, or map the
 * type once with `buildSchemaOptions: { scalarsMap: [{ type: Types.ObjectId, scalar: ObjectIdScalar }] }`.
 * Schema first: `scalar ObjectId` in the SDL and `resolvers: { ObjectId: ObjectIdScalar }`.
 */
export const ObjectIdScalar: GraphQLScalarType<ObjectId, string> = new GraphQLScalarType<ObjectId, string>({
  name: 'ObjectId',
  description: 'A MongoDB ObjectId: 24 hexadecimal characters, e.g. "507f1f77bcf86cd799439011"',
  specifiedByURL: 'https://www.mongodb.com/docs/manual/reference/bson-types/#objectid',
  serialize,
  parseValue,
  parseLiteral,
});
