import { ApiParam, ApiProperty, ApiQuery, type ApiParamOptions, type ApiPropertyOptions } from '@nestjs/swagger';
import type { ParameterObject, SchemaObject } from '@nestjs/swagger';
import { objectIdSchema } from './object-id.schema.js';

const DEFAULT_DESCRIPTION = 'MongoDB ObjectId: 24 hex characters';

/** What a parameter decorator lets you set besides the schema, which it owns. */
type ParameterDocOptions = Pick<ParameterObject, 'description' | 'required' | 'deprecated' | 'example'>;

/** Options of {@link ApiObjectIdParam}. */
export type ApiObjectIdParamOptions = Omit<ParameterDocOptions, 'required'>;

/** Options of {@link ApiObjectIdQuery}. */
export interface ApiObjectIdQueryOptions extends ParameterDocOptions {
  /**
   * A list of ids, `?ids=a,b` (and `?ids=a&ids=b`), as `ParseObjectIdArrayPipe` reads it.
   * @default false
   */
  isArray?: boolean;
}

/** Options of {@link ApiObjectIdProperty}: those of `@ApiProperty()` except the type, which is an ObjectId. */
export type ApiObjectIdPropertyOptions = Omit<
  ApiPropertyOptions,
  'type' | 'format' | 'pattern' | 'items' | 'enum' | 'enumName' | 'enumSchema'
> & {
  /**
   * An array of ids; `example` then defaults to a one-element array.
   * @default false
   */
  isArray?: boolean;
};

function arrayOf(items: SchemaObject): SchemaObject {
  return { type: 'array', items };
}

/**
 * Documents a path parameter that `ParseObjectIdPipe` parses: a 24-hex string
 * with pattern and example. Put it on the handler next to the route:
 *
 * ```ts
 * @Get(':id')
 * @ApiObjectIdParam() // or @ApiObjectIdParam('productId', { description: 'The product' })
 * findOne(@Param('id', ParseObjectIdPipe) id: Types.ObjectId) {}
 * ```
 */
export function ApiObjectIdParam(name = 'id', options: ApiObjectIdParamOptions = {}): MethodDecorator & ClassDecorator {
  const param: ApiParamOptions = {
    description: DEFAULT_DESCRIPTION,
    ...options,
    name,
    required: true, // OpenAPI requires path parameters to be required
    // Overrides the type @nestjs/swagger reflects from the handler (Types.ObjectId),
    // which it would otherwise document as a `$ref` to an "ObjectId" object schema.
    type: String,
    schema: objectIdSchema(),
  };
  return ApiParam(param);
}

/**
 * Documents a query parameter holding an ObjectId (`?after=…`) or, with
 * `isArray`, a comma-separated list of them (`?ids=a,b`). Optional unless
 * `required: true`, like `ParseObjectIdPipe.with({ optional: true })`.
 */
export function ApiObjectIdQuery(
  name: string,
  options: ApiObjectIdQueryOptions = {},
): MethodDecorator & ClassDecorator {
  const { isArray = false, ...rest } = options;
  return ApiQuery({
    description: isArray ? `${DEFAULT_DESCRIPTION}, comma-separated` : DEFAULT_DESCRIPTION,
    required: false,
    ...rest,
    name,
    // `form` without `explode` is OpenAPI's way of saying `?ids=a,b`.
    ...(isArray ? { style: 'form' as const, explode: false } : {}),
    type: String, // see ApiObjectIdParam
    schema: isArray ? arrayOf(objectIdSchema()) : objectIdSchema(),
  });
}

/**
 * Documents a DTO or response property holding an ObjectId (or, with
 * `isArray`, an array of them) as the 24-hex string it is in JSON — whether
 * the class types it `Types.ObjectId` (after `@ToObjectId()`) or `string`.
 *
 * ```ts
 * @ApiObjectIdProperty() @IsObjectId() @ToObjectId() categoryId!: Types.ObjectId;
 * @ApiObjectIdProperty({ isArray: true, required: false }) relatedIds?: Types.ObjectId[];
 * ```
 */
export function ApiObjectIdProperty(options: ApiObjectIdPropertyOptions = {}): PropertyDecorator {
  const { isArray = false, ...rest } = options;
  const schema = objectIdSchema();
  const property = isArray
    ? { type: 'array' as const, items: schema, example: [schema.example] }
    : { type: 'string' as const, pattern: schema.pattern, example: schema.example };
  return ApiProperty({ description: DEFAULT_DESCRIPTION, ...property, ...rest } as ApiPropertyOptions);
}
