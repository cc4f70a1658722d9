import type { SchemaObject } from '@nestjs/swagger';

/** Pattern of a 24-character hex ObjectId, either case: what `ParseObjectIdPipe` and `@IsObjectId()` accept. */
export const OBJECT_ID_PATTERN = '^[0-9a-fA-F]{24}$';

/** Example id shown in the API docs (the one in MongoDB's own documentation). */
export const OBJECT_ID_EXAMPLE = '507f1f77bcf86cd799439011';

/**
 * OpenAPI schema of an ObjectId as it travels in JSON, a path or a query: a
 * 24-character hex string. Frozen, so a decorator cannot change it for every
 * other user; spread it to extend it (`{ ...OBJECT_ID_SCHEMA, description }`).
 */
export const OBJECT_ID_SCHEMA: Readonly<{ type: 'string'; pattern: string; example: string }> = Object.freeze({
  type: 'string',
  pattern: OBJECT_ID_PATTERN,
  example: OBJECT_ID_EXAMPLE,
});

/** A fresh, mutable copy of {@link OBJECT_ID_SCHEMA}, for @nestjs/swagger, which may write into what it is given. */
export function objectIdSchema(): SchemaObject {
  return { ...OBJECT_ID_SCHEMA };
}
