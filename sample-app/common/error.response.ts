import { ApiProperty } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';

/**
 * The body of every error answer, `{ statusCode, message, error }` (Nest's
 * shape, which HttpErrorShapeFilter keeps for all errors). Documented on each
 * 4xx/5xx response, so the OpenAPI document and Swagger UI show what a client
 * gets back.
 */
export class ErrorResponse {
  @ApiProperty({ type: 'integer', example: 400, description: 'The HTTP status again' })
  statusCode!: number;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    example: 'Validation failed (ObjectId is expected): "not-an-id" is 9 characters long, expected 24 hex characters',
    description: 'What was wrong and how to fix it; body validation lists one message per problem (at most 20)',
  })
  message!: string | string[];

  @ApiProperty({ example: 'Bad Request', description: "The status's reason phrase" })
  error!: string;
}

/**
 * An example error body for one response, e.g. `errorExample(404, 'product … not found')`,
 * so each documented status shows its own code and reason phrase instead of the
 * schema's 400 example.
 */
export function errorExample(statusCode: number, message: string | string[]): ErrorResponse {
  return { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error' };
}

/** What a route answers when its id parameter is not an ObjectId: ParseObjectIdPipe's 400, before any query. */
export const INVALID_ID_DESCRIPTION = 'The id is not 24 hex characters (the database is not asked)';

/** The body of that 400, as ParseObjectIdPipe words it. */
export const INVALID_ID_EXAMPLE = errorExample(
  400,
  'Validation failed (ObjectId is expected): "not-an-id" is 9 characters long, expected 24 hex characters',
);
