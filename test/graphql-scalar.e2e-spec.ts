import 'reflect-metadata';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Args, Field, GraphQLModule, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { ObjectId as BsonObjectId } from 'bson';
import { Types } from 'mongoose';
import { ParseObjectIdPipe } from 'nestjs-objectid';
import { formatObjectIdError, ObjectIdScalar } from 'nestjs-objectid/graphql';
import request from 'supertest';

const ID = '507f1f77bcf86cd799439011';
const OTHER = '65a1b2c3d4e5f60718293a4b';
const invalid = (detail: string) => `Validation failed (ObjectId is expected): ${detail}`;
const TOO_SHORT = '"abc" is 3 characters long, expected 24 hex characters';

/** What a resolver saw: whether the argument arrived as mongoose's ObjectId. */
const parsedAs = (id: unknown) => (id instanceof Types.ObjectId ? 'Types.ObjectId' : typeof id);

// Schema first: the SDL declares `scalar ObjectId`, the resolvers map gives its implementation.
const TYPE_DEFS = /* GraphQL */ `
  scalar ObjectId
  type Echo {
    id: ObjectId!
    parsedAs: String!
    others: [ObjectId!]!
  }
  type Query {
    echo(id: ObjectId!): Echo!
    withPipe(id: String!): String!
  }
`;

@Resolver('Query')
class SchemaFirstResolver {
  @Query('echo')
  echo(@Args('id') id: Types.ObjectId) {
    // No serializer interceptor here: ObjectIds of two bson copies reach the scalar as they are.
    return { id, parsedAs: parsedAs(id), others: [new BsonObjectId(OTHER), OTHER.toUpperCase()] };
  }

  @Query('withPipe')
  withPipe(@Args('id', ParseObjectIdPipe) id: Types.ObjectId): string {
    return parsedAs(id);
  }
}

// Code first: `@Field(() => ObjectIdScalar)`, and `Types.ObjectId` mapped once through `scalarsMap`.
@ObjectType()
class Echo {
  @Field()
  id!: Types.ObjectId;

  @Field()
  parsedAs!: string;

  @Field(() => [ObjectIdScalar])
  others!: unknown[];
}

@Resolver(() => Echo)
class CodeFirstResolver {
  @Query(() => Echo)
  echo(@Args('id', { type: () => ObjectIdScalar }) id: Types.ObjectId): Echo {
    return { id, parsedAs: parsedAs(id), others: [new BsonObjectId(OTHER), OTHER.toUpperCase()] };
  }

  @Query(() => String)
  withPipe(@Args('id', { type: () => String }, ParseObjectIdPipe) id: Types.ObjectId): string {
    return parsedAs(id);
  }
}

const common: ApolloDriverConfig = { driver: ApolloDriver, graphiql: false, formatError: formatObjectIdError };

@Module({
  imports: [
    GraphQLModule.forRoot<ApolloDriverConfig>({
      ...common,
      typeDefs: TYPE_DEFS,
      resolvers: { ObjectId: ObjectIdScalar },
    }),
  ],
  providers: [SchemaFirstResolver],
})
class SchemaFirstModule {}

@Module({
  imports: [
    GraphQLModule.forRoot<ApolloDriverConfig>({
      ...common,
      autoSchemaFile: true,
      buildSchemaOptions: { scalarsMap: [{ type: Types.ObjectId, scalar: ObjectIdScalar }] },
    }),
  ],
  providers: [CodeFirstResolver],
})
class CodeFirstModule {}

describe.each([
  ['schema first', SchemaFirstModule],
  ['code first', CodeFirstModule],
])('the ObjectId scalar, %s', (_style, module) => {
  describe.each(['express', 'fastify'])('on %s', (platform) => {
    let app: INestApplication;
    let url: string;

    beforeAll(async () => {
      app =
        platform === 'fastify'
          ? await NestFactory.create(module, new FastifyAdapter(), { logger: false })
          : await NestFactory.create(module, { logger: false });
      await app.listen(0, '127.0.0.1');
      url = await app.getUrl();
    });
    afterAll(() => app?.close());

    const graphql = async (query: string, variables?: Record<string, unknown>) => {
      const res = await request(url).post('/graphql').send({ query, variables });
      return { status: res.status, body: res.body };
    };
    const ECHO = 'query ($id: ObjectId!) { echo(id: $id) { id parsedAs others } }';

    it('should parse a variable into a Types.ObjectId and write every ObjectId back as lowercase hex', async () => {
      expect(await graphql(ECHO, { id: ID.toUpperCase() })).toEqual({
        status: 200,
        body: { data: { echo: { id: ID, parsedAs: 'Types.ObjectId', others: [OTHER, OTHER] } } },
      });
    });

    it('should parse a literal the same way', async () => {
      expect((await graphql(`{ echo(id: "${ID}") { id parsedAs } }`)).body).toEqual({
        data: { echo: { id: ID, parsedAs: 'Types.ObjectId' } },
      });
    });

    it('should refuse a bad variable: 400, BAD_USER_INPUT and the pipe message', async () => {
      const answer = await graphql(ECHO, { id: 'abc' });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([
        expect.objectContaining({
          message: `Variable "$id" got invalid value "abc"; ${invalid(TOO_SHORT)}`,
          extensions: { code: 'BAD_USER_INPUT' },
        }),
      ]);
    });

    it('should refuse a bad literal: 400, BAD_USER_INPUT (with formatObjectIdError) and the pipe message', async () => {
      const answer = await graphql('{ echo(id: "abc") { id } }');
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([
        {
          message: invalid(TOO_SHORT),
          locations: [{ line: 1, column: 12 }],
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ]);
    });

    it('should refuse an unquoted literal, saying so', async () => {
      const answer = await graphql('{ echo(id: abc) { id } }');
      expect(answer.body.errors.map((e: { message: string }) => e.message)).toEqual([
        invalid('received the unquoted word abc, expected a string of 24 hex characters in double quotes'),
      ]);
    });

    // What ParseObjectIdPipe on a String argument gives a GraphQL client: its 400 exception,
    // which @nestjs/apollo turns into BAD_REQUEST with the pipe's message and body.
    it('should let ParseObjectIdPipe on a String argument answer BAD_REQUEST with its message', async () => {
      expect((await graphql(`{ withPipe(id: "${ID}") }`)).body).toEqual({ data: { withPipe: 'Types.ObjectId' } });
      const answer = await graphql('{ withPipe(id: "abc") }');
      expect(answer.body.data).toBeNull();
      expect(answer.body.errors).toEqual([
        expect.objectContaining({
          message: invalid(TOO_SHORT),
          path: ['withPipe'],
          extensions: expect.objectContaining({
            code: 'BAD_REQUEST',
            originalError: { statusCode: 400, message: invalid(TOO_SHORT), error: 'Bad Request' },
          }),
        }),
      ]);
    });
  });
});
