import 'reflect-metadata';
import { Body, Controller, Get, type INestApplication, Param, Post, Query } from '@nestjs/common';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { Types } from 'mongoose';
import { ParseObjectIdArrayPipe } from '../pipes/parse-object-id-array.pipe.js';
import { ParseObjectIdPipe } from '../pipes/parse-object-id.pipe.js';
import {
  ApiObjectIdParam,
  ApiObjectIdProperty,
  ApiObjectIdQuery,
  OBJECT_ID_EXAMPLE,
  OBJECT_ID_PATTERN,
  OBJECT_ID_SCHEMA,
} from './index.js';

const DESCRIPTION = 'MongoDB ObjectId: 24 hex characters';
const SCHEMA = { type: 'string', pattern: '^[0-9a-fA-F]{24}$', example: '507f1f77bcf86cd799439011' };

class LinkDto {
  @ApiObjectIdProperty()
  targetId!: Types.ObjectId;

  @ApiObjectIdProperty({ isArray: true, required: false, description: 'Other ids' })
  otherIds?: Types.ObjectId[];

  @ApiObjectIdProperty({ nullable: true, example: '6553f1003f2a91c8d4003039' })
  parentId!: string | null;
}

@Controller('links')
class LinksController {
  @Get(':id')
  @ApiObjectIdParam()
  findOne(@Param('id', ParseObjectIdPipe) _id: Types.ObjectId) {}

  @Get(':ownerId/children/:childId')
  @ApiObjectIdParam('ownerId', { description: 'The owner' })
  @ApiObjectIdParam('childId')
  child(
    @Param('ownerId', ParseObjectIdPipe) _owner: Types.ObjectId,
    @Param('childId', ParseObjectIdPipe) _child: Types.ObjectId,
  ) {}

  @Get()
  @ApiObjectIdQuery('after')
  @ApiObjectIdQuery('ids', { isArray: true })
  @ApiObjectIdQuery('owner', { required: true, description: 'Owner of the links' })
  list(
    @Query('after', ParseObjectIdPipe.with({ optional: true })) _after?: Types.ObjectId,
    @Query('ids', new ParseObjectIdArrayPipe({ optional: true })) _ids?: Types.ObjectId[],
    @Query('owner', ParseObjectIdPipe) _owner?: Types.ObjectId,
  ) {}

  @Post()
  create(@Body() _dto: LinkDto) {}
}

function parameters(document: OpenAPIObject, path: string, method: 'get' | 'post') {
  return document.paths[path]![method]!.parameters;
}

describe('Swagger helpers', () => {
  let app: INestApplication;
  let document: OpenAPIObject;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [LinksController] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    document = SwaggerModule.createDocument(app, { openapi: '3.0.0', info: { title: 't', version: '1' } });
  });
  afterAll(() => app.close());

  describe('OBJECT_ID_SCHEMA', () => {
    it('should be the documented string schema, frozen', () => {
      expect(OBJECT_ID_SCHEMA).toEqual(SCHEMA);
      expect(Object.isFrozen(OBJECT_ID_SCHEMA)).toBe(true);
    });

    it('should match exactly what the pipes accept', () => {
      const pattern = new RegExp(OBJECT_ID_PATTERN);
      expect(pattern.test(OBJECT_ID_EXAMPLE)).toBe(true);
      expect(pattern.test(OBJECT_ID_EXAMPLE.toUpperCase())).toBe(true);
      for (const bad of [
        '',
        'abc',
        `0x${OBJECT_ID_EXAMPLE.slice(2)}`,
        `${OBJECT_ID_EXAMPLE}0`,
        ` ${OBJECT_ID_EXAMPLE}`,
      ]) {
        expect(pattern.test(bad)).toBe(false);
      }
    });
  });

  describe('@ApiObjectIdParam()', () => {
    it('should document the default "id" path parameter once, as a required 24-hex string', () => {
      expect(parameters(document, '/links/{id}', 'get')).toEqual([
        { name: 'id', in: 'path', required: true, description: DESCRIPTION, schema: SCHEMA },
      ]);
    });

    it('should take a name and a description', () => {
      expect(parameters(document, '/links/{ownerId}/children/{childId}', 'get')).toEqual(
        expect.arrayContaining([
          { name: 'ownerId', in: 'path', required: true, description: 'The owner', schema: SCHEMA },
          { name: 'childId', in: 'path', required: true, description: DESCRIPTION, schema: SCHEMA },
        ]),
      );
      expect(parameters(document, '/links/{ownerId}/children/{childId}', 'get')).toHaveLength(2);
    });
  });

  describe('@ApiObjectIdQuery()', () => {
    it('should document optional single ids, required ids and comma-separated lists', () => {
      const byName = Object.fromEntries(parameters(document, '/links', 'get')!.map((p: any) => [p.name, p]));
      expect(byName).toEqual({
        after: { name: 'after', in: 'query', required: false, description: DESCRIPTION, schema: SCHEMA },
        ids: {
          name: 'ids',
          in: 'query',
          required: false,
          description: `${DESCRIPTION}, comma-separated`,
          style: 'form',
          explode: false,
          schema: { type: 'array', items: SCHEMA },
        },
        owner: { name: 'owner', in: 'query', required: true, description: 'Owner of the links', schema: SCHEMA },
      });
    });
  });

  describe('@ApiObjectIdProperty()', () => {
    it('should document single, array and nullable id properties', () => {
      expect(document.components!.schemas!.LinkDto).toEqual({
        type: 'object',
        properties: {
          targetId: { type: 'string', pattern: SCHEMA.pattern, example: SCHEMA.example, description: DESCRIPTION },
          otherIds: { type: 'array', items: SCHEMA, example: [SCHEMA.example], description: 'Other ids' },
          parentId: {
            type: 'string',
            pattern: SCHEMA.pattern,
            example: '6553f1003f2a91c8d4003039',
            description: DESCRIPTION,
            nullable: true,
          },
        },
        required: ['targetId', 'parentId'],
      });
    });

    it('should leave no "ObjectId" object schema behind (what @nestjs/swagger infers from Types.ObjectId)', () => {
      expect(Object.keys(document.components!.schemas!)).toEqual(['LinkDto']);
      expect(JSON.stringify(document)).not.toContain('$ref":"#/components/schemas/ObjectId');
    });

    it('should not let one decorated property change the shared schema', () => {
      expect(OBJECT_ID_SCHEMA).toEqual(SCHEMA);
    });
  });
});
