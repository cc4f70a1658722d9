import { ObjectId as BsonObjectId } from 'bson';
import {
  graphql,
  GraphQLError,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  parseValue as parseGraphQLValue,
} from 'graphql';
import { Types } from 'mongoose';
import { INVALID_OBJECT_IDS, VALID_OBJECT_ID_STRINGS } from '../core/invalid-object-ids.fixture.js';
import { ObjectIdParseError } from '../core/object-id-parse.error.js';
import { OBJECT_ID_EXPECTED as PIPE_PREFIX } from '../pipes/object-id-exception.js';
import { OBJECT_ID_EXPECTED } from './object-id-input.error.js';
import { ObjectIdScalar } from './object-id.scalar.js';

/** An ObjectId from "another bson copy": same duck type, different class. */
class OtherBsonObjectId {
  readonly _bsontype = 'ObjectID';
  constructor(private readonly hex: string) {}
  toHexString(): string {
    return this.hex;
  }
}

const ID = '507f1f77bcf86cd799439011';

function thrown(run: () => unknown): GraphQLError {
  try {
    run();
  } catch (error) {
    if (error instanceof GraphQLError) return error;
    throw error;
  }
  throw new Error('expected a GraphQLError');
}

function expectBadUserInput(error: GraphQLError, detail: string): void {
  expect(error.message).toBe(`Validation failed (ObjectId is expected): ${detail}`);
  expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT' });
  expect(error.originalError).toBeInstanceOf(ObjectIdParseError);
  expect(error.originalError?.message).toBe(detail);
}

describe('ObjectIdScalar', () => {
  it('should be the scalar "ObjectId" with a description and a specifiedBy URL', () => {
    expect(ObjectIdScalar.toConfig()).toMatchObject({
      name: 'ObjectId',
      description: expect.stringContaining('24 hexadecimal characters'),
      specifiedByURL: expect.stringMatching(/^https:\/\/www\.mongodb\.com\//),
    });
  });

  it("should word its errors exactly as ParseObjectIdPipe's 400", () => {
    expect(OBJECT_ID_EXPECTED).toBe(PIPE_PREFIX);
  });

  describe('parseValue (variables)', () => {
    describe('when validation passes', () => {
      it.each(VALID_OBJECT_ID_STRINGS)('should return a Types.ObjectId for %j', (input, hex) => {
        const id = ObjectIdScalar.parseValue(input);
        expect(id).toBeInstanceOf(Types.ObjectId);
        expect(id.toHexString()).toBe(hex);
      });

      it('should pass an ObjectId instance through, for operations run in process', () => {
        const id = new Types.ObjectId();
        expect(ObjectIdScalar.parseValue(id)).toBe(id);
      });
    });

    describe('when validation fails', () => {
      it.each(INVALID_OBJECT_IDS)(
        'should refuse %s as BAD_USER_INPUT with the pipe message',
        (_label, value, detail) => {
          expectBadUserInput(
            thrown(() => ObjectIdScalar.parseValue(value)),
            detail,
          );
        },
      );

      it.each([null, undefined, ''])('should refuse %j, never inventing an id', (value) => {
        expectBadUserInput(
          thrown(() => ObjectIdScalar.parseValue(value)),
          'no value was given, expected 24 hex characters',
        );
      });
    });
  });

  describe('parseLiteral (values written in the operation)', () => {
    const literal = (source: string) => ObjectIdScalar.parseLiteral(parseGraphQLValue(source), undefined);

    it.each([
      [`"${ID}"`, ID],
      [`"${ID.toUpperCase()}"`, ID],
      [`"""${ID}"""`, ID],
    ])('should parse %s', (source, hex) => {
      const id = literal(source);
      expect(id).toBeInstanceOf(Types.ObjectId);
      expect(id.toHexString()).toBe(hex);
    });

    it.each([
      ['"abc"', '"abc" is 3 characters long, expected 24 hex characters'],
      ['""', 'no value was given, expected 24 hex characters'],
      [`" ${ID}"`, `" ${ID}" has surrounding whitespace, expected exactly 24 hex characters`],
      [
        '"507f1f77bcf86cd79943901g"',
        '"507f1f77bcf86cd79943901g" has a non-hex character "g" at position 23, expected 24 hex characters (0-9, a-f)',
      ],
      ['123456789012', 'received a number, expected a string of 24 hex characters'],
      ['1.5', 'received a number, expected a string of 24 hex characters'],
      ['true', 'received a boolean, expected a string of 24 hex characters'],
      [`["${ID}"]`, 'received an array, expected a string of 24 hex characters'],
      [`{ oid: "${ID}" }`, 'received an object, expected a string of 24 hex characters'],
      ['abc', 'received the unquoted word abc, expected a string of 24 hex characters in double quotes'],
    ])('should refuse %s as BAD_USER_INPUT with the pipe message and its location', (source, detail) => {
      const error = thrown(() => literal(source));
      expectBadUserInput(error, detail);
      expect(error.nodes?.[0]?.kind).toBe(parseGraphQLValue(source).kind);
    });

    it('should read a variable an executor left in the literal', () => {
      const node = parseGraphQLValue('$id');
      expect(ObjectIdScalar.parseLiteral(node, { id: ID }).toHexString()).toBe(ID);
      expectBadUserInput(
        thrown(() => ObjectIdScalar.parseLiteral(node, { id: 'abc' })),
        '"abc" is 3 characters long, expected 24 hex characters',
      );
    });
  });

  describe('serialize', () => {
    it.each([
      ['a Types.ObjectId', new Types.ObjectId(ID)],
      ['an ObjectId of the bson package', new BsonObjectId(ID)],
      ['an ObjectId of another bson copy', new OtherBsonObjectId(ID)],
      ['a hex string (a resolver behind the serializer interceptor)', ID],
      ['an upper-case hex string', ID.toUpperCase()],
    ])('should write %s as lowercase hex', (_label, value) => {
      expect(ObjectIdScalar.serialize(value)).toBe(ID);
    });

    it.each([
      ['a short string', 'abc', '"abc" is 3 characters long, expected 24 hex characters'],
      ['a number', 42, 'received a number, expected a string of 24 hex characters'],
      ['null', null, 'no value was given, expected 24 hex characters'],
      ['an object', { id: ID }, 'received an object, expected a string of 24 hex characters'],
    ])('should refuse %s as a server error, never as the client input', (_label, value, detail) => {
      const error = thrown(() => ObjectIdScalar.serialize(value));
      expect(error.message).toBe(
        `ObjectId cannot represent this value: ${detail}; return the ObjectId itself or its 24-character hex string`,
      );
      expect(error.extensions.code).toBeUndefined();
    });
  });

  describe('in a graphql-js schema', () => {
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: {
          echo: {
            type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(ObjectIdScalar))),
            args: { ids: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(ObjectIdScalar))) } },
            resolve: (_root, args: { ids: Types.ObjectId[] }) => {
              expect(args.ids.every((id) => id instanceof Types.ObjectId)).toBe(true);
              return args.ids;
            },
          },
        },
      }),
    });

    it('should round-trip literals and variables to lowercase hex', async () => {
      const result = await graphql({
        schema,
        source: `query ($id: ObjectId!) { echo(ids: ["${ID.toUpperCase()}", $id]) }`,
        variableValues: { id: ID },
      });
      expect(result).toEqual({ data: { echo: [ID, ID] } });
    });

    it('should name the bad element of a list variable, keeping the pipe message and BAD_USER_INPUT', async () => {
      const result = await graphql({
        schema,
        source: 'query ($ids: [ObjectId!]!) { echo(ids: $ids) }',
        variableValues: { ids: [ID, 'abc'] },
      });
      expect(result.errors).toHaveLength(1);
      const [error] = result.errors!;
      expect(error.message).toBe(
        'Variable "$ids" got invalid value "abc" at "ids[1]"; Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
      );
      expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT' });
    });

    it('should report a bad literal while validating, with its location and the pipe message', async () => {
      const result = await graphql({ schema, source: '{ echo(ids: ["abc"]) }' });
      expect(result.errors?.map((e) => [e.message, e.locations, e.extensions])).toEqual([
        [
          'Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
          [{ line: 1, column: 14 }],
          { code: 'BAD_USER_INPUT' },
        ],
      ]);
    });
  });
});
